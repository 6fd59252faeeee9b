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
