/**
 * Runs PGlite in a worker thread and serves it over the PostgreSQL wire protocol on a Unix socket, so
 * the service talks to it with the same `pg` driver as to a real server, and a long query never stalls
 * the HTTP event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { releaseUnusedMemory } from '../memory.js';
import { applyV8Settings, enableCompileCache } from '../runtime.js';

interface WorkerInput {
  pgDataDir: string;
  socketPath: string;
  /** PostgreSQL settings (`name=value`), given on its command line after PGlite's own. */
  settings: string[];
}

const { pgDataDir, socketPath, settings } = workerData as WorkerInput;
const port = parentPort;
if (!port) throw new Error('embedded-worker must run in a worker thread');

// Before PGlite loads (hence its dynamic import): see runtime.ts.
applyV8Settings();
enableCompileCache();
const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-socket')]);

try {
  const db = await PGlite.create({ dataDir: pgDataDir, startParams: [...PGlite.defaultStartParams, ...settings.flatMap((setting) => ['-c', setting])] });
  // The service connects with a pool of exactly one: pglite-socket connections share one backend session.
  const server = new PGLiteSocketServer({ db, path: socketPath });
  await server.start();

  port.on('message', async (message: unknown) => {
    if (message !== 'stop') return;
    try {
      await server.stop();
      await db.close();
    } finally {
      port.postMessage({ stopped: true });
    }
  });
  port.postMessage({ ready: true });
  // Starting PGlite filled this thread's heap with what only the start needed. The main thread is
  // usually still loading the service's code: nobody waits for this.
  releaseUnusedMemory();
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
