/**
 * The lock on the embedded database's data directory. PGlite has no lock of its own: a second process
 * on the same directory would open it and silently lose its writes (or corrupt it).
 *
 * The lock is a listening Unix socket. Binding is atomic, so two starters can never both win, and on
 * Linux the socket lives in the abstract namespace, which the kernel frees the moment its process dies:
 * no stale lock after a crash, no pid that a restarted container might reuse. Whoever holds it answers
 * with its pid, so the refusal can name the holder. Elsewhere the socket is a file in the directory; a
 * file nobody listens on is stale and is replaced.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export class DataDirectoryLockedError extends Error {
  readonly pid: number | undefined;

  constructor(dataDir: string, pid: number | undefined) {
    super(
      `The data directory ${dataDir} is in use by another process${pid === undefined ? '' : ` (pid ${pid})`}. ` +
        'Stop that process first, or set DATA_DIR to another directory. ' +
        'Admin commands reach a running service through it: use `npm run admin -- ...`.',
    );
    this.name = 'DataDirectoryLockedError';
    this.pid = pid;
  }
}

export interface DirectoryLock {
  release(): Promise<void>;
}

export async function lockDataDirectory(dataDir: string): Promise<DirectoryLock> {
  const address = lockAddress(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    const server = net.createServer((socket) => {
      // An asker that goes away without reading the answer (its process busy, then exiting) resets the
      // connection: nothing of ours failed, and unhandled, that error would stop the service.
      socket.on('error', () => undefined);
      socket.end(JSON.stringify({ pid: process.pid }));
    });
    try {
      await listen(server, address);
      // The lock must not keep the process alive on its own.
      server.unref();
      return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const holder = await askHolder(address);
      if (holder.alive) throw new DataDirectoryLockedError(dataDir, holder.pid);
      // Only a socket file can be stale (an abstract socket disappears with its process).
      fs.rmSync(address, { force: true });
    }
  }
  throw new DataDirectoryLockedError(dataDir, undefined);
}

function lockAddress(dataDir: string): string {
  if (process.platform === 'linux') {
    const id = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 32);
    return `\0travel-partner-data-dir-${id}`;
  }
  return path.join(dataDir, 'postgres.lock.sock');
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function askHolder(address: string): Promise<{ alive: boolean; pid?: number }> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(address);
    socket.setTimeout(2000, () => socket.destroy());
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => {
      try {
        resolve({ alive: true, pid: (JSON.parse(answer) as { pid?: number }).pid });
      } catch {
        resolve({ alive: true });
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ alive: error.code !== 'ECONNREFUSED' && error.code !== 'ENOENT' }));
    socket.on('close', () => resolve({ alive: true }));
  });
}
