/** What a benchmark server tells its parent: where it listens, and on request its CPU time so far. */
export function reportToParent(ready: Record<string, unknown>): void {
  if (!process.send) throw new Error('run me through bench/run.ts');
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
  process.send({ ready });
}
