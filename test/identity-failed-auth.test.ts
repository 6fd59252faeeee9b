/**
 * Guessing an airline's client secret at the identity API is capped like guessing API keys, per client id
 * from one network and per network (IPv4 /24, IPv6 /64): past a budget, 429 `too_many_failed_attempts`
 * with `Retry-After`, before any lookup. The airline's right secret, once it has verified (here or at
 * the token endpoint), is served whatever its network has sent; another network is never refused for a
 * guesser's. Behind a trusted proxy (TRUST_PROXY), so that each test speaks from networks of its own.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { basic, basicOf, connect, createAirline, identityCall } from './helpers/identity.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

/** The documented budgets (README, API keys): per network, and per credential from one network. */
const PER_NETWORK = 30;
const PER_CREDENTIAL = 10;
const NO_ONE = '00000000-0000-4000-8000-000000000000';

let running: RunningService;

test.before(async () => {
  running = await startService({ TRUST_PROXY: '1' }, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

function resolveFrom(from: string, authorization: string, guid = NO_ONE) {
  return identityCall(running, 'POST', '/v1/identity/resolve', authorization, { guid }, { 'x-forwarded-for': from });
}

test('wrong secrets for one client from network A: 429 there past the budget; the right secret works from B, then from A', async (t) => {
  const networkA = '198.51.100.20';
  const networkB = '192.0.2.30';
  const airline = await createAirline(running);
  const wrong = basic(airline.clientId, 'not-the-secret');
  for (let attempt = 0; attempt < PER_CREDENTIAL; attempt++) {
    t.is((await resolveFrom(networkA, wrong)).status, 401, `attempt ${attempt + 1}`);
  }
  const capped = await resolveFrom(networkA, wrong);
  t.is(capped.status, 429);
  t.like(capped.body, { status_code: 429, code: 'too_many_failed_attempts' });
  t.regex(capped.headers.get('retry-after') ?? '', /^\d+$/);
  t.regex(capped.body.message, /retry after \d+ s/i);

  // A secret that has never verified waits with its guesser on that network (the documented trade-off)...
  t.is((await resolveFrom(networkA, basicOf(airline))).status, 429);
  // ...is checked from any other network (authenticated: nothing to resolve for this guid),
  t.like((await resolveFrom(networkB, basicOf(airline))).body, { error: 'unknown_guid' });
  // and, once it has verified, from the guessed-at network too.
  t.like((await resolveFrom(networkA, basicOf(airline))).body, { error: 'unknown_guid' });
  t.is((await resolveFrom(networkA, wrong)).status, 429, 'the guesser is still refused');
  t.is((await resolveFrom(networkB, wrong)).status, 401, 'another network has a budget of its own');
});

test('made-up client ids from one network: 429 past the network budget; the airline’s right secret is still served', async (t) => {
  const network = '203.0.113.';
  const airline = await createAirline(running);
  // A traveler connected the airline: its secret verified at the token endpoint.
  const traveler = await connect(running, airline, 'profile.read');
  for (let attempt = 0; attempt < PER_NETWORK; attempt++) {
    t.is((await resolveFrom(`${network}${attempt + 1}`, basic(randomUUID(), 'guess'))).status, 401, `attempt ${attempt + 1}`);
  }
  const capped = await resolveFrom(`${network}200`, basic(randomUUID(), 'guess'));
  t.is(capped.status, 429);
  t.like(capped.body, { code: 'too_many_failed_attempts' });
  // Not even shaped like Basic credentials: refused alike.
  t.is((await resolveFrom(`${network}200`, 'Bearer made-up')).status, 429);

  const resolved = await resolveFrom(`${network}1`, basicOf(airline), traveler.guid);
  t.is(resolved.status, 200, resolved.text);
  t.is(resolved.body.guid, traveler.guid);
});
