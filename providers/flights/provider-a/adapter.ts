/**
 * provider_a's adapter: its system over HTTP (got), with the timeouts of its capabilities, every answer
 * parsed with its native schema, every failure turned into a domain error in our words. Pricing is the
 * step this provider requires before booking. Passenger details go with its order, not before.
 */
import got, { HTTPError, TimeoutError, type Got } from 'got';
import type { z } from 'zod';
import type { Clock } from '../../../core/clock.js';
import { GoneError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError } from '../../../core/errors.js';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import type { ProviderCapabilities } from '../../../core/flights/schemas.js';
import { offerIdOf, PROVIDER_ID, toPricedOffer } from './map.js';
import { toSeatMap } from './seat-map.js';
import { WireErrors, WirePricing, WireSeatMaps } from './wire.js';

const SOLD_OUT = 34651;
/** INVALID DATA RECEIVED: at pricing, the offer is stale (it carries no expiry of its own). */
const STALE_OFFER = 4926;

export interface ProviderASettings {
  baseUrl: string;
  token: string;
  capabilities: ProviderCapabilities;
  clock: Clock;
}

export class ProviderAAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  /** Its orders match travelers by `travelerPricings.travelerId`; details go with the order (kept till then). */
  readonly requiresPassengerId = true;
  readonly #http: Got;
  readonly #settings: ProviderASettings;

  constructor(settings: ProviderASettings) {
    this.#settings = settings;
    this.#http = got.extend({
      prefixUrl: settings.baseUrl,
      headers: { authorization: `Bearer ${settings.token}`, accept: 'application/json' },
      retry: { limit: 0 },
      responseType: 'json',
    });
  }

  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const pricing = await this.#post('v1/shopping/flight-offers/pricing', WirePricing, {
      searchParams: { include: 'bags,detailed-fare-rules' },
      headers: { 'x-http-method-override': 'GET' },
      json: { data: { type: 'flight-offers-pricing', flightOffers: [raw] } },
    });
    const offer = toPricedOffer(pricing, this.#settings.clock.now());
    return { offer, providerOfferId: offerIdOf(pricing.data.flightOffers[0] as Parameters<typeof offerIdOf>[0]) };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    const answer = await this.#post('v1/shopping/seatmaps', WireSeatMaps, { json: { data: [raw] } });
    return answer.data.map((seatMap) => toSeatMap(seatMap, offerId));
  }

  /** A POST within the capability timeout, its failure in our words, its answer checked with `schema`. */
  async #post<S extends z.ZodType>(path: string, schema: S, options: { json: unknown; searchParams?: Record<string, string>; headers?: Record<string, string> }) {
    let answer: unknown;
    try {
      answer = await this.#http.post(path, { ...options, timeout: { request: this.#settings.capabilities.pricing_timeout_seconds * 1000 } }).json();
    } catch (error) {
      throw this.#translate(error);
    }
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      throw new ProviderUnavailableError('provider_a answered in a form we do not understand: try again later.', 'provider_unavailable');
    }
    return parsed.data as z.output<S>;
  }

  #translate(error: unknown): Error {
    if (error instanceof TimeoutError) {
      return new ProviderTimeoutError(`provider_a did not answer within ${this.#settings.capabilities.pricing_timeout_seconds} s: try again in a moment.`);
    }
    if (error instanceof HTTPError) {
      const codes = WireErrors.safeParse(error.response.body).data?.errors.map((item) => item.code) ?? [];
      if (codes.includes(STALE_OFFER)) {
        return new GoneError('This offer is no longer valid at the airline (it is stale): search again for a new one.', 'offer_expired');
      }
      if (codes.includes(SOLD_OUT)) {
        return new ProviderRejectedError('The airline has no seats left at this fare (sold out): search again for another offer.', 'offer_no_longer_available', 'provider_a: segment sell failure');
      }
    }
    return new ProviderUnavailableError('provider_a is not answering as expected just now: try again in a moment.', 'provider_unavailable');
  }
}
