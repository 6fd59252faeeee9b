/**
 * Verifies `x-api-key` values. A verified key is trusted from memory for API_KEY_CACHE_SECONDS so that
 * the database is not on every request's path; a revocation or plan change made through this process
 * clears the memory at once, and reaches other instances within that many seconds. Keys that fail are
 * counted by the failed-auth guard, per key prefix and per network of the caller; a caller past a budget
 * is refused before any lookup, unless its key is one known to be right (failed-auth-guard.ts).
 */
import { UnauthenticatedError } from '../core/errors.js';
import { hashApiKey, matchesHash, prefixOf } from '../core/partners/api-keys.js';
import type { PartnerIdentity } from '../core/partners/schemas.js';
import type { PartnerService } from '../core/partners/service.js';
import type { Credential, FailedAuthGuard } from './failed-auth-guard.js';

interface CachedKey {
  identity: PartnerIdentity;
  secretHash: Buffer;
  expiresAt: number;
}

const MAX_CACHED_KEYS = 10_000;

export class ApiKeyVerifier {
  readonly #partners: PartnerService;
  readonly #failures: FailedAuthGuard;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, CachedKey>();
  /** Bumped by every change, so a lookup that raced a revocation is not cached with the old answer. */
  #generation = 0;

  constructor(partners: PartnerService, failures: FailedAuthGuard, options: { cacheSeconds: number }) {
    this.#partners = partners;
    this.#failures = failures;
    this.#ttlMs = options.cacheSeconds * 1000;
    partners.onChange(() => {
      this.#generation++;
      this.#cache.clear();
    });
  }

  /** `address` is the caller's, for counting failed attempts by its network. */
  async verify(apiKey: string, address: string): Promise<PartnerIdentity> {
    const prefix = prefixOf(apiKey);
    const now = Date.now();
    const cached = prefix ? this.#cache.get(prefix) : undefined;
    // The cached hash is compared in constant time, like the stored one.
    if (cached && cached.expiresAt > now && matchesHash(apiKey, cached.secretHash)) return cached.identity;

    // A malformed key names no key: it counts for the network only.
    const credential: Credential | undefined = prefix ? { kind: 'api_key', id: prefix, secret: apiKey } : undefined;
    await this.#failures.assertAllowed(address, credential);
    const generation = this.#generation;
    let identity: PartnerIdentity;
    try {
      identity = await this.#partners.authenticate(apiKey);
    } catch (error) {
      if (error instanceof UnauthenticatedError) await this.#failures.recordFailure(address, credential);
      throw error;
    }
    if (credential) await this.#failures.recordSuccess(credential);
    if (prefix && this.#ttlMs > 0 && generation === this.#generation) {
      if (this.#cache.size >= MAX_CACHED_KEYS) this.#cache.clear();
      this.#cache.set(prefix, { identity, secretHash: hashApiKey(apiKey), expiresAt: now + this.#ttlMs });
    }
    return identity;
  }
}
