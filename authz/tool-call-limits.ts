/**
 * How many requests one traveler's agent may send the tool endpoint: tool calls reach the providers and
 * store searches, so an agent caught in a loop must not run up either. Counted per client and traveler,
 * in Redis when the service has it (one count for every instance), in memory otherwise.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Limit } from './abuse-limits.js';
import { counter, take } from './counter.js';

export const DEFAULT_TOOL_CALL_LIMIT: Limit = { points: 120, duration: 60 };

export class ToolCallLimits {
  readonly #perAgent: RateLimiterAbstract;
  readonly limit: Limit;

  constructor(options: { redis?: Redis | undefined; keyPrefix?: string; limit?: Limit }) {
    const limit = options.limit ?? DEFAULT_TOOL_CALL_LIMIT;
    this.limit = limit;
    this.#perAgent = counter({ redis: options.redis, keyPrefix: `${options.keyPrefix ?? 'limits'}:tool-calls`, ...limit });
  }

  /** Counts one request of the agent `clientId` acting for `userId`; throws RateLimitedError past the limit. */
  async take(clientId: string, userId: string): Promise<void> {
    await take(this.#perAgent, `${clientId}:${userId}`, (wait) => `This agent is sending the traveler's requests too fast: wait ${wait} s, then go on more slowly.`);
  }
}
