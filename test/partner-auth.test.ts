/**
 * The x-api-key check on a partner route, end to end over HTTP on the whole service: missing, unknown,
 * malformed and revoked keys; the route allowlist; usage plans with 429, Retry-After and RateLimit.
 */
import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const CAPABILITIES = '/v1/flights/providers/provider_a/capabilities';
let running: RunningService;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});

test.after.always(async () => {
  await running?.close();
});

function call(apiKey?: string, path = CAPABILITIES) {
  return fetch(`${running.url}${path}`, { headers: apiKey === undefined ? {} : { 'x-api-key': apiKey } });
}

async function newPartner(options: { plan?: string; allow?: string[] } = {}) {
  return running.service.partners.createPartner({
    name: 'Test Partner',
    plan_id: options.plan,
    allowed_operations: options.allow ?? null,
  });
}

test('a valid key reaches the route and gets RateLimit headers', async (t) => {
  const partner = await newPartner();
  const response = await call(partner.api_key);
  t.is(response.status, 200);
  t.is(response.headers.get('ratelimit-policy'), '"per_second";q=25;w=1, "per_day";q=100000;w=86400');
  t.regex(response.headers.get('ratelimit') ?? '', /^"per_second";r=\d+;t=\d+$/);
});

test('a missing key is a 401 saying where to send it', async (t) => {
  const response = await call();
  t.is(response.status, 401);
  const body = await jsonOf(response);
  t.like(body, { status_code: 401, code: 'api_key_missing' });
  t.regex(body.message, /x-api-key/);
});

test('an unknown, a malformed and a tampered key are each a 401', async (t) => {
  const partner = await newPartner();
  // Verified once, so that the tampered key (same visible prefix) meets the cached entry too.
  t.is((await call(partner.api_key)).status, 200);
  const tampered = `${partner.api_key.slice(0, -1)}${partner.api_key.endsWith('A') ? 'B' : 'A'}`;
  for (const key of ['tpk_000000000000_' + 'x'.repeat(43), 'not-a-key', tampered]) {
    const response = await call(key);
    t.is(response.status, 401, key);
    t.like(await jsonOf(response), { code: 'invalid_api_key' });
  }
});

test('a revoked key is a 401 at once, while another key of the partner still works', async (t) => {
  const partner = await newPartner();
  const second = await running.service.partners.createKey(partner.partner_id);
  t.is((await call(partner.api_key)).status, 200); // now cached as verified
  const revoked = await running.service.partners.revokeKey(partner.key_id);
  t.truthy(revoked.revoked_at);
  const response = await call(partner.api_key);
  t.is(response.status, 401);
  t.like(await jsonOf(response), { code: 'invalid_api_key' });
  t.is((await call(second.api_key)).status, 200);
  const row = await running.service.db.knex('api_keys').where({ id: partner.key_id }).first();
  t.truthy(row.revoked_at);
});

test('keys are stored as a hash: the secret appears nowhere in the database', async (t) => {
  const partner = await newPartner();
  const rows = await running.service.db.knex('api_keys').where({ partner_id: partner.partner_id });
  t.is(rows.length, 1);
  const stored = JSON.stringify(rows.map((row) => ({ ...row, secret_hash: row.secret_hash.toString('hex') })));
  const secret = partner.api_key.split('_').slice(2).join('_');
  t.false(stored.includes(secret));
  t.is(rows[0].secret_hash.length, 32);
  t.is(rows[0].prefix, partner.api_key.split('_').slice(0, 2).join('_'));
});

test('a route outside the allowlist is a 403; a route on it passes', async (t) => {
  const limited = await newPartner({ allow: ['listProviders'] });
  const denied = await call(limited.api_key);
  t.is(denied.status, 403);
  const body = await jsonOf(denied);
  t.like(body, { status_code: 403, code: 'operation_not_allowed' });
  t.regex(body.message, /getProviderCapabilities/);

  const allowed = await newPartner({ allow: ['getProviderCapabilities'] });
  t.is((await call(allowed.api_key)).status, 200);
});

