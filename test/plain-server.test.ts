/**
 * The benchmark's plain server (bench/plain-server.ts) does the service's jobs: for each target it reads
 * against, it answers what the service answers (the same status, type, body and header names), so that a
 * goal read against it is read against the same work. Both run as `npm run bench` runs them, in
 * processes of their own, on a fresh database.
 */
import type { ChildProcess } from 'node:child_process';
import test from 'ava';
import { freshDatabase, type FreshDatabase } from '../bench/fresh-database.js';
import { startServer } from '../bench/servers.js';
import { toolCall, type Revision } from '../bench/tool-call.js';
import { DEFAULT_TEST_DATABASE_URL } from './helpers/database.js';

interface Ready {
  port: number;
  apiKey: string;
  token: string;
  toolToken: string;
  offerId: string;
  providerBOffer: unknown;
  partnerId: string;
  issuer: string;
  audience: string;
  jwks: string;
}

let database: FreshDatabase;
let service: { child: ChildProcess; ready: Ready };
let plain: { child: ChildProcess; ready: Ready };

test.before(async () => {
  database = await freshDatabase(process.env.DATABASE_URL || DEFAULT_TEST_DATABASE_URL, 'travel_test_plain');
  service = await startServer<Ready>(new URL('../bench/app-server.ts', import.meta.url), { DATABASE_URL: database.url });
  const { partnerId, issuer, audience, jwks } = service.ready;
  plain = await startServer<Ready>(new URL('../bench/plain-server.ts', import.meta.url), {
    DATABASE_URL: database.url,
    PLAIN_PARTNER_ID: partnerId,
    PLAIN_ISSUER: issuer,
    PLAIN_AUDIENCE: audience,
    PLAIN_JWKS: jwks,
  });
});

test.after.always(async () => {
  // Each server stops when its parent lets go of it; one that has died already is left as it is.
  for (const server of [plain, service]) {
    if (!server?.child.connected) continue;
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.disconnect();
    await exited;
  }
  await database?.drop();
});

/** The same request to both servers, each with its own API key. */
async function both(path: string, init: { method?: string; body?: string; headers?: Record<string, string>; key?: boolean } = {}) {
  const call = async (server: { ready: Ready }) => {
    const headers = { ...init.headers, ...(init.key === false ? {} : { 'x-api-key': server.ready.apiKey }) };
    const response = await fetch(`http://127.0.0.1:${server.ready.port}${path}`, { method: init.method ?? 'GET', headers, body: init.body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  return { service: await call(service), plain: await call(plain) };
}

/** Header names an answer carries, without those whose presence depends on the connection. */
const headerNames = (headers: Headers) => [...headers.keys()].filter((name) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)).sort();

test('capabilities, users/me and getProviderOffer: the same status, type, headers and body', async (t) => {
  const bearer = { authorization: `Bearer ${service.ready.token}` };
  const reads = [
    ['capabilities', await both('/v1/flights/providers/provider_a/capabilities')],
    ['users/me', await both('/v1/users/me', { headers: bearer })],
    ['getProviderOffer', await both(`/v1/flights/providers/provider_b/offers/${service.ready.offerId}`)],
  ] as const;
  for (const [name, answers] of reads) {
    t.is(answers.service.status, 200, name);
    t.is(answers.plain.status, 200, name);
    t.is(answers.plain.headers.get('content-type'), answers.service.headers.get('content-type'), name);
    t.deepEqual(headerNames(answers.plain.headers), headerNames(answers.service.headers), name);
    t.is(answers.plain.text, answers.service.text, name);
  }
});

test('createProviderOffer: both keep the offer and answer 201 with its id; the kept offers read the same', async (t) => {
  const created = await both('/v1/flights/providers/provider_b/offers', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(service.ready.providerBOffer),
  });
  t.is(created.service.status, 201);
  t.is(created.plain.status, 201);
  t.deepEqual(headerNames(created.plain.headers), headerNames(created.service.headers));
  const ids = [created.service, created.plain].map((answer) => (JSON.parse(answer.text) as { offer_id: string }).offer_id);
  t.not(ids[0], ids[1]);
  // Read back through the service, whose partner both created them for: the same offer but for its id and times.
  const read = async (id: string) => {
    const response = await fetch(`http://127.0.0.1:${service.ready.port}/v1/flights/providers/provider_b/offers/${id}`, { headers: { 'x-api-key': service.ready.apiKey } });
    t.is(response.status, 200);
    const { id: _id, created_at: _created, updated_at: _updated, ...offer } = (await response.json()) as Record<string, unknown>;
    return offer;
  };
  t.deepEqual(await read(ids[1] as string), await read(ids[0] as string));
});

test('get_offer_details on both revisions: the plain SDK answers the same tool result', async (t) => {
  const call = (revision: Revision) => both('/v1/mcp', { ...toolCall(revision, service.ready.toolToken, service.ready.offerId), key: false });
  const calls = [
    ['2025-11-25', await call('2025-11-25')],
    ['2026-07-28', await call('2026-07-28')],
  ] as const;
  for (const [revision, answers] of calls) {
    t.is(answers.service.status, 200, revision);
    t.is(answers.plain.status, 200, revision);
    // Each names itself in a 2026-07-28 result's _meta: the rest is the tool's.
    const results = [answers.service, answers.plain].map((answer) => {
      const whole = resultOf(answer.text);
      t.truthy(whole, `${revision}: a result, not an error: ${answer.text.slice(0, 200)}`);
      const { _meta: _named, ...result } = whole ?? { content: [] };
      return result;
    });
    t.deepEqual(results[1], results[0], revision);
    t.is(JSON.parse(results[0]?.content[0]?.text as string).id, service.ready.offerId, revision);
  }
});

/** The JSON-RPC result of an answer in JSON, or in an event stream's one message (the SDK's stateless 2025 serving). */
function resultOf(text: string): { content: { type: string; text: string }[]; structuredContent?: unknown; _meta?: unknown } | undefined {
  const json = text.startsWith('{') ? text : (/^data: (.+)$/m.exec(text)?.[1] ?? 'null');
  return (JSON.parse(json) as { result?: ReturnType<typeof resultOf> }).result;
}
