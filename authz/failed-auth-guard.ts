/**
 * Caps failed API key attempts (and failed client credentials on the identity API) per client address.
 * Every unknown key costs a database lookup (the hot path only caches keys that verified), so without a
 * cap a flood of made-up keys would queue real partners behind it, and guessing would be free. Shared
 * through Redis like the usage budgets.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../core/errors.js';
import { counter } from './counter.js';

export interface FailedAuthPolicy {
  attempts: number;
  windowSeconds: number;
}

export const DEFAULT_FAILED_AUTH_POLICY: FailedAuthPolicy = { attempts: 30, windowSeconds: 300 };

export class FailedAuthGuard {
  readonly #limiter: RateLimiterAbstract;
  readonly #policy: FailedAuthPolicy;

  constructor(options: { redis?: Redis; keyPrefix?: string; policy?: FailedAuthPolicy } = {}) {
    this.#policy = options.policy ?? DEFAULT_FAILED_AUTH_POLICY;
    this.#limiter = counter({
      redis: options.redis,
      keyPrefix: `${options.keyPrefix ?? 'usage'}:failed-auth`,
      points: this.#policy.attempts,
      duration: this.#policy.windowSeconds,
    });
  }

  /** Refuses a client that has used up its failed attempts, before any database lookup. */
  async assertAllowed(client: string): Promise<void> {
    const state = await this.#limiter.get(client);
    if (state && state.consumedPoints >= this.#policy.attempts) throw this.#refusal(state);
  }

  async recordFailure(client: string): Promise<void> {
    await this.#limiter.consume(client).catch((rejection: unknown) => {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    });
  }

  #refusal(state: RateLimiterRes): RateLimitedError {
    const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    return new RateLimitedError(
      `Too many requests with invalid credentials (an API key, or an OAuth client's id and secret) from your address. Check them and retry after ${retryAfter} s.`,
      retryAfter,
      'too_many_failed_attempts',
    );
  }
}
