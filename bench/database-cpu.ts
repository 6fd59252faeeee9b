/**
 * The CPU time the local PostgreSQL server spends (its `postgres` processes: the backends the servers
 * under test talk to, and its own workers), read from /proc. The benchmark's targets share the machine's
 * cores with the database, so a target that waits on it pays for the database's work in requests a
 * second; this says how much of that work there was. A backend that exits between two readings takes
 * its time with it (the servers under test keep their pools' connections open while they are loaded):
 * the figure counts the processes seen at the second reading, so it never goes below zero. Undefined
 * off Linux, or when the database is not on this machine (no `postgres` process to read).
 */
import fs from 'node:fs';

/** Whether the database `url` names runs on this machine, where its processes can be read. */
export function isLocalDatabase(url: string): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);
}

/** Linux counts process CPU in clock ticks of 1/100 s (USER_HZ, the same on every architecture Node runs on). */
const MICROS_PER_TICK = 10_000;

/** Each `postgres` process's CPU time so far, in microseconds, by process id. */
export type DatabaseCpu = ReadonlyMap<string, number>;

export function databaseCpu(): DatabaseCpu | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  const byProcess = new Map<string, number>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid ...: the name is in parentheses and may hold spaces; fields 14 and 15 (utime, stime) follow.
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    byProcess.set(entry, (Number(fields[11]) + Number(fields[12])) * MICROS_PER_TICK);
  }
  return byProcess.size > 0 ? byProcess : undefined;
}

/** The CPU time the server spent from `before` to `after`, in microseconds: each process's share, a new one's whole. */
export function databaseCpuBetween(before: DatabaseCpu, after: DatabaseCpu): number {
  let spent = 0;
  for (const [process, micros] of after) spent += micros - (before.get(process) ?? 0);
  return spent;
}
