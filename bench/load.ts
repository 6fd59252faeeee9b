/** Closed-loop load: a fixed number of workers, each starting its next operation when the last one ends. */

export interface LoadResult {
  /** Each successful operation's time, in milliseconds. */
  millis: number[];
  failures: string[];
  /** From the first start to the last end. */
  wallMs: number;
}

/** Runs `perWorker` operations on each of `workers` concurrent workers. */
export async function underLoad(workers: number, perWorker: number, operation: (worker: number, index: number) => Promise<unknown>): Promise<LoadResult> {
  const millis: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let index = 0; index < perWorker; index++) {
        const before = performance.now();
        try {
          await operation(worker, index);
          millis.push(performance.now() - before);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    }),
  );
  return { millis, failures, wallMs: performance.now() - started };
}

/** The nearest-rank percentile `p` (0 < p ≤ 100) of `values`; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
