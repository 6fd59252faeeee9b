/**
 * A lock file for the embedded database's data directory. PGlite has no lock of its own: a second process
 * on the same directory would open it and silently lose its writes. The lock holds the owner's pid, so a
 * lock left by a process that died is recognised as stale and taken over.
 */
import fs from 'node:fs';

export class DataDirectoryLockedError extends Error {
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `The data directory ${dataDir} is in use by another process (pid ${pid}). ` +
        'Stop that process first, or set DATA_DIR to another directory. ' +
        'Admin commands reach a running service through it: use `npm run admin -- ...`.',
    );
    this.name = 'DataDirectoryLockedError';
    this.pid = pid;
  }
}

export interface DirectoryLock {
  release(): void;
}

export function lockDataDirectory(dataDir: string, lockPath: string): DirectoryLock {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, started_at: new Date().toISOString() }));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          if (ownerOf(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = ownerOf(lockPath);
      if (pid !== undefined && pid !== process.pid && isAlive(pid)) throw new DataDirectoryLockedError(dataDir, pid);
      if (pid === process.pid) throw new DataDirectoryLockedError(dataDir, pid);
      // The owner is gone (or the file is unreadable): the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}; remove it if no process uses ${dataDir}.`);
}

/** The pid recorded in a lock file, if it can be read. */
export function ownerOf(lockPath: string): number | undefined {
  try {
    const { pid } = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
