/**
 * The start benchmark: how long `npm start` takes until `/healthz` answers, and how much memory the
 * service holds once started.
 *
 * The service is started as `npm start` starts it: package.json's own `scripts.start`, run by `sh -c` in
 * the project's directory with node_modules/.bin on the PATH, so the figures follow the start command
 * when it changes. The `node` it finds is the one running this benchmark (its directory goes first on the
 * PATH): run the benchmark with Node 24 to measure Node 24. npm's own start-up (a few hundred ms) is left
 * out: it is the same for every version of the service.
 *
 * - embedded database, sandbox mode (what `npm start` gives a newcomer), fresh data directory: spawn to
 *   the first 200 from /healthz;
 * - the same directory started again (warm);
 * - on PostgreSQL (a fresh database on DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432),
 *   as in production: NODE_ENV=production, no sandboxes, keys and outside systems configured (pointing
 *   nowhere: nothing calls them during a start);
 * - resident memory (VmRSS of the started process and every process below it) a few seconds after each
 *   start, once the start's own garbage had a chance to be collected.
 *
 * START_BENCH_ROUNDS (default 3) rounds, alternating the kinds of start; figures are medians.
 * Run alone: `npm run bench:start` (`-- --json` prints the figures as JSON).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import type { Figure } from './figures.js';
import { freshDatabase } from './fresh-database.js';
import { median } from './servers.js';

export interface StartFigures {
  node: string;
  rounds: number;
  figures: Figure[];
}

const PROJECT_DIR = projectDir();
const HEALTH_TIMEOUT_MS = 60_000;
// Long enough for the start's garbage to be collected and the heap to settle; short enough to keep the run brief.
const SETTLE_MS = 3000;
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

interface Start {
  seconds: number;
  rssMb: number;
}

export async function runStartBench(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<StartFigures> {
  const rounds = options.rounds ?? Number(process.env.START_BENCH_ROUNDS ?? 3);
  const log = options.log ?? ((line: string) => console.log(line));
  const serverUrl = process.env.DATABASE_URL ?? DEFAULT_SERVER_URL;
  const fresh: Start[] = [];
  const warm: Start[] = [];
  const postgres: Start[] = [];
  for (let round = 1; round <= rounds; round++) {
    await withDataDir(async (dataDir) => {
      fresh.push(await timeStart({ DATA_DIR: dataDir }));
      warm.push(await timeStart({ DATA_DIR: dataDir }));
    });
    postgres.push(await onFreshDatabase(serverUrl, (url) => withDataDir(async (dir) => timeStart({ ...(await productionEnv(dir)), DATA_DIR: dir, DATABASE_URL: url }))));
    const last = (starts: Start[]) => `${starts.at(-1)?.seconds.toFixed(2)} s ${Math.round(starts.at(-1)?.rssMb ?? 0)} MB`;
    log(`round ${round}/${rounds}: fresh ${last(fresh)}, warm ${last(warm)}, PostgreSQL ${last(postgres)}`);
  }

  const figure = (name: string, value: number, unit: string, most?: number): Figure =>
    most === undefined ? { name, value, unit } : { name, value, unit, goal: { at: 'most', value: most }, met: value <= most };
  const seconds = (starts: Start[]) => median(starts.map((start) => start.seconds));
  const rss = (starts: Start[]) => median(starts.map((start) => start.rssMb));
  const figures = [
    figure('start to /healthz, embedded, fresh data directory', seconds(fresh), 's', 3),
    figure('start to /healthz, embedded, warm data directory', seconds(warm), 's', 1),
    figure('start to /healthz, PostgreSQL (production), fresh database', seconds(postgres), 's'),
    // The larger of the fresh and the warm start's: the first one also copied the schema in and seeded.
    figure('resident memory after start, embedded', Math.max(rss(fresh), rss(warm)), 'MB', 300),
    figure('resident memory after start, PostgreSQL (production)', rss(postgres), 'MB', 150),
  ];
  return { node: process.version, rounds, figures };
}

export function printStartFigures(result: StartFigures, log: (line: string) => void = (line) => console.log(line)): void {
  log(`Start and memory (${result.node}, median of ${result.rounds}):`);
  const width = Math.max(...result.figures.map((each) => each.name.length));
  for (const each of result.figures) {
    const value = each.unit === 's' ? `${each.value.toFixed(2)} s` : `${Math.round(each.value)} MB`;
    const goal = each.goal === undefined ? '' : `goal ≤ ${each.goal.value} ${each.unit}  ${each.met ? 'met' : 'MISSED'}`;
    log(`  ${each.name.padEnd(width)}  ${value.padStart(8)}  ${goal}`);
  }
}

/** Starts the service as `npm start` does, times it to /healthz, reads its memory, and stops it. */
async function timeStart(env: Record<string, string>): Promise<Start> {
  const [port, vaultPort, demoAirlinePort, demoTravelPort] = (await freePorts(4)) as [number, number, number, number];
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn('sh', ['-c', startCommand()], {
    cwd: PROJECT_DIR,
    env: {
      ...inherited,
      PATH: [path.dirname(process.execPath), path.join(PROJECT_DIR, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter),
      HOST: '127.0.0.1',
      PORT: String(port),
      VAULT_PORT: String(vaultPort),
      DEMO_AIRLINE_PORT: String(demoAirlinePort),
      DEMO_TRAVEL_PORT: String(demoTravelPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + String(chunk)).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = performance.now();
  try {
    await waitForHealth(port, child, () => output);
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { seconds, rssMb: treeRssKb(child.pid as number) / 1024 };
  } finally {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  }
}

/** The nearest folder above this file holding a package.json: the project's, from bench/ or dist/bench/. */
function projectDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('no package.json above the benchmark');
    dir = parent;
  }
  return dir;
}

function startCommand(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const command = pkg.scripts?.start;
  if (!command) throw new Error('package.json has no scripts.start');
  return command;
}

async function waitForHealth(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = performance.now() + HEALTH_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`The service exited before /healthz answered:\n${output()}`);
    if ((await healthStatus(port)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`/healthz did not answer within ${HEALTH_TIMEOUT_MS / 1000} s:\n${output()}`);
}

function healthStatus(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', () => resolve(undefined));
  });
}

