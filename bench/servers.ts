/**
 * Benchmark servers run in processes of their own (bench/child.ts is their side): started here, they say
 * when they are ready and, when asked, how much CPU time they have used, so that a target's CPU time per
 * request is the server's alone, not the load generator's.
 * BENCH_SERVER_LOG=1 shows their standard output (the service's request and error log) for debugging.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The benchmarks run from the build (dist/bench/, `npm run bench` builds first), or from the sources
// through a TypeScript loader: either way, the project is where package.json is.
const here = fileURLToPath(import.meta.url);
const builtHere = here.endsWith('.js');

/** The project's directory (package.json, the sources); dist/ holds the build. */
export const PROJECT_DIR = path.resolve(path.dirname(here), builtHere ? '../..' : '..');

/**
 * Starts a benchmark server, named by its source (`new URL('./app-server.ts', import.meta.url)`). Run from
 * the build, the compiled file beside it (app-server.js) is started, with plain `node`: fork passes on this
 * process's own node options, a TypeScript loader only when this process has one. `env` is added to this
 * process's environment.
 */
export async function startServer<Ready>(source: URL, env: Record<string, string> = {}): Promise<{ child: ChildProcess; ready: Ready }> {
  const script = builtHere ? new URL(source.href.replace(/\.ts$/, '.js')) : source;
  const child = fork(script, [], { stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit', 'ipc'], env: { ...process.env, ...env } });
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
