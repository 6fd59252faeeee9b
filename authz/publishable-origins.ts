/**
 * Which origins a CORS preflight of the checkout's routes is answered for: those some active publishable
 * key lists (decisions §12). A preflight carries no key, so it cannot be checked against one; the actual
 * request is, by the API key check. The set is read from the database at most once per
 * API_KEY_CACHE_SECONDS, and again at once after a key or partner change made through this process (the
 * admin command line's socket): a revoked key's origins stop being answered within that many seconds on
 * other instances. One query serves every preflight of the period, whatever `Origin` they name, so
 * made-up origins cannot multiply lookups.
 */
import type { PartnerService } from '../core/partners/service.js';

export class PublishableOrigins {
  readonly #partners: PartnerService;
  readonly #ttlMs: number;
  #loaded: { origins: Promise<ReadonlySet<string>>; expiresAt: number } | undefined;

  constructor(partners: PartnerService, options: { cacheSeconds: number }) {
    this.#partners = partners;
    this.#ttlMs = options.cacheSeconds * 1000;
    partners.onChange(() => {
      this.#loaded = undefined;
    });
  }

  async allows(origin: string): Promise<boolean> {
    return (await this.#origins()).has(origin);
  }

  #origins(): Promise<ReadonlySet<string>> {
    const now = Date.now();
    if (this.#loaded && this.#loaded.expiresAt > now) return this.#loaded.origins;
    const origins = this.#partners.activePublishableOrigins().then((list) => new Set(list));
    const loaded = { origins, expiresAt: now + this.#ttlMs };
    this.#loaded = loaded;
    // A failed read is not kept: the next preflight asks again.
    origins.catch(() => {
      if (this.#loaded === loaded) this.#loaded = undefined;
    });
    return origins;
  }
}
