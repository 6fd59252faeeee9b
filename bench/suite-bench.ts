/**
 * The suite's row of issue 25: the test files of the day the issue was filed (101 files), run as
 * `npm test` runs them, timed by `npm run test:times -- --today` (scripts/suite-times.mjs), last in
 * `npm run bench` so that every goal is printed by one run. Its tests' own output goes to standard error.
 * The tests reach PostgreSQL as `npm test` does: on DATABASE_URL's server, in databases named for tests,
 * beside `travel_test`. A run with a failed test gives no figure. BENCH_SUITE=0 leaves it out (about
 * two and a half minutes on the 2-core machine).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase } from './ensure-database.js';
import type { Goal } from './figures.js';
import { PROJECT_DIR } from './servers.js';

/** Issue 25: the suite of its day within three minutes on the 2-core machine. */
export const SUITE_GOAL: Goal = { at: 'most', value: 3 };

export interface SuiteFigures {
  /** Wall time in minutes; NaN when a test failed. */
  minutes: number;
  files: number;
  processes: number;
  /** The test processes' CPU, and their children's (Chromium, npm start), in minutes. */
  cpuMinutes: number;
  childCpuMinutes: number;
}

interface SuiteRun {
  count: number;
  files: string[];
  wall: number;
  status: number | null;
  times: { cpuMs: number; childCpuMs?: number }[];
}

export async function runSuiteBench(): Promise<SuiteFigures> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (process.env.DATABASE_URL) {
    const tests = new URL(process.env.DATABASE_URL);
    tests.pathname = '/travel_test';
    await ensureDatabase(tests.href);
    env.DATABASE_URL = tests.href;
  }
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'suite-bench-')), 'times.json');
  env.SUITE_TIMES_OUT = out;
  try {
    const child = spawn(process.execPath, [path.join(PROJECT_DIR, 'scripts/suite-times.mjs'), '--today'], { cwd: PROJECT_DIR, env, stdio: ['ignore', 2, 2] });
    const code = await new Promise((resolve, reject) => {
      child.once('exit', resolve);
      child.once('error', reject);
    });
    // No times written (the build failed, say): no figure, and the rest of the run's figures still printed.
    const [run] = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as SuiteRun[]) : [];
    if (!run) {
      process.stderr.write(`scripts/suite-times.mjs ended with ${String(code)} and timed no run\n`);
      return { minutes: NaN, files: 0, processes: 0, cpuMinutes: NaN, childCpuMinutes: NaN };
    }
    const minutes = (ms: number) => ms / 60_000;
    return {
      minutes: run.status === 0 ? minutes(run.wall) : NaN,
      files: run.count,
      processes: run.files.length,
      cpuMinutes: minutes(run.times.reduce((sum, each) => sum + each.cpuMs, 0)),
      childCpuMinutes: minutes(run.times.reduce((sum, each) => sum + (each.childCpuMs ?? 0), 0)),
    };
  } finally {
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}
