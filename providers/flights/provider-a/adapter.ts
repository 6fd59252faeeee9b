/**
 * provider_a's adapter: its system over HTTP (got), with the timeouts of its capabilities, every answer
 * parsed with its native schema, every failure turned into a domain error in our words. Pricing is the
 * step this provider requires before booking. Passenger details go with its order, not before.
 */
import got, { HTTPError, TimeoutError, type Got } from 'got';
import type { Clock } from '../../../core/clock.js';
import { ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError } from '../../../core/errors.js';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import type { ProviderCapabilities } from '../../../core/flights/schemas.js';
import { offerIdOf, PROVIDER_ID, toPricedOffer } from './map.js';
import { toSeatMap } from './seat-map.js';
import { WireErrors, WirePricing, WireSeatMaps } from './wire.js';

const SOLD_OUT = 34651;

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
    let answer: unknown;
    try {
      answer = await this.#http
        .post('v1/shopping/flight-offers/pricing', {
          searchParams: { include: 'bags,detailed-fare-rules' },
          headers: { 'x-http-method-override': 'GET' },
          json: { data: { type: 'flight-offers-pricing', flightOffers: [raw] } },
          timeout: { request: this.#settings.capabilities.pricing_timeout_seconds * 1000 },
        })
        .json();
    } catch (error) {
      throw this.#translate(error);
    }
    const parsed = WirePricing.safeParse(answer);
    if (!parsed.success) {
      throw new ProviderUnavailableError('provider_a answered in a form we do not understand: try again later.', 'provider_unavailable');
    }
    const offer = toPricedOffer(parsed.data, this.#settings.clock.now());
    return { offer, providerOfferId: offerIdOf(parsed.data.data.flightOffers[0] as Parameters<typeof offerIdOf>[0]) };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    let answer: unknown;
    try {
      answer = await this.#http
        .post('v1/shopping/seatmaps', { json: { data: [raw] }, timeout: { request: this.#settings.capabilities.pricing_timeout_seconds * 1000 } })
        .json();
    } catch (error) {
      throw this.#translate(error);
    }
    const parsed = WireSeatMaps.safeParse(answer);
    if (!parsed.success) {
      throw new ProviderUnavailableError('provider_a answered in a form we do not understand: try again later.', 'provider_unavailable');
    }
    return parsed.data.data.map((seatMap) => toSeatMap(seatMap, offerId));
  }

  #translate(error: unknown): Error {
    if (error instanceof TimeoutError) {
      return new ProviderTimeoutError(`provider_a did not answer within ${this.#settings.capabilities.pricing_timeout_seconds} s: try again in a moment.`);
    }
    if (error instanceof HTTPError) {
      const codes = WireErrors.safeParse(error.response.body).data?.errors.map((item) => item.code) ?? [];
      if (codes.includes(SOLD_OUT)) {
        return new ProviderRejectedError('The airline has no seats left at this fare (sold out): search again for another offer.', 'sold_out', 'provider_a: segment sell failure');
      }
    }
    return new ProviderUnavailableError('provider_a is not answering as expected just now: try again in a moment.', 'provider_unavailable');
  }
}