test('past the burst the partner gets 429 with Retry-After and RateLimit headers', async (t) => {
  await running.service.partners.setPlan({ id: 'tiny', requests_per_second: 1, burst: 3, requests_per_day: 1000 });
  const partner = await newPartner({ plan: 'tiny' });
  // Sent at once, so that all six fall in one second's window however slow the machine is: sent one after
  // another on a loaded CI machine, the window turned over between them and a fourth request passed.
  const responses = await Promise.all(Array.from({ length: 6 }, () => call(partner.api_key)));
  const statuses = responses.map((response) => response.status).sort();
  t.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);

  const limited = responses.find((response) => response.status === 429)!;
  const retryAfter = Number(limited.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 3, String(retryAfter));
  t.is(limited.headers.get('ratelimit-policy'), '"per_second";q=1;w=1, "per_day";q=1000;w=86400');
  t.regex(limited.headers.get('ratelimit') ?? '', /^"per_second";r=0;t=\d+$/);
  const body = await jsonOf(limited);
  t.like(body, { status_code: 429, code: 'rate_limited' });
  t.regex(body.message, /Retry after/);
});

test('the budget is per partner: one partner at its limit does not limit another', async (t) => {
  await running.service.partners.setPlan({ id: 'one', requests_per_second: 1, burst: 1, requests_per_day: 1000 });
  const first = await newPartner({ plan: 'one' });
  const second = await newPartner({ plan: 'one' });
  // At once, in one second's window (see above); the other partner's request in the same second.
  const [a, b, other] = await Promise.all([call(first.api_key), call(first.api_key), call(second.api_key)]);
  t.deepEqual([a.status, b.status].sort(), [200, 429]);
  t.is(other.status, 200);
});

test('the daily quota answers 429 with a Retry-After up to a day', async (t) => {
  await running.service.partners.setPlan({ id: 'daily', requests_per_second: 100, burst: 100, requests_per_day: 2 });
  const partner = await newPartner({ plan: 'daily' });
  t.is((await call(partner.api_key)).status, 200);
  t.is((await call(partner.api_key)).status, 200);
  const limited = await call(partner.api_key);
  t.is(limited.status, 429);
  const retryAfter = Number(limited.headers.get('retry-after'));
  t.true(retryAfter > 86_000 && retryAfter <= 86_400, String(retryAfter));
  t.regex(limited.headers.get('ratelimit') ?? '', /^"per_day";r=0;t=\d+$/);
  t.regex((await jsonOf(limited)).message, /per day/);
});

test('RateLimit reports the policy closest to running out: the daily quota once fewer remain of it than of the second', async (t) => {
  await running.service.partners.setPlan({ id: 'small-day', requests_per_second: 10, burst: 20, requests_per_day: 5 });
  const partner = await newPartner({ plan: 'small-day' });
  const headers: string[] = [];
  for (let i = 0; i < 5; i++) {
    const response = await call(partner.api_key);
    t.is(response.status, 200);
    headers.push(response.headers.get('ratelimit') ?? '');
  }
  // 5 a day against 10 a second (and a burst): the day is the tighter budget from the first request on.
  t.deepEqual(
    headers.map((header) => header.replace(/;t=\d+$/, '')),
    ['"per_day";r=4', '"per_day";r=3', '"per_day";r=2', '"per_day";r=1', '"per_day";r=0'],
  );
  for (const header of headers) {
    const reset = Number(/;t=(\d+)$/.exec(header)?.[1]);
    t.true(reset > 86_000 && reset <= 86_400, header);
  }
  const limited = await call(partner.api_key);
  t.is(limited.status, 429);
  t.regex(limited.headers.get('ratelimit') ?? '', /^"per_day";r=0;t=\d+$/);
});

test('a plan change reaches a partner whose key is cached', async (t) => {
  await running.service.partners.setPlan({ id: 'roomy', requests_per_second: 50, burst: 50, requests_per_day: 1000 });
  const partner = await newPartner({ plan: 'roomy' });
  t.is((await call(partner.api_key)).headers.get('ratelimit-policy'), '"per_second";q=50;w=1, "per_day";q=1000;w=86400');
  await running.service.partners.updatePartner({ partner_id: partner.partner_id, plan_id: 'default' });
  t.is((await call(partner.api_key)).headers.get('ratelimit-policy'), '"per_second";q=25;w=1, "per_day";q=100000;w=86400');
});

test('public routes need no key', async (t) => {
  t.is((await call(undefined, '/healthz')).status, 200);
  t.is((await call(undefined, '/readyz')).status, 200);
});
