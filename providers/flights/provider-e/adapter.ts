/**
 * provider_e's adapter: its system over HTTP (got), with the timeouts of its capabilities, every answer
 * parsed with its native schema, every failure turned into a domain error in our words. Pricing is its
 * verify; seat maps are its seatmaps call. Passenger details go with the booking (no updatePassenger).
 */
import { HTTPError, TimeoutError, type Got } from 'got';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import { providerFailures, providerHttp, type ProviderSettings } from '../adapter-kit.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { toSeatMap } from './seat-map.js';
import { ERROR_CODES, WireError, WireSeatMapsAnswer, WireVerifyAnswer } from './wire.js';

const failures = providerFailures(PROVIDER_ID);

export class ProviderEAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  readonly #http: Got;
  readonly #settings: ProviderSettings;

  /** `settings.baseUrl`: paths below it start with /v3.0; `settings.token`: its API key (X-API-Key). */
  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.#http = providerHttp(settings.baseUrl, { 'x-api-key': settings.token });
  }

  /** Its verify: the binding price now, as the offer normalized. */
  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const answer = await this.#call(() => this.#http.post('v3.0/flights/verify', { json: { offerId: String(raw.offerId) }, timeout: { request: this.#timeoutMs() } }).json());
    const { offer } = failures.parse(WireVerifyAnswer, answer).data;
    return { offer: failures.map(() => toOffer(offer)), providerOfferId: offer.offerId };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    const answer = await this.#call(() => this.#http.post('v3.0/flights/seatmaps', { json: { offerId: String(raw.offerId) }, timeout: { request: this.#timeoutMs() } }).json());
    const { seatmaps } = failures.parse(WireSeatMapsAnswer, answer).data;
    return failures.map(() => seatmaps.map((seatMap) => toSeatMap(seatMap, offerId)));
  }

  #timeoutMs(): number {
    return this.#settings.capabilities.pricing_timeout_seconds * 1000;
  }

  async #call(request: () => Promise<unknown>): Promise<unknown> {
    try {
      return await request();
    } catch (error) {
      throw this.#translate(error);
    }
  }

  #translate(error: unknown): Error {
    if (error instanceof TimeoutError) return failures.timedOut(this.#settings.capabilities.pricing_timeout_seconds);
    if (error instanceof HTTPError) {
      const code = WireError.safeParse(error.response.body).data?.error.code;
      // provider_e says an offer expired by not finding it, at any step of its flow. A 404 without its
      // error body is not its answer (a wrong base URL, say): that falls through to unavailable.
      if (code === ERROR_CODES.offerNotFound) return failures.expired();
      if (code === ERROR_CODES.noAvailability) return failures.soldOut();
      if (code === ERROR_CODES.validation && error.response.statusCode === 400) {
        return failures.invalidPassenger(
          "The airline refused a passenger's details: check names (letters, spaces, hyphens and apostrophes, as in the passport), dates of birth and documents, then try again.",
          'passenger validation failed',
        );
      }
    }
    // A refused key, a 5xx, a connection failure: nothing the caller can fix but to wait.
    return failures.unavailable();
  }
}
