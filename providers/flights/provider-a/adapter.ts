/**
 * provider_a's adapter: its system over HTTP (got), with the timeouts of its capabilities, every answer
 * parsed with its native schema, every failure turned into a domain error in our words. Pricing is the
 * step this provider requires before booking. Passenger details go with its order, not before.
 */
import { HTTPError, TimeoutError, type Got } from 'got';
import type { z } from 'zod';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import { providerFailures, providerHttp, type ProviderSettings } from '../adapter-kit.js';
import { offerIdOf, PROVIDER_ID, toPricedOffer } from './map.js';
import { toSeatMap } from './seat-map.js';
import { WireErrors, WirePricing, WireSeatMaps } from './wire.js';

const SOLD_OUT = 34651;
/** INVALID DATA RECEIVED: at pricing, the offer is stale (it carries no expiry of its own). */
const STALE_OFFER = 4926;

const failures = providerFailures(PROVIDER_ID);

export class ProviderAAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  /** Its orders match travelers by `travelerPricings.travelerId`; details go with the order (kept till then). */
  readonly requiresPassengerId = true;
  readonly #http: Got;
  readonly #settings: ProviderSettings;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.#http = providerHttp(settings.baseUrl, { authorization: `Bearer ${settings.token}` });
  }

  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const pricing = await this.#post('v1/shopping/flight-offers/pricing', WirePricing, {
      searchParams: { include: 'bags,detailed-fare-rules' },
      headers: { 'x-http-method-override': 'GET' },
      json: { data: { type: 'flight-offers-pricing', flightOffers: [raw] } },
    });
    const offer = failures.map(() => toPricedOffer(pricing, this.#settings.clock.now()));
    return { offer, providerOfferId: offerIdOf(pricing.data.flightOffers[0] as Parameters<typeof offerIdOf>[0]) };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    const answer = await this.#post('v1/shopping/seatmaps', WireSeatMaps, { json: { data: [raw] } });
    return failures.map(() => answer.data.map((seatMap) => toSeatMap(seatMap, offerId)));
  }

  /** A POST within the capability timeout, its failure in our words, its answer checked with `schema`. */
  async #post<S extends z.ZodType>(path: string, schema: S, options: { json: unknown; searchParams?: Record<string, string>; headers?: Record<string, string> }) {
    const seconds = this.#settings.capabilities.pricing_timeout_seconds;
    let answer: unknown;
    try {
      answer = await this.#http.post(path, { ...options, timeout: { request: seconds * 1000 } }).json();
    } catch (error) {
      throw translate(error, seconds);
    }
    return failures.parse(schema, answer);
  }
}

function translate(error: unknown, seconds: number): Error {
  if (error instanceof TimeoutError) return failures.timedOut(seconds);
  if (error instanceof HTTPError) {
    const codes = WireErrors.safeParse(error.response.body).data?.errors.map((item) => item.code) ?? [];
    if (codes.includes(STALE_OFFER)) return failures.expired();
    if (codes.includes(SOLD_OUT)) return failures.soldOut();
  }
  return failures.unavailable();
}
