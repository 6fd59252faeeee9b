import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { startService } from './helpers/service.js';

test('readiness follows the database; liveness does not', async (t) => {
  const running = await startService();
  try {
    t.deepEqual(await jsonOf(await fetch(`${running.url}/readyz`)), { status: 'ok' });
    await running.service.db.knex.destroy();
    const notReady = await fetch(`${running.url}/readyz`);
    t.is(notReady.status, 503);
    t.like(await jsonOf(notReady), { status_code: 503, code: 'not_ready' });
    const live = await fetch(`${running.url}/healthz`);
    t.is(live.status, 200);
  } finally {
    await running.close();
  }
});
