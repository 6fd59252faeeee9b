/**
 * provider_a's adapter: its system over HTTP (providers/http-client.ts), with the timeouts of its
 * capabilities, every answer parsed with its native schema, every failure turned into a domain error in
 * our words. Pricing is the step this provider requires before booking. Passenger details go with its
 * order, not before.
 *
 * Its orders: createOrder is `POST /v1/booking/flight-orders` (our reference as `Ama-Client-Ref`; an
 * instant order is paid from the partner's balance and ticketed in that call, a hold is DELAY_TO_CANCEL);
 * payOrder is the held order's issuance; retrieveOrder a GET; cancelOrder a DELETE (204), then a GET for
 * what the cancel refunded.
 */
import type { z } from 'zod';
import type { FlightProvider, OrderCancellation, OrderPayment, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import { HttpClient, HttpStatusError, HttpTimeoutError, type HttpCall } from '../../http-client.js';
import { providerFailures, type ProviderSettings } from '../adapter-kit.js';
import { offerIdOf, PROVIDER_ID, toPricedOffer } from './map.js';
import { orderFailure, type OrderCall } from './order-failures.js';
import { toCancellation, toProviderOrder } from './order-mapping.js';
import { formOfPayments, notOnSale, orderBody } from './order-request.js';
import { toSeatMap } from './seat-map.js';
import { WireErrors, WireOrder, WirePricing, WireSeatMaps } from './wire.js';

const SOLD_OUT = 34651;
/** INVALID DATA RECEIVED: at pricing, the offer is stale (it carries no expiry of its own). */
const STALE_OFFER = 4926;
const SERVICES_NOT_AVAILABLE = 38034;

const failures = providerFailures(PROVIDER_ID);

export class ProviderAAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  /** Its orders match travelers by `travelerPricings.travelerId`; details go with the order (kept till then). */
  readonly requiresPassengerId = true;
  /** Its client within the pricing timeout (pricing, seat maps), and within the booking one (orders). */
  readonly #http: HttpClient;
  readonly #orders: HttpClient;
  readonly #settings: ProviderSettings;

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    const headers = { authorization: `Bearer ${settings.token}`, accept: 'application/json' };
    this.#http = new HttpClient({ baseUrl: settings.baseUrl, headers, timeoutMs: settings.capabilities.pricing_timeout_seconds * 1000 });
    this.#orders = new HttpClient({ baseUrl: settings.baseUrl, headers, timeoutMs: settings.capabilities.booking_timeout_seconds * 1000 });
  }

  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const pricing = await this.#post('v1/shopping/flight-offers/pricing', WirePricing, {
      query: { include: 'bags,detailed-fare-rules' },
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

  async createOrder(request: OrderRequest): Promise<ProviderOrder> {
    const body = orderBody(request);
    const answer = await this.#order({ method: 'POST', path: 'v1/booking/flight-orders', json: body, headers: { 'ama-client-ref': request.reference } }, { orderId: null, agreed: { amount: request.amount, currency: request.currency } });
    return failures.map(() => toProviderOrder(answer));
  }

  /** Its held order paid from the partner's balance and ticketed (the sandbox's issuance call). */
  async payOrder(payment: OrderPayment): Promise<ProviderOrder> {
    const path = `v1/booking/flight-orders/${encodeURIComponent(payment.orderId)}/issuance`;
    const json = { data: { formOfPayments: formOfPayments(payment.amount, payment.currency) } };
    const answer = await this.#order({ method: 'POST', path, json }, { orderId: payment.orderId, agreed: { amount: payment.amount, currency: payment.currency } });
    return failures.map(() => toProviderOrder(answer));
  }

  async retrieveOrder(orderId: string): Promise<ProviderOrder> {
    const answer = await this.#read(orderId);
    return failures.map(() => toProviderOrder(answer));
  }

  async cancelOrder(orderId: string): Promise<OrderCancellation> {
    await this.#call({ method: 'DELETE', path: `v1/booking/flight-orders/${encodeURIComponent(orderId)}` }, { orderId });
    // Its DELETE answers 204 without a body: what was refunded is read from the order after.
    const answer = await this.#read(orderId);
    const cancellation = failures.map(() => toCancellation(answer));
    if (!cancellation) throw failures.unavailable();
    return cancellation;
  }

  #read(orderId: string): Promise<WireOrder> {
    return this.#order({ method: 'GET', path: `v1/booking/flight-orders/${encodeURIComponent(orderId)}` }, { orderId });
  }

  /** An order call answered with the order, checked as its flight order. */
  async #order(request: HttpCall, call: Omit<OrderCall, 'seconds'>): Promise<WireOrder> {
    return failures.parse(WireOrder, await this.#call(request, call));
  }

  /** An order call within the booking timeout, its failure in our words; `call` says what it was about. */
  async #call(request: HttpCall, call: Omit<OrderCall, 'seconds'>): Promise<unknown> {
    const seconds = this.#settings.capabilities.booking_timeout_seconds;
    try {
      return await this.#orders.json(request);
    } catch (error) {
      throw orderFailure(error, { ...call, seconds });
    }
  }

  /** A POST within the capability timeout, its failure in our words, its answer checked with `schema`. */
  async #post<S extends z.ZodType>(path: string, schema: S, options: { json: unknown; query?: Record<string, string>; headers?: Record<string, string> }) {
    let answer: unknown;
    try {
      answer = await this.#http.json({ method: 'POST', path, ...options });
    } catch (error) {
      throw translate(error, this.#settings.capabilities.pricing_timeout_seconds);
    }
    return failures.parse(schema, answer);
  }
}

function translate(error: unknown, seconds: number): Error {
  if (error instanceof HttpTimeoutError) return failures.timedOut(seconds);
  if (error instanceof HttpStatusError) {
    const codes = WireErrors.safeParse(error.body).data?.errors.map((item) => item.code) ?? [];
    if (codes.includes(STALE_OFFER)) return failures.expired();
    if (codes.includes(SOLD_OUT)) return failures.soldOut();
    // A seat or bag already chosen on the offer's fare details that the airline does not sell.
    if (codes.includes(SERVICES_NOT_AVAILABLE)) return notOnSale();
  }
  return failures.unavailable();
}
