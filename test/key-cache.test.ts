/**
 * What "revocation takes effect" means with several instances: at once on the instance that revoked
 * (and on any instance with API_KEY_CACHE_SECONDS=0), and on the others once their cached entry ends.
 */
import test from 'ava';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let database: TestDatabase;
const instances: RunningService[] = [];

test.before(async () => {
  database = await createTestDatabase();
});
test.after.always(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
  await database?.drop();
});

test('a revocation through one instance: at once there, at the end of the cache elsewhere', async (t) => {
  const prefix = uniquePrefix();
  const revoker = await startService({}, { database, rateLimitKeyPrefix: prefix });
  const caching = await startService({ API_KEY_CACHE_SECONDS: '30' }, { database, rateLimitKeyPrefix: prefix });
  const uncached = await startService({ API_KEY_CACHE_SECONDS: '0' }, { database, rateLimitKeyPrefix: prefix });
  instances.push(revoker, caching, uncached);

  const partner = await revoker.service.partners.createPartner({ name: 'Revoked soon' });
  const call = (instance: RunningService) =>
    fetch(`${instance.url}/v1/flights/providers/provider_d/capabilities`, { headers: { 'x-api-key': partner.api_key } }).then(
      (response) => response.status,
    );
  t.deepEqual(await Promise.all([call(revoker), call(caching), call(uncached)]), [200, 200, 200]);

  await revoker.service.partners.revokeKey(partner.key_id);
  t.is(await call(revoker), 401);
  t.is(await call(uncached), 401);
  // Documented: another instance trusts its cached verification until it ends (API_KEY_CACHE_SECONDS).
  t.is(await call(caching), 200);
});
