/**
 * Verifies `x-api-key` values. A verified key is trusted from memory for API_KEY_CACHE_SECONDS so that
 * the database is not on every request's path; a revocation or plan change made through this process
 * clears the memory at once, and reaches other instances within that many seconds.
 */
import { hashApiKey, matchesHash, prefixOf } from '../core/partners/api-keys.js';
import type { PartnerIdentity } from '../core/partners/schemas.js';
import type { PartnerService } from '../core/partners/service.js';

interface CachedKey {
  identity: PartnerIdentity;
  secretHash: Buffer;
  expiresAt: number;
}

const MAX_CACHED_KEYS = 10_000;

export class ApiKeyVerifier {
  readonly #partners: PartnerService;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, CachedKey>();

  constructor(partners: PartnerService, options: { cacheSeconds: number }) {
    this.#partners = partners;
    this.#ttlMs = options.cacheSeconds * 1000;
    partners.onChange(() => this.#cache.clear());
  }

  async verify(apiKey: string): Promise<PartnerIdentity> {
    const prefix = prefixOf(apiKey);
    const now = Date.now();
    const cached = prefix ? this.#cache.get(prefix) : undefined;
    // The cached hash is compared in constant time, like the stored one.
    if (cached && cached.expiresAt > now && matchesHash(apiKey, cached.secretHash)) return cached.identity;

    const identity = await this.#partners.authenticate(apiKey);
    if (prefix && this.#ttlMs > 0) {
      if (this.#cache.size >= MAX_CACHED_KEYS) this.#cache.clear();
      this.#cache.set(prefix, { identity, secretHash: hashApiKey(apiKey), expiresAt: now + this.#ttlMs });
    }
    return identity;
  }
}
