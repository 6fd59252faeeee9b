/**
 * provider_d's adapter (Kiwi-like OTA): search, check_flights as its pricing step (polled until the
 * provider says the flights are checked, all within its pricing timeout), and its booking: save_booking
 * (the hold), confirm_payment, and reading and cancelling a booking (orders.ts). Every answer is parsed
 * with its native schema, every failure turned into a domain error in our words. It sells no seats, so
 * it has no seat maps.
 */
import type { FlightProvider, FlightSearcher, OrderCancellation, OrderPayment, OrderRequest, ProviderOrder, SearchHit } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { FlightSearchRequest } from '../../../core/flights/search-schemas.js';
import { HttpClient } from '../../http-client.js';
import type { ProviderSettings } from '../adapter-kit.js';
import { call, checkFlights, Deadline, failures } from './calls.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { ProviderDOrders } from './orders.js';
import { WireOffer, WireSearchAnswer } from './wire.js';

const CABINS = { economy: 'M', premium_economy: 'W', business: 'C', first: 'F' } as const;

export class ProviderDAdapter implements FlightProvider, FlightSearcher {
  readonly providerId = PROVIDER_ID;
  readonly #http: HttpClient;
  readonly #settings: ProviderSettings;
  readonly #orders: ProviderDOrders;

  /** `settings.token`: its API key (sent as `apikey`). */
  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    // Each call's deadline is what is left of its step's (Deadline); the client's own is only a fallback.
    this.#http = new HttpClient({
      baseUrl: settings.baseUrl,
      headers: { accept: 'application/json', apikey: settings.token },
      timeoutMs: settings.capabilities.booking_timeout_seconds * 1000,
    });
    this.#orders = new ProviderDOrders(this.#http, settings.capabilities);
  }

  async search(request: FlightSearchRequest): Promise<SearchHit[]> {
    const query: Record<string, string> = {
      fly_from: request.origin,
      fly_to: request.destination,
      date_from: dayMonthYear(request.departure_date),
      date_to: dayMonthYear(request.departure_date),
      adults: String(request.passengers.adults),
      children: String(request.passengers.children),
      infants: String(request.passengers.infants),
      curr: request.currency,
      selected_cabins: CABINS[request.cabin_class],
      limit: String(request.max_results),
      ...(request.return_date ? { return_from: dayMonthYear(request.return_date), return_to: dayMonthYear(request.return_date) } : {}),
    };
    const deadline = new Deadline(this.#settings.capabilities.search_timeout_seconds);
    const answer = await call(() => this.#http.json({ method: 'GET', path: 'v2/search', query, timeoutMs: deadline.remaining() }), deadline);
    const { currency, search_params: params, data } = failures.parse(WireSearchAnswer, answer);
    // Each result whole, as its normalizer takes it: the item with the answer's currency and passengers.
    return data.map((item) => ({ resultId: item.id, native: { currency, search_params: { seats: params.seats }, data: [item] } }));
  }

  /** check_flights, polled until checked: the offer as the provider sells it now, with that check kept beside it. */
  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const native = failures.parse(WireOffer, raw);
    const item = native.data[0] as WireOffer['data'][number];
    // A fresh check, not the session of an earlier one: pricing is asking again.
    const check = await checkFlights(this.#http, { ...native, check_flights: undefined }, new Deadline(this.#settings.capabilities.pricing_timeout_seconds));
    if (check.flights_invalid) throw failures.soldOut();
    const checked = { ...native, check_flights: check };
    return { offer: failures.map(() => toOffer(checked, this.#settings.clock.now())), providerOfferId: item.booking_token };
  }

  createOrder(request: OrderRequest): Promise<ProviderOrder> {
    return this.#orders.create(request);
  }

  payOrder(payment: OrderPayment): Promise<ProviderOrder> {
    return this.#orders.pay(payment);
  }

  retrieveOrder(orderId: string): Promise<ProviderOrder> {
    return this.#orders.retrieve(orderId);
  }

  cancelOrder(orderId: string): Promise<OrderCancellation> {
    return this.#orders.cancel(orderId);
  }
}

/** YYYY-MM-DD → dd/mm/YYYY, as provider_d takes dates. */
function dayMonthYear(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}
