/**
 * `npm run bench`: service routes against a bare Koa app returning small JSON, measured in the same run.
 *
 * - the capabilities route: API key check, usage limiter, request log (issue 2's goal: ≥ 0.6 of bare);
 * - `GET /v1/users/me`: the same plus a bearer JWT verified locally and one PostgreSQL read (issue 3's
 *   goal: ≥ 0.25 of bare);
 * - `GET /v1/users/me/payment-methods`: the same path, listing the traveler's two saved cards (no goal;
 *   shown beside users/me);
 * - createProviderOffer with a provider_b offer: key check, native schema, normalization, one insert;
 * - getProviderOffer (key, one read) beside the get_offer_details tool call reading the same offer
 *   through /v1/mcp (bearer JWT, JSON-RPC, the MCP SDK v2), as a 2025-11-25 client sends it and as a
 *   2026-07-28 one does (issue 5's goal, kept by issue 14: ≥ 0.8 of the REST GET);
 * - normalization alone, per provider, in this process (offers per second);
 * - the refresh grant at the token endpoint: client authentication, the refresh token, grant and account
 *   read, a new RS256-signed access token, against oidc-provider's own refresh grant measured bare
 *   (oidc-bare-server.ts: the library alone, its memory adapter, the same token format; issue 25's goal:
 *   at least as fast);
 * - beside each of those with a goal, the same job done plainly with the same libraries
 *   (plain-server.ts, PostgreSQL only): what a missed goal is read against.
 *
 * Then, once those servers are stopped, the booking benchmark (booking-bench.ts): createProviderBooking
 * at 10 concurrent travelers against the sandboxes' own latency for the same calls; and the checkout
 * benchmark (checkout-bench.ts): the hosted checkout's weight, and the time from the checkout button's
 * click to its first step in Chromium against opening the checkout as a page of its own
 * (`npm run bench:checkout` runs it alone); and the start benchmark (start-bench.ts): `npm start` to
 * /healthz on the embedded database, fresh and warm, and on PostgreSQL as in production, with the
 * resident memory after each (`npm run bench:start` alone); and the suite (suite-bench.ts): the test
 * files of the issue's day as `npm test` runs them (BENCH_SUITE=0 leaves it out).
 *
 * Each server runs in its own process so that its CPU time per request can be read; autocannon drives
 * them with keep-alive connections in interleaved rounds. Each round measures every target back to back,
 * and a target's ratio is the median of its per-round ratios to the bare app: steadier than ratios of
 * medians when the machine's speed drifts.
 *
 * BENCH_SECONDS (default 5) per round, BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 10); for bookings,
 * BENCH_BOOKING_ROUNDS (default 3) and BENCH_BOOKINGS per traveler and round (default 10).
 * DATABASE_URL selects PostgreSQL for the service; otherwise it uses the embedded database.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import autocannon from 'autocannon';
import { runBookingBench } from './booking-bench.js';
import { runCheckoutBench } from './checkout-bench.js';
import { printStartFigures, runStartBench } from './start-bench.js';
import { runSuiteBench, SUITE_GOAL } from './suite-bench.js';
import { toolCall } from './tool-call.js';
import { printSummary, record, say } from './figures.js';
import { NORMALIZATION_CASES, NORMALIZATION_GOAL, normalizationRate } from './normalization-rate.js';
import { databaseCpu, databaseCpuBetween, isLocalDatabase } from './database-cpu.js';
import { cpuOf, median, startServer } from './servers.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
/** oidc-provider's own refresh grant, alone (oidc-bare-server.ts): what the service's is measured against. */
const REFRESH_BASELINE = 'oidc-provider refresh grant, bare (memory adapter, RS256 JWT)';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Ready {
  port: number;
  apiKey?: string;
  token?: string;
  refreshToken?: string;
  clientAuthorization?: string;
  providerBOffer?: unknown;
  offerId?: string;
  toolToken?: string;
  partnerId?: string;
  issuer?: string;
  audience?: string;
  jwks?: string;
}

