/**
 * Several instances share one budget through Redis; without Redis each instance would count alone.
 */
import test from 'ava';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { DEFAULT_TEST_REDIS_URL, startService, uniquePrefix, type RunningService } from './helpers/service.js';

const CAPABILITIES = '/v1/flights/providers/provider_b/capabilities';
const redisUrl = process.env.REDIS_URL || DEFAULT_TEST_REDIS_URL;
let database: TestDatabase;
const instances: RunningService[] = [];

test.before(async () => {
  database = await createTestDatabase();
});

test.after.always(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
  await database?.drop();
});

async function twoInstances(env: Record<string, string>, rateLimitKeyPrefix = uniquePrefix()) {
  const pair = [
    await startService(env, { database, rateLimitKeyPrefix }),
    await startService(env, { database, rateLimitKeyPrefix }),
  ];
  instances.push(...pair);
  return pair as [RunningService, RunningService];
}

async function hammer(pair: RunningService[], apiKey: string, requests: number): Promise<number[]> {
  const responses = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      fetch(`${(pair[i % pair.length] as RunningService).url}${CAPABILITIES}`, { headers: { 'x-api-key': apiKey } }),
    ),
  );
  return responses.map((response) => response.status);
}

test.serial('two instances on one Redis share one budget', async (t) => {
  const prefix = uniquePrefix();
  const [a, b] = await twoInstances({ REDIS_URL: redisUrl }, prefix);
  await a.service.partners.setPlan({ id: 'shared', requests_per_second: 1, burst: 4, requests_per_day: 1000 });
  const partner = await a.service.partners.createPartner({ name: 'Shared', plan_id: 'shared' });
  const statuses = await hammer([a, b], partner.api_key, 10);
  t.is(statuses.filter((status) => status === 200).length, 4, statuses.join(','));
  t.is(statuses.filter((status) => status === 429).length, 6);
  // Both instances refused some: the budget is not per instance.
  t.true(statuses.some((status, i) => status === 429 && i % 2 === 0));
  t.true(statuses.some((status, i) => status === 429 && i % 2 === 1));
  // The counters live in Redis, under the instances' prefix.
  const redis = new Redis(redisUrl);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    t.true(keys.some((key) => key.endsWith(partner.partner_id)), keys.join(','));
  } finally {
    redis.disconnect();
  }
});

test.serial('without Redis each instance keeps its own budget', async (t) => {
  const [a, b] = await twoInstances({});
  await a.service.partners.setPlan({ id: 'alone', requests_per_second: 1, burst: 4, requests_per_day: 1000 });
  const partner = await a.service.partners.createPartner({ name: 'Alone', plan_id: 'alone' });
  const statuses = await hammer([a, b], partner.api_key, 10);
  t.is(statuses.filter((status) => status === 200).length, 8, statuses.join(','));
});
