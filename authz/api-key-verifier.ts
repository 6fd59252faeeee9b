/**
 * Verifies `x-api-key` values. A verified key is trusted from memory for API_KEY_CACHE_SECONDS so that
 * the database is not on every request's path; a revocation or plan change made through this process
 * clears the memory at once, and reaches other instances within that many seconds. Keys that fail are
 * counted per client address, and a client past its failures is refused before any lookup.
 */
import { UnauthenticatedError } from '../core/errors.js';
import { hashApiKey, matchesHash, prefixOf } from '../core/partners/api-keys.js';
import type { PartnerIdentity } from '../core/partners/schemas.js';
import type { PartnerService } from '../core/partners/service.js';
import type { FailedAuthGuard } from './failed-auth-guard.js';

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

  /** `client` identifies the caller's address, for counting failed attempts. */
  async verify(apiKey: string, client: string): Promise<PartnerIdentity> {
    const prefix = prefixOf(apiKey);
    const now = Date.now();
    const cached = prefix ? this.#cache.get(prefix) : undefined;
    // The cached hash is compared in constant time, like the stored one.
    if (cached && cached.expiresAt > now && matchesHash(apiKey, cached.secretHash)) return cached.identity;

    await this.#failures.assertAllowed(client);
    const generation = this.#generation;
    let identity: PartnerIdentity;
    try {
      identity = await this.#partners.authenticate(apiKey);
    } catch (error) {
      if (error instanceof UnauthenticatedError) await this.#failures.recordFailure(client);
      throw error;
    }
    if (prefix && this.#ttlMs > 0 && generation === this.#generation) {
      if (this.#cache.size >= MAX_CACHED_KEYS) this.#cache.clear();
      this.#cache.set(prefix, { identity, secretHash: hashApiKey(apiKey), expiresAt: now + this.#ttlMs });
    }
    return identity;
  }
}
