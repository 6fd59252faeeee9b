/**
 * provider_d's adapter (Kiwi-like OTA): search, and check_flights as its pricing step. check_flights is
 * polled (every second here; the provider suggests 2-3 s) until the provider says the flights are
 * checked, all within its pricing timeout. Every answer is parsed with its native schema, every failure
 * turned into a domain error in our words. It sells no seats, so it has no seat maps.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { HTTPError, TimeoutError, type Got } from 'got';
import { GoneError } from '../../../core/errors.js';
import type { FlightProvider, FlightSearcher, SearchHit } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { FlightSearchRequest } from '../../../core/flights/search-schemas.js';
import { providerFailures, providerHttp, type ProviderSettings } from '../adapter-kit.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { WireCheckFlights, WireError, WireOffer, WireSearchAnswer } from './wire.js';

const CABINS = { economy: 'M', premium_economy: 'W', business: 'C', first: 'F' } as const;

const failures = providerFailures(PROVIDER_ID);
/** Between two check_flights calls. */
const POLL_INTERVAL_MS = 1000;

export class ProviderDAdapter implements FlightProvider, FlightSearcher {
  readonly providerId = PROVIDER_ID;
  readonly #http: Got;
  readonly #settings: ProviderSettings;

  /** `settings.token`: its API key (sent as `apikey`). */
  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    this.#http = providerHttp(settings.baseUrl, { apikey: settings.token });
  }

  async search(request: FlightSearchRequest): Promise<SearchHit[]> {
    const searchParams: Record<string, string | number> = {
      fly_from: request.origin,
      fly_to: request.destination,
      date_from: dayMonthYear(request.departure_date),
      date_to: dayMonthYear(request.departure_date),
      adults: request.passengers.adults,
      children: request.passengers.children,
      infants: request.passengers.infants,
      curr: request.currency,
      selected_cabins: CABINS[request.cabin_class],
      limit: request.max_results,
      ...(request.return_date ? { return_from: dayMonthYear(request.return_date), return_to: dayMonthYear(request.return_date) } : {}),
    };
    const seconds = this.#settings.capabilities.search_timeout_seconds;
    const answer = await this.#call(() => this.#http.get('v2/search', { searchParams, timeout: { request: seconds * 1000 } }).json(), seconds);
    const { currency, search_params: params, data } = failures.parse(WireSearchAnswer, answer);
    // Each result whole, as its normalizer takes it: the item with the answer's currency and passengers.
    return data.map((item) => ({ resultId: item.id, native: { currency, search_params: { seats: params.seats }, data: [item] } }));
  }

  /** check_flights, polled until checked: the offer as the provider sells it now, with that check kept beside it. */
  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const native = failures.parse(WireOffer, raw);
    const item = native.data[0] as WireOffer['data'][number];
    const seats = native.search_params.seats;
    const seconds = this.#settings.capabilities.pricing_timeout_seconds;
    const deadline = Date.now() + seconds * 1000;
    const searchParams: Record<string, string | number> = {
      booking_token: item.booking_token,
      bnum: 0,
      adults: seats.adults,
      children: seats.children,
      infants: seats.infants,
      currency: native.currency,
    };
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw failures.timedOut(seconds);
      const answer = await this.#call(
        () => this.#http.get('v2/booking/check_flights', { searchParams, timeout: { request: remaining } }).json(),
        seconds,
      );
      const check = failures.parse(WireCheckFlights, answer);
      if (check.flights_checked) {
        if (check.flights_invalid) throw failures.soldOut();
        const checked = { ...native, check_flights: check };
        return { offer: failures.map(() => toOffer(checked, this.#settings.clock.now())), providerOfferId: item.booking_token };
      }
      if (check.session_id) searchParams.session_id = check.session_id;
      await sleep(Math.min(POLL_INTERVAL_MS, Math.max(0, deadline - Date.now())));
    }
  }

  async #call(request: () => Promise<unknown>, seconds: number): Promise<unknown> {
    try {
      return await request();
    } catch (error) {
      throw translate(error, seconds);
    }
  }
}

function translate(error: unknown, seconds: number): Error {
  if (error instanceof TimeoutError) return failures.timedOut(seconds);
  if (error instanceof HTTPError) {
    const said = WireError.safeParse(error.response.body).data;
    if (error.response.statusCode === 400 && /expired booking token/i.test(said?.error ?? '')) {
      return new GoneError('This offer has expired (its booking token is over 30 minutes old): search again for a new one.', 'offer_expired');
    }
  }
  return failures.unavailable();
}

/** YYYY-MM-DD → dd/mm/YYYY, as provider_d takes dates. */
function dayMonthYear(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}
