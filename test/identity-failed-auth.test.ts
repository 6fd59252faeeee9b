/**
 * Guessing an airline's client secret is capped like guessing API keys: failed Basic credentials count per
 * caller address in the failed-auth guard, and past its cap every Basic attempt from that address is 429
 * `too_many_failed_attempts`, before any lookup, with `Retry-After`. In a file of its own: every test
 * request comes from 127.0.0.1, so the cap would refuse the other identity tests' calls too.
 */
import test from 'ava';
import { DEFAULT_FAILED_AUTH_POLICY } from '../authz/failed-auth-guard.js';
import { basic, createAirline, identityCall, resolve } from './helpers/identity.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

test('wrong client secrets count per address: past the cap, 429 too_many_failed_attempts, even for the right secret', async (t) => {
  const airline = await createAirline(running);
  const wrong = basic(airline.clientId, 'not-the-secret');
  for (let attempt = 0; attempt < DEFAULT_FAILED_AUTH_POLICY.attempts; attempt++) {
    const answer = await identityCall(running, 'POST', '/v1/identity/resolve', wrong, { guid: '00000000-0000-4000-8000-000000000000' });
    t.is(answer.status, 401, `attempt ${attempt + 1}`);
  }
  const capped = await identityCall(running, 'POST', '/v1/identity/resolve', wrong, { guid: '00000000-0000-4000-8000-000000000000' });
  t.is(capped.status, 429);
  t.like(capped.body, { code: 'too_many_failed_attempts' });
  t.regex(capped.headers.get('retry-after') ?? '', /^\d+$/);
  // The right secret from the same address waits too: the cap is checked before any lookup.
  const right = await resolve(running, airline, { guid: '00000000-0000-4000-8000-000000000000' });
  t.is(right.status, 429);
});
