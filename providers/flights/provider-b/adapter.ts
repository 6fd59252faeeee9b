/**
 * provider_b's adapter: its system over HTTP (got), with the timeouts of its capabilities, every answer
 * parsed with its native schema, every failure turned into a domain error in our words.
 */
import { HTTPError, TimeoutError, type Got } from 'got';
import { z } from 'zod';
import { ValidationError } from '../../../core/errors.js';
import type { FlightProvider } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { OfferPassengerDetails, PassengerUpdateRequest, SeatMap } from '../../../core/flights/offer-schemas.js';
import { providerFailures, providerHttp, type ProviderSettings } from '../adapter-kit.js';
import { PROVIDER_ID, toOffer, typeFromAge } from './map.js';
import { toSeatMap } from './seat-map.js';
import { WireErrors, WireOffer, WireOfferPassenger, WireSeatMap } from './wire.js';

const OfferAnswer = z.object({ data: WireOffer });
const SeatMapsAnswer = z.object({ data: z.array(WireSeatMap) });
const PassengerAnswer = z.object({ data: WireOfferPassenger });

const failures = providerFailures(PROVIDER_ID);

export class ProviderBAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  readonly #http: Got;
  readonly #settings: ProviderSettings;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.#http = providerHttp(settings.baseUrl, { authorization: `Bearer ${settings.token}`, 'duffel-version': 'v2' });
  }

  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const id = encodeURIComponent(String(raw.id));
    const answer = await this.#call(raw, () =>
      this.#http.post(`air/offers/${id}/actions/price`, { json: { data: {} }, timeout: { request: this.#timeoutMs() } }).json(),
    );
    const { data } = failures.parse(OfferAnswer, answer);
    return { offer: failures.map(() => toOffer(data)), providerOfferId: data.id };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    const answer = await this.#call(raw, () =>
      this.#http.get('air/seat_maps', { searchParams: { offer_id: String(raw.id) }, timeout: { request: this.#timeoutMs() } }).json(),
    );
    return failures.parse(SeatMapsAnswer, answer).data.map((seatMap) => toSeatMap(seatMap, offerId));
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
    const passenger = failures.parse(PassengerAnswer, answer).data;
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
    if (error instanceof TimeoutError) return failures.timedOut(this.#settings.capabilities.pricing_timeout_seconds);
    if (error instanceof HTTPError) {
      const codes = WireErrors.safeParse(error.response.body).data?.errors.map((item) => item.code) ?? [];
      if (codes.includes('invalid_passenger_name')) {
        return failures.invalidPassenger(
          "The airline refused the passenger's name: use letters, spaces, hyphens and apostrophes only, as printed in the passport.",
          'invalid passenger name',
        );
      }
      if (codes.includes('offer_no_longer_available') || error.response.statusCode === 404) {
        // One code for both: the offer's own expiry tells them apart.
        const expired = typeof raw.expires_at === 'string' && new Date(raw.expires_at) <= this.#settings.clock.now();
        return expired ? failures.expired() : failures.soldOut();
      }
    }
    return failures.unavailable();
  }
}
