import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix } from './helpers/service.js';

test('readiness answers 503 when the database fails; liveness does not care', async (t) => {
  const running = await startService();
  try {
    t.deepEqual(await jsonOf(await fetch(`${running.url}/readyz`)), { status: 'ok' });
    await running.service.db.knex.destroy();
    const notReady = await fetch(`${running.url}/readyz`);
    t.is(notReady.status, 503);
    t.like(await jsonOf(notReady), { status_code: 503, code: 'not_ready' });
    t.is((await fetch(`${running.url}/healthz`)).status, 200);
  } finally {
    await running.close();
  }
});

test('readiness answers 503 within seconds when the database hangs', async (t) => {
  const running = await startService({ DATABASE_POOL_MAX: '1' });
  // Hold the only connection: the probe's query cannot get one.
  const trx = await running.service.db.knex.transaction();
  try {
    const started = Date.now();
    const notReady = await fetch(`${running.url}/readyz`);
    t.is(notReady.status, 503);
    t.true(Date.now() - started < 5000);
  } finally {
    await trx.rollback();
    await running.close();
  }
});

test('the service starts and serves without Redis, counting in memory', async (t) => {
  const running = await startService({ REDIS_URL: 'redis://127.0.0.1:1' }, { rateLimitKeyPrefix: uniquePrefix() });
  try {
    const partner = await running.service.partners.createPartner({ name: 'No Redis' });
    const response = await fetch(`${running.url}/v1/flights/providers/provider_a/capabilities`, {
      headers: { 'x-api-key': partner.api_key },
    });
    t.is(response.status, 200);
    t.regex(response.headers.get('ratelimit') ?? '', /^"per_second";r=24;t=\d+$/);
  } finally {
    await running.close();
  }
});
