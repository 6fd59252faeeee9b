/**
 * Limits on what anyone on the internet can make this service do without credentials:
 * - sign-in codes to one address (so nobody can flood a stranger's inbox through our pages) and from one
 *   network;
 * - open dynamic registrations from one network (each one is a stored client).
 * Counted in Redis when the service has it (one count for every instance), in memory otherwise.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../core/errors.js';
import { counter, forgetKey, forgetKeysStartingWith, take } from './counter.js';
import { networkOf } from './networks.js';

export interface Limit {
  points: number;
  /** Seconds. */
  duration: number;
}

export interface AbusePolicy {
  /** Codes to one e-mail address asked from one network (IPv4 /24, IPv6 /64). */
  signInCodesPerAddress: Limit;
  /** Codes to one e-mail address from anywhere; past this, mail to the address is paced (see signInCode). */
  signInCodesPerAddressOverall: Limit;
  /** Past the overall count: at most one code to the address per this many seconds. */
  signInCodePaceSeconds: number;
  /** Codes asked from one network, to any addresses. */
  signInCodesPerNetwork: Limit;
  /** Open registrations from one network. */
  registrationsPerNetwork: Limit;
}

export const DEFAULT_ABUSE_POLICY: AbusePolicy = {
  signInCodesPerAddress: { points: 10, duration: 3600 },
  signInCodesPerAddressOverall: { points: 50, duration: 3600 },
  signInCodePaceSeconds: 60,
  signInCodesPerNetwork: { points: 30, duration: 900 },
  registrationsPerNetwork: { points: 20, duration: 3600 },
};

/**
 * Past the overall count, a network that has asked this address for at most this many codes in the
 * window still gets one (paced): the traveler signing in from home, not one of the networks flooding.
 */
const FEW_CODES_FROM_A_NETWORK = 3;

/** What signInCode counted; given back when no code went out after all (one was already on its way, say). */
export interface SignInCodeAllowance {
  refund(): Promise<void>;
}

/** The networks travelers have signed in from (core/sign-in/known-networks.ts). */
export interface SignInNetworks {
  remember(userId: string, network: string): Promise<void>;
  isKnown(email: string, network: string): Promise<boolean>;
}

export class AbuseLimits {
  readonly #perAddress: RateLimiterAbstract;
  readonly #perAddressOverall: RateLimiterAbstract;
  readonly #pace: RateLimiterAbstract;
  readonly #perNetwork: RateLimiterAbstract;
  readonly #registrations: RateLimiterAbstract;
  readonly #signInNetworks: SignInNetworks | undefined;
  readonly #redis: Redis | undefined;
  /** Where the counts live: shared by every instance in Redis, or this process's own memory. */
  readonly countedIn: 'redis' | 'memory';

  constructor(options: { redis?: Redis; keyPrefix?: string; policy?: Partial<AbusePolicy>; signInNetworks?: SignInNetworks } = {}) {
    const prefix = options.keyPrefix ?? 'usage';
    const policy = { ...DEFAULT_ABUSE_POLICY, ...options.policy };
    this.#perAddress = counter({ redis: options.redis, keyPrefix: `${prefix}:sign-in-address`, ...policy.signInCodesPerAddress });
    this.#perAddressOverall = counter({ redis: options.redis, keyPrefix: `${prefix}:sign-in-address-all`, ...policy.signInCodesPerAddressOverall });
    this.#pace = counter({ redis: options.redis, keyPrefix: `${prefix}:sign-in-address-pace`, points: 1, duration: policy.signInCodePaceSeconds });
    this.#perNetwork = counter({ redis: options.redis, keyPrefix: `${prefix}:sign-in-network`, ...policy.signInCodesPerNetwork });
    this.#registrations = counter({ redis: options.redis, keyPrefix: `${prefix}:registrations`, ...policy.registrationsPerNetwork });
    this.#signInNetworks = options.signInNetworks;
    this.#redis = options.redis;
    this.countedIn = options.redis ? 'redis' : 'memory';
  }

  /**
   * Counts one sign-in code about to be sent to `email` at the request of `clientAddress`, whose network
   * is what is counted:
   * 1. the network, over every address it asks for;
   * 2. the address from that network: a stranger's network cannot use up the traveler's own budget;
   * 3. the address from everywhere, against a flood from many networks. Past this count the address is
   *    not locked, which would lock its traveler out from anywhere: a network the traveler has signed in
   *    from before still gets codes; another one that has asked for the address only a few times gets
   *    one, but mail to the address is paced to one a minute.
   * What was counted is given back with `refund` when no code goes out after all.
   */
  async signInCode(email: string, clientAddress: string): Promise<SignInCodeAllowance> {
    const address = email.trim().toLowerCase();
    const network = networkOf(clientAddress);
    const counted: [RateLimiterAbstract, string][] = [];
    const count = async (limiter: RateLimiterAbstract, key: string, message: (wait: number) => string) => {
      const consumed = await take(limiter, key, message);
      counted.push([limiter, key]);
      return consumed;
    };
    const allowance = { refund: () => Promise.all(counted.map(([limiter, key]) => limiter.reward(key, 1))).then(() => undefined) };
    try {
      await count(this.#perNetwork, network, (wait) => `Too many sign-in codes were requested from your network: try again in ${minutes(wait)}.`);
      const tooMany = (wait: number) => `Too many sign-in codes were sent to this address: try again in ${minutes(wait)}.`;
      const fromNetwork = await count(this.#perAddress, `${address} ${network}`, tooMany);
      try {
        await count(this.#perAddressOverall, address, tooMany);
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        if (await this.#signInNetworks?.isKnown(address, network)) return allowance;
        if (fromNetwork > FEW_CODES_FROM_A_NETWORK) throw error;
        await count(this.#pace, address, (wait) => `Many sign-in codes were sent to this address lately, so we send one a minute: try again in ${wait} seconds.`);
      }
      return allowance;
    } catch (error) {
      // A refused request sends nothing, so it must not use up what the traveler may still ask for.
      await allowance.refund();
      throw error;
    }
  }

  /** A traveler signed in from `clientAddress`: its network is theirs from now on (see signInCode). */
  async signedIn(userId: string, clientAddress: string): Promise<void> {
    await this.#signInNetworks?.remember(userId, networkOf(clientAddress));
  }

  /**
   * Gives `email` its whole sign-in code budget back (the admin command line, in sandbox mode): its count
   * from every network, its overall count and its pace. What its networks asked for other addresses stays
   * counted, and the networks the traveler signed in from stay known (they only ever let codes through).
   */
  async forgetAddress(email: string): Promise<void> {
    const address = email.trim().toLowerCase();
    await forgetKeysStartingWith(this.#perAddress, this.#redis, `${address} `);
    await forgetKey(this.#perAddressOverall, address);
    await forgetKey(this.#pace, address);
  }

  /** Counts one open registration from `clientAddress`'s network. */
  async registration(clientAddress: string): Promise<void> {
    await take(this.#registrations, networkOf(clientAddress), (wait) => `Too many client registrations from your network: retry after ${wait} s, or reuse a registration you have.`);
  }
}

function minutes(seconds: number): string {
  const count = Math.ceil(seconds / 60);
  return count === 1 ? 'a minute' : `${count} minutes`;
}
