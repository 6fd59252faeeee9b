/**
 * The embedded PostgreSQL: PGlite in a worker thread behind a Unix socket in the data directory, guarded
 * by a lock on the directory. The socket is named as PostgreSQL names its own (`.s.PGSQL.<port>`), so `pg` reaches
 * it with `host` = the directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lockDataDirectory } from './lock.js';

export const EMBEDDED_PORT = 5432;

export interface EmbeddedPostgres {
  /** Directory holding the socket: pass as `host` to pg. */
  socketDir: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Called if the database worker dies while the service runs: nothing can be served after that. */
  onCrash?(error: Error): void;
}

const STOP_TIMEOUT_MS = 10_000;

export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = await lockDataDirectory(dataDir);
  const socketPath = path.join(dataDir, `.s.PGSQL.${EMBEDDED_PORT}`);
  // A socket file left by a process that died would make listen() fail; the lock proves it is ours now.
  fs.rmSync(socketPath, { force: true });

  const worker = startWorker(new URL('./embedded-worker.ts', import.meta.url), {
    pgDataDir: path.join(dataDir, 'pgdata'),
    socketPath,
  });
  try {
    const first = await nextMessage(worker);
    if (!first.ready) throw new Error(`The embedded PostgreSQL did not start: ${first.error ?? 'unknown reason'}`);
  } catch (error) {
    await worker.terminate();
    await lock.release();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  worker.on('error', (error) => {
    if (!stopping) options.onCrash?.(error);
  });
  worker.on('exit', (code) => {
    if (!stopping) options.onCrash?.(new Error(`The embedded PostgreSQL worker exited unexpectedly (code ${code}).`));
  });
  return {
    socketDir: dataDir,
    port: EMBEDDED_PORT,
    stop() {
      stopping ??= (async () => {
        try {
          const stopped = nextMessage(worker);
          worker.postMessage('stop');
          // A worker that does not answer in time is terminated anyway, so that the process can exit.
          await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref())]);
        } finally {
          await worker.terminate();
          fs.rmSync(socketPath, { force: true });
          await lock.release();
        }
      })();
      return stopping;
    },
  };
}

/**
 * We run from TypeScript sources through tsx, whose loader a worker thread does not inherit on Node 20:
 * a small bootstrap registers it in the worker before importing the real module.
 */
function startWorker(moduleUrl: URL, workerData: unknown): Worker {
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

interface WorkerMessage {
  ready?: boolean;
  stopped?: boolean;
  error?: string;
}

function nextMessage(worker: Worker): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
      cleanup();
      resolve(message);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`The embedded PostgreSQL worker exited (code ${code}).`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
