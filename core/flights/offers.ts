/**
 * Offers: a partner hands us a provider's offer verbatim; we check it with that provider's native schema,
 * normalize it, and keep both. The offer gets our own id (what every later call names); it belongs to the
 * partner that created it, and after its `expires_at` it answers 410 `offer_expired`.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { GoneError, NotFoundError, NotImplementedError, ProviderRejectedError } from '../errors.js';
import type { FlightProvider } from './flight-provider.js';
import type { OfferNormalizer } from './offer-normalizer.js';
import type { Offer, SeatMap } from './offer-schemas.js';
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

export interface PricingResult {
  offer: Offer;
  price_changed: boolean;
  previous_total_amount: string;
}

export class OfferService {
  readonly #normalizers: ReadonlyMap<string, OfferNormalizer>;
  readonly #adapters: ReadonlyMap<string, FlightProvider>;

  constructor(
    private readonly deps: {
      db: Knex;
      clock: Clock;
      providers: ProviderCatalog;
      normalizers: OfferNormalizer[];
      adapters: FlightProvider[];
    },
  ) {
    this.#normalizers = new Map(deps.normalizers.map((normalizer) => [normalizer.providerId, normalizer]));
    this.#adapters = new Map(deps.adapters.map((adapter) => [adapter.providerId, adapter]));
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
    return present(await this.#row(partnerId, providerId, offerId));
  }

  /**
   * Prices the offer with the provider again and keeps what it answers. A changed price is said
   * (`price_changed`, with the previous total), never hidden.
   */
  async price(partnerId: string, providerId: string, offerId: string): Promise<PricingResult> {
    const row = await this.#row(partnerId, providerId, offerId);
    const { offer } = await this.#adapter(providerId).price(row.raw_offer);
    const previous = row.offer.total_amount;
    const [updated] = await this.deps
      .db('offers')
      .where({ id: row.id })
      .update({
        offer: JSON.stringify(withoutRaw(offer)),
        raw_offer: JSON.stringify(offer.raw_offer ?? row.raw_offer),
        expires_at: new Date(offer.expires_at),
        updated_at: this.deps.clock.now(),
      })
      .returning('*');
    return {
      offer: present(updated as OfferRow),
      price_changed: offer.total_amount !== previous || offer.total_currency !== row.offer.total_currency,
      previous_total_amount: previous,
    };
  }

  /** The seats of each segment, for providers that sell seats (capability `supports_seat_selection`). */
  async seatMaps(partnerId: string, providerId: string, offerId: string): Promise<SeatMap[]> {
    if (!this.deps.providers.capabilities(providerId).supports_seat_selection) {
      throw new ProviderRejectedError(
        `${providerId} does not sell seats (its capabilities say supports_seat_selection: false): book without seat selection.`,
        'seat_selection_not_supported',
      );
    }
    const row = await this.#row(partnerId, providerId, offerId);
    return this.#adapter(providerId).seatMaps(row.raw_offer, row.id);
  }

  async #row(partnerId: string, providerId: string, offerId: string): Promise<OfferRow> {
    this.deps.providers.get(providerId);
    const row: OfferRow | undefined = /^[0-9a-f-]{36}$/i.test(offerId)
      ? await this.deps.db('offers').where({ id: offerId, provider_id: providerId, partner_id: partnerId }).first()
      : undefined;
    if (!row) {
      throw new NotFoundError(`There is no offer ${offerId} of ${providerId} for your application: create it with POST /v1/flights/providers/${providerId}/offers.`, 'offer_not_found');
    }
    if (row.expires_at <= this.deps.clock.now()) throw expired(row.expires_at.toISOString());
    return row;
  }

  #adapter(providerId: string): FlightProvider {
    const adapter = this.#adapters.get(providerId);
    if (!adapter) throw new NotImplementedError(`Calls to ${providerId} are not supported yet.`, 'provider_not_supported');
    return adapter;
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

function present(row: OfferRow): Offer {
  return {
    ...row.offer,
    id: row.id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    raw_offer: row.raw_offer,
  };
}

function withoutRaw(offer: Offer): Omit<Offer, 'raw_offer'> {
  const { raw_offer: _raw, ...rest } = offer;
  return rest;
}

function expired(expiresAt: string): GoneError {
  return new GoneError(`This offer expired at ${expiresAt}: search again or ask the provider for a new offer.`, 'offer_expired');
}