interface Target {
  name: string;
  child: ChildProcess;
  url: string;
  headers: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** The least ratio wanted: to bare Koa, or to the target named in `comparedTo`. */
  goal?: number;
  comparedTo?: string;
  /** The target doing the same job plainly with the same libraries (plain-server.ts), when there is one. */
  plain?: string;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpuMicrosPerRequest: number;
  /** The local PostgreSQL server's CPU per request (database-cpu.ts); NaN when it cannot be read. */
  databaseCpuMicrosPerRequest: number;
  non2xx: number;
}

/** The database's CPU can be read when it is a server on this machine (not the embedded one, which runs in the service). */
const readDatabaseCpu = process.env.DATABASE_URL && isLocalDatabase(process.env.DATABASE_URL) ? databaseCpu : () => undefined;

async function measure(target: Target, duration: number): Promise<Round> {
  const cpuBefore = await cpuOf(target.child);
  const databaseBefore = readDatabaseCpu();
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections,
    duration,
    pipelining: 1,
  });
  const cpuAfter = await cpuOf(target.child);
  const databaseAfter = readDatabaseCpu();
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicrosPerRequest: requests > 0 ? (cpuAfter - cpuBefore) / requests : NaN,
    databaseCpuMicrosPerRequest: requests > 0 && databaseBefore && databaseAfter ? databaseCpuBetween(databaseBefore, databaseAfter) / requests : NaN,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/** PostgreSQL's CPU per request, the median of the rounds; blank when it could not be read (the embedded database). */
function databaseColumn(rounds: Round[]): string {
  const read = rounds.map((round) => round.databaseCpuMicrosPerRequest).filter((micros) => !Number.isNaN(micros));
  return read.length === rounds.length ? median(read).toFixed(1) : '';
}

const bareServer = await startServer<Ready>(new URL('./bare-server.ts', import.meta.url));
const appServer = await startServer<Ready>(new URL('./app-server.ts', import.meta.url));
const oidcServer = await startServer<Ready>(new URL('./oidc-bare-server.ts', import.meta.url));
const appBase = `http://127.0.0.1:${appServer.ready.port}`;
// The plain server works on the service's database from a process of its own: PostgreSQL only.
const plainServer = process.env.DATABASE_URL
  ? await startServer<Ready>(new URL('./plain-server.ts', import.meta.url), {
      PLAIN_PARTNER_ID: appServer.ready.partnerId as string,
      PLAIN_ISSUER: appServer.ready.issuer as string,
      PLAIN_AUDIENCE: appServer.ready.audience as string,
      PLAIN_JWKS: appServer.ready.jwks as string,
    })
  : undefined;
