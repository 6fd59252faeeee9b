/**
 * The embedded PostgreSQL: PGlite in a worker thread behind a Unix socket in the data directory, guarded
 * by a lock on the directory. The socket is named as PostgreSQL names its own (`.s.PGSQL.<port>`), so `pg` reaches
 * it with `host` = the directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lockDataDirectory } from './lock.js';
import { copySchemaImage } from './schema-image.js';

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
  /**
   * For a data directory that holds no database yet: the path of a prepared database to copy in instead
   * of running initdb (schema-image.ts), or undefined to run it. Called with the directory locked.
   */
  initialImage?(): Promise<string | undefined>;
}

/**
 * PostgreSQL's settings for a development machine. PGlite keeps initdb's defaults, sized for a server:
 * 128 MB of shared buffers (wal_buffers follow them), every page of which ends up resident in the
 * worker's WebAssembly memory once used. A development database of a few megabytes is served as fast
 * from 16 MB, with the operating system's page cache behind it.
 */
export const EMBEDDED_SETTINGS = ['shared_buffers=16MB'];

const STOP_TIMEOUT_MS = 10_000;

export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = await lockDataDirectory(dataDir);
  const socketPath = path.join(dataDir, `.s.PGSQL.${EMBEDDED_PORT}`);
  // A socket file left by a process that died would make listen() fail; the lock proves it is ours now.
  fs.rmSync(socketPath, { force: true });

  const pgDataDir = path.join(dataDir, 'pgdata');
  let worker: Worker | undefined;
  try {
    if (options.initialImage && !fs.existsSync(pgDataDir)) {
      const image = await options.initialImage();
      if (image) copySchemaImage(image, pgDataDir);
    }
    // The worker's module beside this one: embedded-worker.ts in the sources, .js in the build.
    worker = startWorker(new URL(`./embedded-worker${path.extname(import.meta.url)}`, import.meta.url), {
      pgDataDir,
      socketPath,
      settings: EMBEDDED_SETTINGS,
    });
    const first = await nextMessage(worker);
    if (!first.ready) throw new Error(`The embedded PostgreSQL did not start: ${first.error ?? 'unknown reason'}`);
  } catch (error) {
    await worker?.terminate();
    await lock.release();
    throw error;
  }
  const running = worker;

  let stopping: Promise<void> | undefined;
  running.on('error', (error) => {
    if (!stopping) options.onCrash?.(error);
  });
  running.on('exit', (code) => {
    if (!stopping) options.onCrash?.(new Error(`The embedded PostgreSQL worker exited unexpectedly (code ${code}).`));
  });
  return {
    socketDir: dataDir,
    port: EMBEDDED_PORT,
    stop() {
      stopping ??= (async () => {
        try {
          const stopped = nextMessage(running);
          running.postMessage('stop');
          // A worker that does not answer in time is terminated anyway, so that the process can exit.
          await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref())]);
        } finally {
          await running.terminate();
          fs.rmSync(socketPath, { force: true });
          await lock.release();
        }
      })();
      return stopping;
    },
  };
}

/**
 * Built (dist/, plain JavaScript), the worker runs its compiled module. Run from the TypeScript sources
 * through tsx, whose loader a worker thread does not inherit on Node 20, a small bootstrap registers it in
 * the worker before importing the real module.
 */
function startWorker(moduleUrl: URL, workerData: unknown): Worker {
  if (moduleUrl.pathname.endsWith('.js')) return new Worker(moduleUrl, { workerData });
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
