/**
 * Offers: a partner hands us a provider's offer verbatim; we check it with that provider's native schema,
 * normalize it, and keep both. The offer gets our own id (what every later call names); it belongs to the
 * partner that created it, and after its `expires_at` it answers 410 `offer_expired`.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { GoneError, NotFoundError, NotImplementedError } from '../errors.js';
import type { OfferNormalizer } from './offer-normalizer.js';
import type { Offer } from './offer-schemas.js';
import type { ProviderCatalog } from './provider-catalog.js';

interface OfferRow {
  id: string;
  provider_id: string;
  offer: Offer;
  raw_offer: Record<string, unknown>;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export class OfferService {
  readonly #normalizers: ReadonlyMap<string, OfferNormalizer>;

  constructor(
    private readonly deps: { db: Knex; clock: Clock; providers: ProviderCatalog; normalizers: OfferNormalizer[] },
  ) {
    this.#normalizers = new Map(deps.normalizers.map((normalizer) => [normalizer.providerId, normalizer]));
  }

  async create(partnerId: string, providerId: string, native: unknown): Promise<{ offer_id: string }> {
    const { offer, providerOfferId } = this.#normalizer(providerId).normalize(native);
    if (new Date(offer.expires_at) <= this.deps.clock.now()) throw expired(offer.expires_at);
    const now = this.deps.clock.now();
    const [row] = await this.deps
      .db('offers')
      .insert({
        provider_id: providerId,
        provider_offer_id: providerOfferId,
        partner_id: partnerId,
        offer: JSON.stringify(withoutRaw(offer)),
        raw_offer: JSON.stringify(native),
        expires_at: new Date(offer.expires_at),
        created_at: now,
        updated_at: now,
      })
      .returning('id');
    return { offer_id: row.id as string };
  }

  /** The partner's offer, normalized, with the provider's own as `raw_offer`. */
  async get(partnerId: string, providerId: string, offerId: string): Promise<Offer> {
    this.deps.providers.get(providerId);
    const row: OfferRow | undefined = /^[0-9a-f-]{36}$/i.test(offerId)
      ? await this.deps.db('offers').where({ id: offerId, provider_id: providerId, partner_id: partnerId }).first()
      : undefined;
    if (!row) {
      throw new NotFoundError(`There is no offer ${offerId} of ${providerId} for your application: create it with POST /v1/flights/providers/${providerId}/offers.`, 'offer_not_found');
    }
    if (row.expires_at <= this.deps.clock.now()) throw expired(row.expires_at.toISOString());
    return {
      ...row.offer,
      id: row.id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      raw_offer: row.raw_offer,
    };
  }

  #normalizer(providerId: string): OfferNormalizer {
    this.deps.providers.get(providerId);
    const normalizer = this.#normalizers.get(providerId);
    if (!normalizer) {
      const ready = [...this.#normalizers.keys()].join(', ');
      throw new NotImplementedError(`Offers of ${providerId} are not supported yet; offers of ${ready} are.`, 'provider_offers_not_supported');
    }
    return normalizer;
  }
}

function withoutRaw(offer: Offer): Omit<Offer, 'raw_offer'> {
  const { raw_offer: _raw, ...rest } = offer;
  return rest;
}

function expired(expiresAt: string): GoneError {
  return new GoneError(`This offer expired at ${expiresAt}: search again or ask the provider for a new offer.`, 'offer_expired');
}