const targets: Target[] = [
  {
    name: 'bare Koa',
    child: bareServer.child,
    url: `http://127.0.0.1:${bareServer.ready.port}/v1/flights/providers/provider_a/capabilities`,
    headers: {},
  },
  {
    name: 'capabilities (key)',
    child: appServer.child,
    url: `${appBase}/v1/flights/providers/provider_a/capabilities`,
    headers: { 'x-api-key': appServer.ready.apiKey as string },
    goal: 0.7,
    plain: 'plain: capabilities',
  },
  {
    name: 'users/me (key + JWT + DB read)',
    child: appServer.child,
    url: `${appBase}/v1/users/me`,
    headers: { 'x-api-key': appServer.ready.apiKey as string, authorization: `Bearer ${appServer.ready.token}` },
    goal: 0.35,
    plain: 'plain: users/me',
  },
  {
    name: 'users/me/payment-methods (key + JWT + DB read of two cards)',
    child: appServer.child,
    url: `${appBase}/v1/users/me/payment-methods`,
    headers: { 'x-api-key': appServer.ready.apiKey as string, authorization: `Bearer ${appServer.ready.token}` },
  },
  {
    name: 'createProviderOffer (key + normalize + insert)',
    child: appServer.child,
    url: `${appBase}/v1/flights/providers/provider_b/offers`,
    method: 'POST',
    headers: { 'x-api-key': appServer.ready.apiKey as string, 'content-type': 'application/json' },
    body: JSON.stringify(appServer.ready.providerBOffer),
    goal: 0.15,
    plain: 'plain: createProviderOffer',
  },
  {
    name: 'getProviderOffer (key + DB read)',
    child: appServer.child,
    url: `${appBase}/v1/flights/providers/provider_b/offers/${appServer.ready.offerId}`,
    headers: { 'x-api-key': appServer.ready.apiKey as string },
    goal: 0.3,
    plain: 'plain: getProviderOffer',
  },
  {
    name: 'get_offer_details tool call, MCP 2025-11-25 (JWT + MCP + DB read)',
    child: appServer.child,
    url: `${appBase}/v1/mcp`,
    ...toolCall('2025-11-25', appServer.ready.toolToken as string, appServer.ready.offerId as string),
    goal: 0.8,
    comparedTo: 'getProviderOffer (key + DB read)',
    plain: 'plain: get_offer_details, MCP 2025-11-25',
  },
  {
    name: 'get_offer_details tool call, MCP 2026-07-28',
    child: appServer.child,
    url: `${appBase}/v1/mcp`,
    ...toolCall('2026-07-28', appServer.ready.toolToken as string, appServer.ready.offerId as string),
    goal: 0.8,
    comparedTo: 'getProviderOffer (key + DB read)',
    plain: 'plain: get_offer_details, MCP 2026-07-28',
  },
  {
    name: REFRESH_BASELINE,
    child: oidcServer.child,
    url: `http://127.0.0.1:${oidcServer.ready.port}/token`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: oidcServer.ready.clientAuthorization as string },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: oidcServer.ready.refreshToken as string }).toString(),
  },
  {
    name: 'refresh grant (Basic + RS256 signature)',
    child: appServer.child,
    url: `${appBase}/v1/oauth/token`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: appServer.ready.clientAuthorization as string },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: appServer.ready.refreshToken as string }).toString(),
    goal: 1,
    comparedTo: REFRESH_BASELINE,
  },
];
if (plainServer) {
  const plainBase = `http://127.0.0.1:${plainServer.ready.port}`;
  const key = { 'x-api-key': plainServer.ready.apiKey as string };
  targets.push(
    { name: 'plain: capabilities', child: plainServer.child, url: `${plainBase}/v1/flights/providers/provider_a/capabilities`, headers: key },
    { name: 'plain: users/me', child: plainServer.child, url: `${plainBase}/v1/users/me`, headers: { ...key, authorization: `Bearer ${appServer.ready.token}` } },
    {
      name: 'plain: createProviderOffer',
      child: plainServer.child,
      url: `${plainBase}/v1/flights/providers/provider_b/offers`,
      method: 'POST',
      headers: { ...key, 'content-type': 'application/json' },
      body: JSON.stringify(appServer.ready.providerBOffer),
    },
    { name: 'plain: getProviderOffer', child: plainServer.child, url: `${plainBase}/v1/flights/providers/provider_b/offers/${appServer.ready.offerId}`, headers: key },
    // The SDK as its documentation wires it, against the plain REST read.
    ...(['2025-11-25', '2026-07-28'] as const).map((revision) => ({
      name: `plain: get_offer_details, MCP ${revision}`,
      child: plainServer.child,
      url: `${plainBase}/v1/mcp`,
      ...toolCall(revision, appServer.ready.toolToken as string, appServer.ready.offerId as string),
      comparedTo: 'plain: getProviderOffer',
    })),
  );
}

