/**
 * Limits on what anyone on the internet can make this service do without credentials:
 * - sign-in codes to one address (so nobody can flood a stranger's inbox through our pages) and from one
 *   client address;
 * - open dynamic registrations from one client address (each one is a stored client).
 * Counted in Redis when the service has it (one count for every instance), in memory otherwise.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { counter, take } from './counter.js';

export interface Limit {
  points: number;
  /** Seconds. */
  duration: number;
}

export interface AbusePolicy {
  /** Codes to one e-mail address asked from one network. */
  signInCodesPerAddress: Limit;
  /** Codes to one e-mail address from anywhere: looser, against a flood from many networks. */
  signInCodesPerAddressOverall: Limit;
  signInCodesPerClient: Limit;
  registrationsPerClient: Limit;
}

export const DEFAULT_ABUSE_POLICY: AbusePolicy = {
  signInCodesPerAddress: { points: 10, duration: 3600 },
  signInCodesPerAddressOverall: { points: 50, duration: 3600 },
  signInCodesPerClient: { points: 30, duration: 900 },
  registrationsPerClient: { points: 20, duration: 3600 },
};

export class AbuseLimits {
  readonly #perAddress: RateLimiterAbstract;
  readonly #perAddressOverall: RateLimiterAbstract;
  readonly #perClient: RateLimiterAbstract;
  readonly #registrations: RateLimiterAbstract;

  constructor(options: { redis?: Redis; keyPrefix?: string; policy?: Partial<AbusePolicy> } = {}) {
    const prefix = options.keyPrefix ?? 'usage';
    const policy = { ...DEFAULT_ABUSE_POLICY, ...options.policy };
    this.#perAddress = counter({ redis: options.redis, keyPrefix: `${prefix}:sign-in-address`, ...policy.signInCodesPerAddress });
    this.#perAddressOverall = counter({ redis: options.redis, keyPrefix: `${prefix}:sign-in-address-all`, ...policy.signInCodesPerAddressOverall });
    this.#perClient = counter({ redis: options.redis, keyPrefix: `${prefix}:sign-in-client`, ...policy.signInCodesPerClient });
    this.#registrations = counter({ redis: options.redis, keyPrefix: `${prefix}:registrations`, ...policy.registrationsPerClient });
  }

  /**
   * Counts one sign-in code about to be sent to `email` at the request of `clientAddress`. The network
   * is counted first, and the strict count per address is per network too, so that a stranger cannot
   * use up a traveler's own budget and lock them out; a looser count per address bounds the rest.
   */
  async signInCode(email: string, clientAddress: string): Promise<void> {
    const address = email.trim().toLowerCase();
    await take(this.#perClient, clientAddress, (wait) => `Too many sign-in codes were requested from your network: try again in ${minutes(wait)}.`);
    const tooMany = (wait: number) => `Too many sign-in codes were sent to this address: try again in ${minutes(wait)}.`;
    await take(this.#perAddress, `${address} ${clientAddress}`, tooMany);
    await take(this.#perAddressOverall, address, tooMany);
  }

  async registration(clientAddress: string): Promise<void> {
    await take(this.#registrations, clientAddress, (wait) => `Too many client registrations from your address: retry after ${wait} s, or reuse a registration you have.`);
  }
}


function minutes(seconds: number): string {
  const count = Math.ceil(seconds / 60);
  return count === 1 ? 'a minute' : `${count} minutes`;
}
