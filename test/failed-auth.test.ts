/**
 * Failed API key attempts are capped per client address, so a flood of made-up keys cannot keep the
 * database busy or guess keys for free.
 */
import test from 'ava';
import { DEFAULT_FAILED_AUTH_POLICY } from '../authz/failed-auth-guard.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

const CAPABILITIES = '/v1/flights/providers/provider_a/capabilities';

function call(apiKey: string) {
  return fetch(`${running.url}${CAPABILITIES}`, { headers: { 'x-api-key': apiKey } });
}

test.serial('a key verified before keeps working; past the cap, unknown keys are refused before any lookup', async (t) => {
  const partner = await running.service.partners.createPartner({ name: 'Cached' });
  t.is((await call(partner.api_key)).status, 200);

  for (let i = 0; i < DEFAULT_FAILED_AUTH_POLICY.attempts; i++) {
    t.is((await call(`tpk_${String(i).padStart(12, '0')}_${'x'.repeat(43)}`)).status, 401);
  }
  const refused = await call(`tpk_ffffffffffff_${'y'.repeat(43)}`);
  t.is(refused.status, 429);
  t.like(await jsonOf(refused), { status_code: 429, code: 'too_many_failed_attempts' });
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter > 0 && retryAfter <= DEFAULT_FAILED_AUTH_POLICY.windowSeconds);

  // The partner whose key is already verified is not locked out with the guesser.
  t.is((await call(partner.api_key)).status, 200);
});
