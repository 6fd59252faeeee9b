/**
 * The CPU time the local PostgreSQL server has used so far (every `postgres` process: the backends the
 * servers under test talk to, and its own workers), read from /proc. The benchmark's targets share the
 * machine's cores with the database, so a target that waits on it pays for the database's work in
 * requests a second; this says how much of that work there was. A backend that has exited is no longer
 * counted: the servers under test keep their pools' connections open. Undefined off Linux, or when the
 * database is not on this machine (no `postgres` process to read).
 */
import fs from 'node:fs';

/** Linux counts process CPU in clock ticks of 1/100 s (USER_HZ, the same on every architecture Node runs on). */
const MICROS_PER_TICK = 10_000;

export function databaseCpuMicros(): number | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  let ticks = 0;
  let found = false;
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
    ticks += Number(fields[11]) + Number(fields[12]);
    found = true;
  }
  return found ? ticks * MICROS_PER_TICK : undefined;
}
