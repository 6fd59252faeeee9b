/**
 * A service in a child process (test/fixtures/booking-process.ts) that dies at a named step of the booking
 * saga: the crash the recovery tests finish or compensate. It shares the test's database and keys, so the
 * service that recovers sees everything it did, the sandboxes' records included.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compiled } from './built.js';
import { uniquePrefix, type RunningService } from './service.js';

export interface DyingService {
  url: string;
  /** Resolves with the signal that ended the process (SIGKILL when the fault injection fired). */
  death: Promise<NodeJS.Signals | null>;
  /** What the process wrote on stderr: the reason, when it did not come up. */
  output(): string;
  /** Kills it if it still runs (a test that failed before the crash), and removes its data directory. */
  dispose(): void;
}

/** Starts the child with BOOKING_FAULT_AFTER=`step`, keyed like `keysOf`, on `databaseUrl`. */
export async function startDyingService(keysOf: RunningService, databaseUrl: string, dataEncryptionKey: string, step: string): Promise<DyingService> {
  const child = spawn(process.execPath, [compiled('test/fixtures/booking-process.ts')], {
    env: {
      ...process.env,
      BOOKING_FAULT_AFTER: step,
      DATABASE_URL: databaseUrl,
      DATA_ENCRYPTION_KEY: dataEncryptionKey,
      JWKS_PATH: path.join(keysOf.config.dataDir, 'keys', 'jwks.json'),
      BASE_URL: keysOf.config.baseUrl,
      RATE_LIMIT_PREFIX: uniquePrefix(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const death = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const ready = await readyLine(child, death, () => stderr);
  return {
    url: ready.url,
    death,
    output: () => stderr,
    dispose() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      fs.rmSync(ready.dataDir, { recursive: true, force: true });
    },
  };
}

async function readyLine(child: ChildProcess, death: Promise<unknown>, stderr: () => string): Promise<{ url: string; dataDir: string }> {
  let stdout = '';
  const line = new Promise<{ url: string; dataDir: string }>((resolve) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(stdout.slice(0, end)));
    });
  });
  const died = death.then(() => Promise.reject(new Error(`the booking process died before it listened:\n${stderr()}`)));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the booking process did not listen in time:\n${stderr()}`)), 60_000);
  });
  try {
    return await Promise.race([line, died, late]);
  } finally {
    clearTimeout(timer);
  }
}
