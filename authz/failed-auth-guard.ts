/**
 * Caps failed credentials: bad API keys, and wrong OAuth client secrets (at the identity API and at the
 * token endpoint). Every unknown key costs a database lookup (the hot path only caches keys that
 * verified), so without a cap a flood of made-up keys would queue real partners behind it, and guessing
 * would be free. Failures are counted by the caller's network (networks.ts: IPv4 /24, IPv6 /64; one
 * guesser's machines usually share one), in two budgets:
 * - per credential id (an API key's prefix, an OAuth client id) from one network: a guesser at one
 *   credential is refused on its own network only, so it cannot lock the holder out from elsewhere;
 * - per network, over every credential: a flood of made-up ones is refused before any lookup.
 * A refusal spares credentials known to be right: one (id *and* secret) that verified within
 * `knownGoodSeconds`, on any instance, and has not failed since, is still checked and served whatever
 * its network has sent. So an airline's backend or a partner's servers behind the same proxy as a
 * guesser keep working, and a guess, which by definition does not match a right credential, never
 * passes for one. What is remembered is a digest of the whole credential, never the id alone: the ids
 * are public (a client id is in the airline's pages, a key's prefix in logs).
 *
 * The trade-off: a right credential that has not verified for that long (a key issued a moment ago, say)
 * is refused with the guesser on that network, for one window at most after the guessing stops
 * (Retry-After); from any other network it is served at once, and once it has verified, everywhere.
 * Telling it from a guess without a lookup would need the lookup the cap exists to spare.
 *
 * Shared through Redis like the usage budgets; in memory when there is none, or when it does not answer.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../core/errors.js';
import { counter } from './counter.js';
import { networkOf } from './networks.js';

/** A credential as presented: the public id that names it and the secret that proves it. */
export interface Credential {
  kind: 'api_key' | 'oauth_client';
  /** An API key's prefix (`tpk_<12 hex>`), an OAuth client id. */
  id: string;
  /** As presented: the whole API key, the client secret. */
  secret: string;
}

export interface Budget {
  attempts: number;
  windowSeconds: number;
}

export interface FailedAuthPolicy {
  /** Failures naming one credential id, from one network. */
  perCredential: Budget;
  /** Failures from one network, whatever they name. */
  perNetwork: Budget;
  /** How long a credential that verified stays known to be right (unless it fails). */
  knownGoodSeconds: number;
}

export const DEFAULT_FAILED_AUTH_POLICY: FailedAuthPolicy = {
  perCredential: { attempts: 10, windowSeconds: 300 },
  perNetwork: { attempts: 30, windowSeconds: 300 },
  knownGoodSeconds: 30 * 24 * 3600,
};

export class FailedAuthGuard {
  readonly #policy: FailedAuthPolicy;
  readonly #perCredential: RateLimiterAbstract;
  readonly #perNetwork: RateLimiterAbstract;
  readonly #knownGood: KnownGoodCredentials;

  constructor(options: { redis?: Redis; keyPrefix?: string; policy?: Partial<FailedAuthPolicy> } = {}) {
    const prefix = `${options.keyPrefix ?? 'usage'}:failed-auth`;
    this.#policy = { ...DEFAULT_FAILED_AUTH_POLICY, ...options.policy };
    const { perCredential, perNetwork, knownGoodSeconds } = this.#policy;
    this.#perCredential = counter({ redis: options.redis, keyPrefix: `${prefix}:credential`, points: perCredential.attempts, duration: perCredential.windowSeconds });
    this.#perNetwork = counter({ redis: options.redis, keyPrefix: `${prefix}:network`, points: perNetwork.attempts, duration: perNetwork.windowSeconds });
    this.#knownGood = new KnownGoodCredentials({ redis: options.redis, keyPrefix: `${prefix}:known-good`, ttlSeconds: knownGoodSeconds });
  }

