/**
 * `npm run bench:identity`: is the identity API's one 404 in one response-time band whatever its cause
 * (Identity surface rule 2)? Each cause is measured over real HTTP against the whole service on the real
 * PostgreSQL (DATABASE_URL, or the tests' default server, on a fresh database), beside a 200 resolve as
 * the baseline, N requests each (BENCH_IDENTITY_N, default 400), interleaved: every round sends one request
 * of each kind in a new random order, one at a time on one keep-alive connection, so that drift of the
 * machine's speed falls on every kind alike.
 *
 * Causes: unknown, malformed, revoked and another airline's guid; unknown, expired, replayed, another
 * airline's and revoked-consent token. Prints the median and p95 per kind, and each one's median as a
 * ratio of the unknown guid's (or token's).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { basicOf, connect, createAirline, disconnect, mintToken, type Airline } from '../test/helpers/identity.js';
import { startService } from '../test/helpers/service.js';

const N = Number(process.env.BENCH_IDENTITY_N ?? 400);
const WARMUP = 30;
/** One keep-alive connection: every request pays the same (no) connection setup. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const running = await startService({ LOG_LEVEL: 'silent' });
try {
  const first = await createAirline(running, 'First Air');
  const second = await createAirline(running, 'Second Air');
  const traveler = await connect(running, first, 'profile.read preferences.read');
  const elsewhere = await connect(running, second, 'profile.read', { email: traveler.email, browser: traveler.browser });
  const leaving = await connect(running, first, 'profile.read');
  const count = N + WARMUP;

  // Tokens are single use: one per request of each token kind, minted before the clock starts.
  const mintMany = (userId: string, clientId: string, clock?: { now(): Date }) =>
    Promise.all(Array.from({ length: count }, () => mintToken(running, userId, clientId, clock)));
  const past = { now: () => new Date(Date.now() - 121_000) };
  const fresh = await mintMany(traveler.userId, first.clientId);
  const expired = await mintMany(traveler.userId, first.clientId, past);
  const replayed = await mintMany(traveler.userId, first.clientId);
  const foreign = await mintMany(elsewhere.userId, second.clientId);
  const revoked = await mintMany(leaving.userId, first.clientId);
  for (const token of replayed) await post(first, { recognition_token: token }, 200);
  await disconnect(running, leaving, first.clientId);

  const kinds: Record<string, { body: (i: number) => unknown; status: number }> = {
    'resolve 200 by guid (baseline)': { body: () => ({ guid: traveler.guid }), status: 200 },
    'resolve 200 by token (baseline)': { body: (i) => ({ recognition_token: fresh[i] }), status: 200 },
    'unknown guid': { body: () => ({ guid: randomUUID() }), status: 404 },
    'malformed guid': { body: () => ({ guid: `not-a-guid-${randomBytes(4).toString('hex')}` }), status: 404 },
    'revoked guid': { body: () => ({ guid: leaving.guid }), status: 404 },
    "another airline's guid": { body: () => ({ guid: elsewhere.guid }), status: 404 },
    'unknown token': { body: () => ({ recognition_token: randomBytes(16).toString('base64url') }), status: 404 },
    'expired token': { body: (i) => ({ recognition_token: expired[i] }), status: 404 },
    'replayed token': { body: (i) => ({ recognition_token: replayed[i] }), status: 404 },
    "another airline's token": { body: (i) => ({ recognition_token: foreign[i] }), status: 404 },
    'revoked-consent token': { body: (i) => ({ recognition_token: revoked[i] }), status: 404 },
  };
  const times = new Map<string, number[]>(Object.keys(kinds).map((name) => [name, []]));
  const bodies = new Map<string, Set<string>>();
  for (let round = 0; round < count; round++) {
    for (const name of shuffled(Object.keys(kinds))) {
      const kind = kinds[name]!;
      const started = performance.now();
      const text = await post(first, kind.body(round), kind.status);
      const elapsed = performance.now() - started;
      if (round >= WARMUP) times.get(name)!.push(elapsed);
      if (kind.status === 404) {
        const error = (JSON.parse(text) as { error: string }).error;
        const shape = bodies.get(error) ?? new Set<string>();
        shape.add(text.replace(/"request_id":"[^"]*"/, '"request_id":"<id>"'));
        bodies.set(error, shape);
      }
    }
  }

  const rows = [...times].map(([name, samples]) => ({ name, median: quantile(samples, 0.5), p95: quantile(samples, 0.95) }));
  const unknownGuid = rows.find((row) => row.name === 'unknown guid')!.median;
  const unknownToken = rows.find((row) => row.name === 'unknown token')!.median;
  console.log(`Identity 404 timing: ${N} requests per kind, interleaved, one keep-alive connection, PostgreSQL`);
  console.log(`${'kind'.padEnd(34)}${'median ms'.padStart(11)}${'p95 ms'.padStart(10)}${'× unknown'.padStart(12)}`);
  for (const row of rows) {
    const reference = row.name.includes('token') ? unknownToken : unknownGuid;
    console.log(`${row.name.padEnd(34)}${row.median.toFixed(3).padStart(11)}${row.p95.toFixed(3).padStart(10)}${(row.median / reference).toFixed(2).padStart(12)}`);
  }
  for (const [error, shapes] of bodies) console.log(`distinct 404 bodies for ${error} (request_id aside): ${shapes.size}`);
} finally {
  await running.close();
  agent.destroy();
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

function post(airline: Airline, body: unknown, expected: number): Promise<string> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${running.url}/v1/identity/resolve`,
      { method: 'POST', agent, headers: { authorization: basicOf(airline), 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== expected) reject(new Error(`expected ${expected}, got ${response.statusCode}: ${text}`));
          else resolve(text);
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
