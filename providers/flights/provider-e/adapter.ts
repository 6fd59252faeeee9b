/**
 * provider_e's adapter: its system over HTTP (got), with the timeouts of its capabilities, every answer
 * parsed with its native schema, every failure turned into a domain error in our words. Pricing is its
 * verify; seat maps are its seatmaps call. Passenger details go with the booking (no updatePassenger).
 */
import got, { HTTPError, TimeoutError, type Got } from 'got';
import type { z } from 'zod';
import type { Clock } from '../../../core/clock.js';
import { GoneError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError, ValidationError } from '../../../core/errors.js';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import type { ProviderCapabilities } from '../../../core/flights/schemas.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { toSeatMap } from './seat-map.js';
import { ERROR_CODES, WireError, WireSeatMapsAnswer, WireVerifyAnswer } from './wire.js';

export interface ProviderESettings {
  /** Where its API lives (the sandbox in sandbox mode); paths below it start with /v3.0. */
  baseUrl: string;
  /** Its API key (sent as X-API-Key). */
  token: string;
  capabilities: ProviderCapabilities;
  clock: Clock;
}

export class ProviderEAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  readonly #http: Got;
  readonly #settings: ProviderESettings;

  constructor(settings: ProviderESettings) {
    this.#settings = settings;
    this.#http = got.extend({
      prefixUrl: settings.baseUrl,
      headers: { 'x-api-key': settings.token, accept: 'application/json' },
      retry: { limit: 0 },
      responseType: 'json',
    });
  }

  /** Its verify: the binding price now, as the offer normalized. */
  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const answer = await this.#call(() => this.#http.post('v3.0/flights/verify', { json: { offerId: String(raw.offerId) }, timeout: { request: this.#timeoutMs() } }).json());
    const { offer } = this.#parse(WireVerifyAnswer, answer).data;
    return { offer: this.#map(() => toOffer(offer)), providerOfferId: offer.offerId };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    const answer = await this.#call(() => this.#http.post('v3.0/flights/seatmaps', { json: { offerId: String(raw.offerId) }, timeout: { request: this.#timeoutMs() } }).json());
    const { seatmaps } = this.#parse(WireSeatMapsAnswer, answer).data;
    return this.#map(() => seatmaps.map((seatMap) => toSeatMap(seatMap, offerId)));
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
    if (error instanceof TimeoutError) {
      return new ProviderTimeoutError(`provider_e did not answer within ${this.#settings.capabilities.pricing_timeout_seconds} s: try again in a moment.`);
    }
    if (error instanceof HTTPError) {
      const code = WireError.safeParse(error.response.body).data?.error.code;
      // provider_e says an offer expired by not finding it, at any step of its flow. A 404 without its
      // error body is not its answer (a wrong base URL, say): that falls through to unavailable.
      if (code === ERROR_CODES.offerNotFound) {
        return new GoneError('This offer has expired at the airline: search again for a new one.', 'offer_expired');
      }
      if (code === ERROR_CODES.noAvailability) {
        return new ProviderRejectedError(
          'The airline no longer sells this offer (sold out): search again for another one.',
          'offer_no_longer_available',
          'provider_e: no availability',
        );
      }
      if (code === ERROR_CODES.validation && error.response.statusCode === 400) {
        return new ProviderRejectedError(
          "The airline refused a passenger's details: check names (letters, spaces, hyphens and apostrophes, as in the passport), dates of birth and documents, then try again.",
          'invalid_passenger',
          'provider_e: passenger validation failed',
        );
      }
    }
    // A refused key, a 5xx, a connection failure: nothing the caller can fix but to wait.
    return new ProviderUnavailableError('provider_e is not answering as expected just now: try again in a moment.', 'provider_unavailable');
  }

  #parse<S extends z.ZodType>(schema: S, answer: unknown): z.output<S> {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw unreadable();
    return parsed.data;
  }

  /** Mapping a parsed answer can still fail (an amount finer than its currency): that is its answer's fault, not the caller's. */
  #map<T>(mapping: () => T): T {
    try {
      return mapping();
    } catch (error) {
      if (error instanceof ValidationError) throw unreadable();
      throw error;
    }
  }
}

function unreadable(): ProviderUnavailableError {
  return new ProviderUnavailableError('provider_e answered in a form we do not understand: try again later.', 'provider_unavailable');
}