  /**
   * Refuses, before any lookup, a caller at `address` whose network has used up a budget (or whose
   * network has for `credential`), unless `credential` is known to be right. `credential` is left out
   * when the caller sent nothing that names one (a malformed key or header).
   */
  async assertAllowed(address: string, credential?: Credential): Promise<void> {
    const network = networkOf(address);
    const [byNetwork, byCredential] = await Promise.all([
      this.#perNetwork.get(network),
      credential ? this.#perCredential.get(credentialKey(network, credential)) : null,
    ]);
    const networkSpent = spent(byNetwork, this.#policy.perNetwork);
    const credentialSpent = spent(byCredential, this.#policy.perCredential);
    if (!networkSpent && !credentialSpent) return;
    if (credential && (await this.#knownGood.has(fingerprint(credential)))) return;
    const waitMs = Math.max(networkSpent ? (byNetwork?.msBeforeNext ?? 0) : 0, credentialSpent ? (byCredential?.msBeforeNext ?? 0) : 0);
    const wait = Math.max(1, Math.ceil(waitMs / 1000));
    const message = networkSpent || !credential ? networkMessage(wait) : credentialMessage(credential.kind, wait);
    throw new RateLimitedError(message, wait, 'too_many_failed_attempts');
  }

  /** A credential that did not verify (or nothing that names one) from `address`. It is no longer known good. */
  async recordFailure(address: string, credential?: Credential): Promise<void> {
    const network = networkOf(address);
    await Promise.all([
      consume(this.#perNetwork, network),
      credential ? consume(this.#perCredential, credentialKey(network, credential)) : undefined,
      credential ? this.#knownGood.forget(fingerprint(credential)) : undefined,
    ]);
  }

  /** A credential that verified: known to be right, on every instance, for `knownGoodSeconds`. */
  async recordSuccess(credential: Credential): Promise<void> {
    await this.#knownGood.remember(fingerprint(credential));
  }
}

function spent(state: RateLimiterRes | null, budget: Budget): boolean {
  return state !== null && state.consumedPoints >= budget.attempts;
}

async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  await limiter.consume(key).catch((rejection: unknown) => {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
  });
}

/** The ids are the caller's text (a client id may be a long URL): digested, so that every key is short. */
function credentialKey(network: string, credential: Credential): string {
  return `${network} ${credential.kind}:${digest(credential.id)}`;
}

/** One digest of id and secret together: all a store holds of a right credential. */
function fingerprint(credential: Credential): string {
  return digest(`${credential.kind}\u0000${credential.id}\u0000${credential.secret}`);
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

function networkMessage(wait: number): string {
  return `Too many invalid credentials (API keys, or OAuth client ids and secrets) came from your network: check the one you send, and retry after ${wait} s. Credentials that verified recently are still served.`;
}

function credentialMessage(kind: Credential['kind'], wait: number): string {
  return kind === 'api_key'
    ? `Too many invalid keys with this API key's prefix came from your network: check that you send your partner application's current key, and retry after ${wait} s.`
    : `Too many failed attempts for this client id came from your network: check that you send the client's current secret, and retry after ${wait} s.`;
}

/** Past this, a success is written to Redis again (to renew its expiry); before it, once is enough. */
const REWRITE_AFTER_MS = 3600_000;
const MAX_REMEMBERED = 10_000;

/**
 * Fingerprints of credentials that verified. Redis is the truth when the service has it (a credential that
 * fails on one instance is forgotten on all); memory stands in when there is none or it does not answer.
 */
class KnownGoodCredentials {
  readonly #redis: Redis | undefined;
  readonly #keyPrefix: string;
  readonly #ttlMs: number;
  /** Fingerprint → when this instance last recorded it. */
  readonly #recorded = new Map<string, number>();

  constructor(options: { redis: Redis | undefined; keyPrefix: string; ttlSeconds: number }) {
    this.#redis = options.redis;
    this.#keyPrefix = options.keyPrefix;
    this.#ttlMs = options.ttlSeconds * 1000;
  }

  async has(fingerprint: string): Promise<boolean> {
    if (this.#redis) {
      try {
        return (await this.#redis.exists(this.#key(fingerprint))) === 1;
      } catch {
        // Redis does not answer: what this instance saw.
      }
    }
    const recordedAt = this.#recorded.get(fingerprint);
    return recordedAt !== undefined && recordedAt + this.#ttlMs > Date.now();
  }

  async remember(fingerprint: string): Promise<void> {
    const now = Date.now();
    const recordedAt = this.#recorded.get(fingerprint);
    // Every request of a busy client verifies: one write an hour is enough to keep it known.
    if (recordedAt !== undefined && now - recordedAt < Math.min(REWRITE_AFTER_MS, this.#ttlMs)) return;
    this.#recorded.delete(fingerprint);
    if (this.#recorded.size >= MAX_REMEMBERED) this.#recorded.delete(this.#recorded.keys().next().value as string);
    this.#recorded.set(fingerprint, now);
    if (!this.#redis) return;
    try {
      await this.#redis.set(this.#key(fingerprint), '1', 'PX', this.#ttlMs);
    } catch {
      // Not written: the next success tries again (memory still knows it, an hour short).
      this.#recorded.set(fingerprint, now - REWRITE_AFTER_MS);
    }
  }

  async forget(fingerprint: string): Promise<void> {
    this.#recorded.delete(fingerprint);
    await this.#redis?.del(this.#key(fingerprint)).catch(() => undefined);
  }

  #key(fingerprint: string): string {
    return `${this.#keyPrefix}:${fingerprint}`;
  }
}
