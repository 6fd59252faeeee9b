/**
 * Failed credentials (bad API keys, wrong client secrets) are counted per credential and per network
 * (IPv4 /24, IPv6 /64): a guesser is refused, a right credential from the same network (even behind the
 * same proxy) keeps working, and a credential guessed at from one network still works from another.
 *
 * As in production, two instances share the database, the keys and the counters (Redis), and the proxy in
 * front of them is trusted (TRUST_PROXY): the client's address is the one it adds to X-Forwarded-For. The
 * credentials are first used on one instance; the guesser and the later right calls reach the other,
 * so nothing is served from the first one's memory. Each test speaks from networks of its own.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { basic, basicOf, connect, createAirline, identityCall } from './helpers/identity.js';
import { jsonOf } from './helpers/http.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { DEFAULT_TEST_REDIS_URL, startService, uniquePrefix, type RunningService } from './helpers/service.js';

/** The documented budgets (README, API keys): per network, and per credential from one network, in 5 minutes. */
const PER_NETWORK = 30;
const PER_CREDENTIAL = 10;
const WINDOW_SECONDS = 300;

let database: TestDatabase;
let first: RunningService;
let second: RunningService;

test.before(async () => {
  database = await createTestDatabase();
  // As production has them: one Redis, and one key for secrets at rest (the OAuth clients' secrets).
  const env = { TRUST_PROXY: '1', REDIS_URL: process.env.REDIS_URL || DEFAULT_TEST_REDIS_URL, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
  const prefix = uniquePrefix();
  first = await startService(env, { database, rateLimitKeyPrefix: prefix });
  second = await startService(env, { database, rateLimitKeyPrefix: prefix });
});
test.after.always(async () => {
  await first?.close();
  await second?.close();
  await database?.drop();
});

const CAPABILITIES = '/v1/flights/providers/provider_a/capabilities';

function call(instance: RunningService, apiKey: string, from: string) {
  return fetch(`${instance.url}${CAPABILITIES}`, { headers: { 'x-api-key': apiKey, 'x-forwarded-for': from } });
}

/** A well-formed key nobody was given; with `prefix`, one that names an existing key with a wrong secret. */
function madeUpKey(prefix = `tpk_${randomBytes(6).toString('hex')}`): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

async function assertRefused(t: ExecutionContext, response: Response): Promise<void> {
  t.is(response.status, 429);
  const body = await jsonOf(response);
  t.like(body, { status_code: 429, code: 'too_many_failed_attempts' });
  t.regex(body.message, /retry after \d+ s/i, 'the message says what to do');
  const retryAfter = Number(response.headers.get('retry-after'));
  t.true(retryAfter > 0 && retryAfter <= WINDOW_SECONDS, `Retry-After: ${retryAfter}`);
}

test('a guesser behind the same proxy locks out neither a partner’s right key nor the airline’s right secret', async (t) => {
  // The network's one egress address: the airline's backend, the partner's servers and the guesser share it.
  const proxy = '203.0.113.7';
  const partner = await first.service.partners.createPartner({ name: 'Steady partner' });
  t.is((await call(first, partner.api_key, proxy)).status, 200, 'the key is in use');
  const airline = await createAirline(first, 'Demo Air');
  // A traveler connected the airline: its secret was used at the token endpoint.
  const traveler = await connect(first, airline, 'profile.read');

  // Made-up keys from two hosts of the network: one count for the /24.
  for (let attempt = 0; attempt < PER_NETWORK; attempt++) {
    t.is((await call(second, madeUpKey(), attempt % 2 ? proxy : '203.0.113.8')).status, 401, `attempt ${attempt + 1}`);
  }
  await assertRefused(t, await call(second, madeUpKey(), '203.0.113.9'));

  t.is((await call(second, partner.api_key, proxy)).status, 200, 'the partner’s right key, from the same address');
  const resolved = await identityCall(second, 'POST', '/v1/identity/resolve', basicOf(airline), { guid: traveler.guid }, { 'x-forwarded-for': proxy });
  t.is(resolved.status, 200, 'the airline’s right secret, from the same address');
  t.is(resolved.body.guid, traveler.guid);

  // The guesser is still refused, whatever it sends: a key, or an airline's client id and secret.
  await assertRefused(t, await call(second, madeUpKey(), proxy));
  const guessedClient = await identityCall(second, 'POST', '/v1/identity/resolve', basic(randomUUID(), 'guess'), { guid: traveler.guid }, { 'x-forwarded-for': proxy });
  t.is(guessedClient.status, 429);
  t.like(guessedClient.body, { code: 'too_many_failed_attempts' });
  // Another network is not refused for the guesser's.
  t.is((await call(second, madeUpKey(), '100.64.1.1')).status, 401);
});

test('a guesser at one key from network A does not lock it out from network B; once it verifies, it works from A too', async (t) => {
  const networkA = '198.51.100.20';
  const networkB = '192.0.2.30';
  const partner = await first.service.partners.createPartner({ name: 'Guessed at' });
  const prefix = /^tpk_[0-9a-f]{12}/.exec(partner.api_key)?.[0] as string;

  for (let attempt = 0; attempt < PER_CREDENTIAL; attempt++) {
    t.is((await call(second, madeUpKey(prefix), networkA)).status, 401, `attempt ${attempt + 1}`);
  }
  await assertRefused(t, await call(second, madeUpKey(prefix), networkA));
  // A key never used yet waits with its guesser on that network (the documented trade-off)...
  t.is((await call(second, partner.api_key, networkA)).status, 429);
  // ...but is served at once from anywhere else,
  t.is((await call(second, partner.api_key, networkB)).status, 200);
  // and, now that it has verified, from the guessed-at network too (on an instance that has not cached it).
  t.is((await call(first, partner.api_key, networkA)).status, 200);
  // The guesser is still refused, on every instance.
  await assertRefused(t, await call(first, madeUpKey(prefix), networkA));
  // Other keys from network A are not: the budget of one credential is spent, not the network's.
  t.is((await call(second, madeUpKey(), networkA)).status, 401);
});

test('a key verified on this instance is served from memory, whatever its network has sent', async (t) => {
  const network = '100.64.2.1';
  const partner = await second.service.partners.createPartner({ name: 'Cached' });
  t.is((await call(second, partner.api_key, network)).status, 200);
  for (let attempt = 0; attempt < PER_NETWORK; attempt++) t.is((await call(second, madeUpKey(), network)).status, 401);
  await assertRefused(t, await call(second, madeUpKey(), network));
  t.is((await call(second, partner.api_key, network)).status, 200);
});
