/**
 * One rate-limiter-flexible counter: in Redis when the service has it (one count for every instance),
 * with an in-memory stand-in for when Redis does not answer; in memory otherwise.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../core/errors.js';

export function counter(options: { redis: Redis | undefined; keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
  const { redis, ...settings } = options;
  if (!redis) return new RateLimiterMemory(settings);
  return new RateLimiterRedis({ ...settings, storeClient: redis, insuranceLimiter: new RateLimiterMemory(settings) });
}

/**
 * Counts one for `key` and answers how many it has counted in the window; past the limit, a
 * RateLimitedError saying `message(seconds to wait)`.
 */
export async function take(limiter: RateLimiterAbstract, key: string, message: (waitSeconds: number) => string): Promise<number> {
  try {
    return (await limiter.consume(key)).consumedPoints;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new RateLimitedError(message(wait), wait, 'too_many_requests');
  }
}

/**
 * Forgets every key of `limiter` that starts with `start`: in Redis (found with SCAN, so every instance's
 * count goes) and in the memory counting stands in for Redis, or instead of it.
 */
export async function forgetKeysStartingWith(limiter: RateLimiterAbstract, redis: Redis | undefined, start: string): Promise<void> {
  if (redis) {
    const pattern = `${escapeGlob(limiter.getKey(start))}*`;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  for (const memory of memoriesOf(limiter)) {
    const keys = memory.dump().storage.map((record) => String(record.key));
    for (const key of keys.filter((each) => each.startsWith(start))) await memory.delete(key);
  }
}

/** Forgets one key of `limiter`, in Redis and in memory alike. */
export async function forgetKey(limiter: RateLimiterAbstract, key: string): Promise<void> {
  await limiter.delete(key);
  for (const memory of memoriesOf(limiter)) await memory.delete(key);
}

/** The limiter itself when it counts in memory, and the in-memory stand-in of one that counts in Redis. */
function memoriesOf(limiter: RateLimiterAbstract): RateLimiterMemory[] {
  const insurance = (limiter as { insuranceLimiter?: unknown }).insuranceLimiter;
  return [limiter, insurance].filter((each): each is RateLimiterMemory => each instanceof RateLimiterMemory);
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}