/** VmRSS of a process and all its descendants, in kB (Linux /proc). */
function treeRssKb(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (in parentheses) may hold spaces: the fields after its closing parenthesis are fixed.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we listed it.
    }
  }
  let total = 0;
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    total += rssKb(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}

function rssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

async function freePorts(count: number): Promise<number[]> {
  // Every probe stays open until the last is taken: the kernel may hand a just-closed port out again.
  const probes = Array.from({ length: count }, () => net.createServer());
  for (const probe of probes) await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const ports = probes.map((probe) => (probe.address() as AddressInfo).port);
  await Promise.all(probes.map((probe) => new Promise<void>((resolve) => probe.close(() => resolve()))));
  return ports;
}

/**
 * What a production start is given: keys of its own (in `dir`), an SMTP relay, the card vault, the payment
 * processor and the five flight providers. None of them is reached during a start: they point nowhere.
 */
async function productionEnv(dir: string): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const jwksPath = path.join(dir, 'jwks.json');
  fs.writeFileSync(jwksPath, JSON.stringify({ keys: [{ ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' }] }), { mode: 0o600 });
  const nowhere = 'http://127.0.0.1:9';
  const providers = Object.fromEntries(
    ['A', 'B', 'C', 'D', 'E'].flatMap((letter) => [
      [`PROVIDER_${letter}_URL`, `${nowhere}/provider-${letter.toLowerCase()}`],
      [`PROVIDER_${letter}_TOKEN`, `token_${randomBytes(8).toString('hex')}`],
    ]),
  );
  return {
    NODE_ENV: 'production',
    SANDBOX: '0',
    JWKS_PATH: jwksPath,
    COOKIE_KEYS: randomBytes(32).toString('base64url'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SMTP_URL: 'smtp://127.0.0.1:9',
    VAULT_URL: `${nowhere}/vault`,
    VAULT_API_KEY: `key_${randomBytes(8).toString('hex')}`,
    PROCESSOR_URL: `${nowhere}/processor`,
    PROCESSOR_API_KEY: `sk_${randomBytes(8).toString('hex')}`,
    ...providers,
  };
}

async function withDataDir<T>(run: (dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-start-bench-'));
  try {
    return await run(dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A database made for one start on the server of `serverUrl`, dropped after it. */
async function onFreshDatabase<T>(serverUrl: string, run: (url: string) => Promise<T>): Promise<T> {
  const database = await freshDatabase(serverUrl, 'tp_start_bench');
  try {
    return await run(database.url);
  } finally {
    await database.drop();
  }
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const json = process.argv.includes('--json');
  // With --json, stdout carries the JSON alone: progress goes to stderr.
  const result = await runStartBench(json ? { log: (line) => console.error(line) } : {});
  if (json) console.log(JSON.stringify(result, null, 2));
  else printStartFigures(result);
}
