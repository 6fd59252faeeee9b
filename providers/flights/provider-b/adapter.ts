/**
 * provider_b's adapter: its system over HTTP (got), with the timeouts of its capabilities, every answer
 * parsed with its native schema, every failure turned into a domain error in our words.
 */
import got, { HTTPError, TimeoutError, type Got } from 'got';
import { z } from 'zod';
import type { Clock } from '../../../core/clock.js';
import { GoneError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError, ValidationError } from '../../../core/errors.js';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { OfferPassengerDetails, PassengerUpdateRequest, SeatMap } from '../../../core/flights/offer-schemas.js';
import type { ProviderCapabilities } from '../../../core/flights/schemas.js';
import { PROVIDER_ID, toOffer, typeFromAge } from './map.js';
import { toSeatMap } from './seat-map.js';
import { WireErrors, WireOffer, WireOfferPassenger, WireSeatMap } from './wire.js';

const OfferAnswer = z.object({ data: WireOffer });
const SeatMapsAnswer = z.object({ data: z.array(WireSeatMap) });
const PassengerAnswer = z.object({ data: WireOfferPassenger });

export interface ProviderBSettings {
  /** Where its API lives (the sandbox in sandbox mode). */
  baseUrl: string;
  token: string;
  capabilities: ProviderCapabilities;
  clock: Clock;
}

export class ProviderBAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  readonly #http: Got;
  readonly #settings: ProviderBSettings;

  constructor(settings: ProviderBSettings) {
    this.#settings = settings;
    this.#http = got.extend({
      prefixUrl: settings.baseUrl,
      headers: { authorization: `Bearer ${settings.token}`, 'duffel-version': 'v2', accept: 'application/json' },
      retry: { limit: 0 },
      responseType: 'json',
    });
  }

  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const id = encodeURIComponent(String(raw.id));
    const answer = await this.#call(raw, () =>
      this.#http.post(`air/offers/${id}/actions/price`, { json: { data: {} }, timeout: { request: this.#timeoutMs() } }).json(),
    );
    const { data } = this.#parse(OfferAnswer, answer);
    return { offer: toOffer(data), providerOfferId: data.id };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    const answer = await this.#call(raw, () =>
      this.#http.get('air/seat_maps', { searchParams: { offer_id: String(raw.id) }, timeout: { request: this.#timeoutMs() } }).json(),
    );
    return this.#parse(SeatMapsAnswer, answer).data.map((seatMap) => toSeatMap(seatMap, offerId));
  }

  /** Its API takes names and loyalty accounts; the other fields go with the booking, and are refused here. */
  async updatePassenger(raw: Record<string, unknown>, providerPassengerId: string, update: PassengerUpdateRequest): Promise<OfferPassengerDetails> {
    const later = (['middle_name', 'date_of_birth', 'gender', 'known_traveler_number', 'identity_documents'] as const).filter(
      (field) => update[field] !== undefined,
    );
    if (later.length > 0) {
      throw new ValidationError(
        later.map((field) => ({ field, rule: 'at_booking', message: `provider_b takes ${field} with the booking, not before: send it when you book` })),
      );
    }
    const path = `air/offers/${encodeURIComponent(String(raw.id))}/passengers/${encodeURIComponent(providerPassengerId)}`;
    const data = {
      ...(update.first_name ? { given_name: update.first_name } : {}),
      ...(update.last_name ? { family_name: update.last_name } : {}),
      ...(update.loyalty_programme_accounts ? { loyalty_programme_accounts: update.loyalty_programme_accounts } : {}),
    };
    const answer = await this.#call(raw, () => this.#http.patch(path, { json: { data }, timeout: { request: this.#timeoutMs() } }).json());
    const passenger = this.#parse(PassengerAnswer, answer).data;
    return {
      id: passenger.id,
      type: passenger.type ?? typeFromAge(passenger.age),
      age: passenger.age ?? null,
      given_name: passenger.given_name ?? null,
      family_name: passenger.family_name ?? null,
      loyalty_programme_accounts: (passenger.loyalty_programme_accounts ?? []).map(({ airline_iata_code, account_number }) => ({ airline_iata_code, account_number })),
    };
  }

  #timeoutMs(): number {
    return this.#settings.capabilities.pricing_timeout_seconds * 1000;
  }

  async #call(raw: Record<string, unknown>, request: () => Promise<unknown>): Promise<unknown> {
    try {
      return await request();
    } catch (error) {
      throw this.#translate(error, raw);
    }
  }

  #translate(error: unknown, raw: Record<string, unknown>): Error {
    if (error instanceof TimeoutError) {
      return new ProviderTimeoutError(
        `provider_b did not answer within ${this.#settings.capabilities.pricing_timeout_seconds} s: try again in a moment.`,
      );
    }
    if (error instanceof HTTPError) {
      const codes = WireErrors.safeParse(error.response.body).data?.errors.map((item) => item.code) ?? [];
      if (codes.includes('invalid_passenger_name')) {
        return new ProviderRejectedError(
          "The airline refused the passenger's name: use letters, spaces, hyphens and apostrophes only, as printed in the passport.",
          'invalid_passenger',
          'provider_b: invalid passenger name',
        );
      }
      if (codes.includes('offer_no_longer_available') || error.response.statusCode === 404) {
        const expired = typeof raw.expires_at === 'string' && new Date(raw.expires_at) <= this.#settings.clock.now();
        return expired
          ? new GoneError('This offer has expired: search again for a new one.', 'offer_expired')
          : new ProviderRejectedError(
              'The airline no longer sells this offer (sold out or withdrawn): search again for another one.',
              'offer_no_longer_available',
              'provider_b: offer no longer available',
            );
      }
    }
    return new ProviderUnavailableError('provider_b is not answering as expected just now: try again in a moment.', 'provider_unavailable');
  }

  #parse<S extends z.ZodType>(schema: S, answer: unknown): z.output<S> {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      throw new ProviderUnavailableError('provider_b answered in a form we do not understand: try again later.', 'provider_unavailable');
    }
    return parsed.data;
  }
}