try {
  say(`Node.js ${process.version} (${process.platform}-${process.arch}), ${os.cpus().length} cores, ${process.env.DATABASE_URL ? 'PostgreSQL of DATABASE_URL' : 'the embedded database'}.`);
  say(`Warming up (2 s per target), then ${rounds} interleaved rounds of ${seconds} s, ${connections} keep-alive connections.`);
  for (const target of targets) await measure(target, 2);
  const results = new Map<Target, Round[]>(targets.map((target) => [target, []]));
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) results.get(target)?.push(await measure(target, seconds));
  }

  const bare = results.get(targets[0] as Target) as Round[];
  /** The median of a target's per-round ratios to another target (bare Koa by default). */
  const ratioOf = (target: Target, baseline = bare) => median((results.get(target) as Round[]).map((r, i) => r.rps / (baseline[i] as Round).rps));
  const baselineOf = (target: Target) => results.get(targets.find((other) => other.name === target.comparedTo) as Target) as Round[];
  say('');
  say('| target | req/s | p50 ms | p99 ms | CPU µs/req | PostgreSQL CPU µs/req | non-2xx | ratio to bare | goal |');
  say('|---|---|---|---|---|---|---|---|---|');
  for (const target of targets) {
    const own = results.get(target) as Round[];
    const goal = target.goal === undefined ? '' : target.comparedTo ? `≥ ${target.goal} of ${target.comparedTo}: ${ratioOf(target, baselineOf(target)).toFixed(2)}` : `≥ ${target.goal}`;
    say(
      `| ${target.name} | ${median(own.map((r) => r.rps)).toFixed(0)} | ${median(own.map((r) => r.p50))} | ${median(own.map((r) => r.p99))} | ` +
        `${median(own.map((r) => r.cpuMicrosPerRequest)).toFixed(1)} | ${databaseColumn(own)} | ` +
        `${own.reduce((sum, r) => sum + r.non2xx, 0)} | ${ratioOf(target).toFixed(2)} | ${goal} |`,
    );
  }
  for (const target of targets.slice(1)) {
    const of = target.comparedTo ?? 'bare Koa';
    const ratio = ratioOf(target, target.comparedTo ? baselineOf(target) : bare);
    const goal = target.goal === undefined ? undefined : ({ at: 'least', value: target.goal, of } as const);
    // The plain target's ratio to the same baseline (for a tool call: the plain REST read).
    const plain = targets.find((other) => other.name === target.plain);
    const plainBaseline = plain?.comparedTo ? baselineOf(plain) : bare;
    record(`${target.name} / ${of}`, ratio, '×', goal, plain && ratioOf(plain, plainBaseline));
  }
  say('');
  say('Normalization in this process (native JSON object in, schema-checked Offer out; inputs parsed before timing):');
  for (const [provider, normalizer, native] of NORMALIZATION_CASES) {
    const rate = normalizationRate(normalizer, native, 2);
    say(`  ${provider}: ${rate.perSecond.toFixed(0)} offers/s (${rate.perCpuSecond.toFixed(0)} per CPU second)`);
    record(`normalization, ${provider}`, rate.perSecond, 'offers/s', { at: 'least', value: NORMALIZATION_GOAL });
  }
  const failing = targets.filter((target) => (results.get(target) as Round[]).some((r) => r.non2xx > 0));
  if (failing.length > 0) say(`Warning: non-2xx answers from ${failing.map((target) => target.name).join(', ')}.`);
} finally {
  bareServer.child.kill();
  oidcServer.child.kill();
  plainServer?.child.disconnect();
  appServer.child.disconnect();
}

await runBookingBench();
await runCheckoutBench();
say('');
const starts = await runStartBench({ log: say });
printStartFigures(starts, say);
for (const figure of starts.figures) record(figure.name, figure.value, figure.unit, figure.goal);
if (process.env.BENCH_SUITE !== '0') {
  say('');
  say("The suite: the test files of the issue's day, as `npm test` runs them (`npm run test:times -- --today`; its output on standard error):");
  const suite = await runSuiteBench();
  const time = (minutes: number) => {
    const seconds = Math.round(minutes * 60);
    return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  };
  const took = Number.isNaN(suite.minutes) ? 'a test FAILED: no figure' : time(suite.minutes);
  say(`  ${suite.files} files in ${suite.processes} processes: ${took}; CPU ${time(suite.cpuMinutes)} in the test processes, ${time(suite.childCpuMinutes)} in their children`);
  record("npm test, the issue's day's test files", suite.minutes, 'min', SUITE_GOAL);
}
printSummary(process.env.DATABASE_URL ? 'PostgreSQL of DATABASE_URL' : 'the embedded database');
