/**
 * `npm run test:times`: the whole suite in two runs of ava, timed apart, as issue 25 asks: first the test
 * files that existed when the issue was filed (the end of issue 15, commit 77a5967: 101 files, 814 tests
 * then), then the files added since. Prints each run's wall time and the slowest files of each (wall time
 * from the process's start to its exit, and its CPU), so that what dominates the suite is visible.
 *
 *   npm run test:times                      both runs
 *   npm run test:times -- --today           only the files of the day
 *   npm run test:times -- --since           only the files added since
 *   npm run test:times -- --concurrency 3   anything else is handed to ava
 *
 * It runs the compiled tests (build first, as `npm test` does) as `npm test` runs them: the groups of
 * test/groups/ each in one process, the other files alone (ava.config.js). Each process is timed by
 * scripts/file-times-hook.mjs, preloaded into it. SUITE_TIMES_OUT=times.json writes every one's times.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testGroups } from '../ava.config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `git ls-tree 77a5967 test/`: the test files of the day issue 25 was filed. */
const TODAY = `
abuse-limits agent-purchase bearer-verifier bench-database booking-bench booking-checks booking-contract
booking-failures booking-holds booking-idempotency booking-ownership booking-price-change booking-properties
booking-recovery booking-tools bookings capabilities-and-openapi card-capture-browser card-capture-http
card-vault-adapter card-vault-hosted-fields card-vault client-metadata-documents config contact-change
discovery embedded-database embedded-idle error-catalog error-docs failed-auth health hosted-pages-browser
hosted-pages-properties hosted-pages hosted-session-browser hostile-input identity-failed-auth
identity-properties identity-resolve key-cache logging loyalty-consent loyalty-links mcp-confirmation
mcp-conformance mcp-inspector mcp messages migrations money oauth-consent oauth-failures oauth-instances
oauth-registration oauth-sign-in oauth-tokens offer-normalization offer-reach offers oidc-adapter
openapi-reference pairwise-ids partner-auth passengers payment-method-tools payment-methods-browser
payment-methods-vault-down payment-methods payment-processor preferences profile provider-a-orders provider-a
provider-b-orders provider-b provider-c-orders provider-c provider-contract provider-d-orders provider-d
provider-e-orders provider-e purchase-confirmation-browser purchase-confirmations rate-limit-shared
recognition-browser recognition-frame rest-errors scope-requests secret-box service-process shutdown
sign-in-codes sign-in-pages signing-keys spending-limits-apps spending-limits-browser spending-limits-consent
users-me validation
`.split(/\s+/).filter(Boolean);

const args = process.argv.slice(2);
const only = args.find((arg) => arg === '--today' || arg === '--since');
const avaArgs = args.filter((arg) => arg !== only);

const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const all = fs.readdirSync(path.join(ROOT, 'dist/test')).filter((name) => name.endsWith('.test.js')).map((name) => name.slice(0, -'.test.js'.length));
const missing = TODAY.filter((name) => !all.includes(name));
if (missing.length) console.log(`Not found (renamed or removed since): ${missing.join(', ')}`);
// As `npm test` runs them: each group of test/groups/ in one process, the other files alone. A group
// holds files of one side only, so that the two times stay apart.
const processes = { today: [], since: [] };
const grouped = new Set();
for (const [group, members] of testGroups()) {
  const today = members.filter((name) => TODAY.includes(name));
  if (today.length && today.length < members.length) throw new Error(`test/groups/${group}.test.ts mixes files of both sides`);
  processes[today.length ? 'today' : 'since'].push(`groups/${group}`);
  for (const name of members) grouped.add(name);
}
for (const name of all.filter((each) => !grouped.has(each))) processes[TODAY.includes(name) ? 'today' : 'since'].push(name);
const count = (side) => all.filter((name) => TODAY.includes(name) === (side === 'today')).length;
const groups = [
  { name: "today's files", count: count('today'), files: processes.today },
  { name: 'files added since', count: count('since'), files: processes.since },
].filter((group) => !only || group.name === (only === '--today' ? "today's files" : 'files added since'));

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (ms) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
const ava = path.join(ROOT, 'node_modules/ava/entrypoints/cli.mjs');
const hook = path.join(ROOT, 'scripts/file-times-hook.mjs');
const results = [];
for (const group of groups) {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'suite-times-')), 'files.jsonl');
  console.log(`\n${group.name}: ${group.count} files in ${group.files.length} processes`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [ava, `--node-arguments=--import=${hook}`, ...avaArgs, ...group.files.map((name) => `dist/test/${name}.test.js`)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, SUITE_TIMES_LOG: log },
  });
  const wall = Date.now() - started;
  const files = fs.existsSync(log)
    ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line))
    : [];
  fs.rmSync(path.dirname(log), { recursive: true, force: true });
  results.push({ ...group, started, wall, status: run.status, times: files });
}
// Every file's times, for a closer look (SUITE_TIMES_OUT=times.json).
if (process.env.SUITE_TIMES_OUT) fs.writeFileSync(process.env.SUITE_TIMES_OUT, JSON.stringify(results, null, 2));

console.log(`\nNode.js ${process.version}, ${os.cpus().length} cores; CPU: the test processes' own, then their child processes' (Chromium, npm start)`);
for (const { name, count, files, wall, status, times } of results) {
  const cpu = times.reduce((sum, each) => sum + each.cpuMs, 0);
  const childCpu = times.reduce((sum, each) => sum + (each.childCpuMs ?? 0), 0);
  console.log(`\n${name} (${count} files, ${files.length} processes): ${minutes(wall)}${status === 0 ? '' : ' (FAILED)'}; CPU ${minutes(cpu)} + ${minutes(childCpu)}`);
  const slowest = times.map((each) => ({ ...each, wall: each.end - each.start })).sort((a, b) => b.wall - a.wall);
  for (const each of slowest.slice(0, 15)) {
    const children = each.childCpuMs ? ` + ${seconds(each.childCpuMs)}` : '';
    console.log(`  ${seconds(each.wall).padStart(8)} wall ${seconds(each.cpuMs).padStart(8)} CPU${children}  ${path.relative(path.join(ROOT, 'dist/test'), each.file)}`);
  }
}
process.exit(results.every((each) => each.status === 0) ? 0 : 1);
