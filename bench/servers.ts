/**
 * Benchmark servers run in processes of their own (bench/child.ts is their side): started here, they say
 * when they are ready and, when asked, how much CPU time they have used, so that a target's CPU time per
 * request is the server's alone, not the load generator's.
 * BENCH_SERVER_LOG=1 shows their standard output (the service's request and error log) for debugging.
 */
import { fork, type ChildProcess } from 'node:child_process';

export async function startServer<Ready>(script: URL): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(script, [], { stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { ready: Ready }).ready));
    child.once('exit', (code) => reject(new Error(`${script.pathname} exited with ${code}`)));
  });
  return { child, ready };
}

/** The server's CPU time so far (user and system), in microseconds. */
export function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message) => {
      const { cpu } = message as { cpu: NodeJS.CpuUsage };
      resolve(cpu.user + cpu.system);
    });
    child.send('cpu');
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
