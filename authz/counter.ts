/**
 * One rate-limiter-flexible counter: in Redis when the service has it (one count for every instance),
 * with an in-memory stand-in for when Redis does not answer; in memory otherwise.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export function counter(options: { redis: Redis | undefined; keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
  const { redis, ...settings } = options;
  if (!redis) return new RateLimiterMemory(settings);
  return new RateLimiterRedis({ ...settings, storeClient: redis, insuranceLimiter: new RateLimiterMemory(settings) });
}
