/**
 * provider_b's adapter: its system over HTTP (providers/http-client.ts), with the timeouts of its
 * capabilities, every answer parsed with its native schema, every failure turned into a domain error in
 * our words.
 */
import { z } from 'zod';
import { NotFoundError, PriceChangedError, ProviderRejectedError, ValidationError } from '../../../core/errors.js';
import type { FlightProvider, OrderCancellation, OrderPayment, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import type { NormalizedOffer } from '../../../core/flights/offer-normalizer.js';
import { toMinorUnits } from '../../../core/money/money.js';
import type { OfferPassengerDetails, PassengerUpdateRequest, SeatMap } from '../../../core/flights/offer-schemas.js';
import { HttpClient, HttpStatusError, HttpTimeoutError } from '../../http-client.js';
import { providerFailures, type ProviderSettings } from '../adapter-kit.js';
import { PROVIDER_ID, toOffer, typeFromAge } from './map.js';
import { orderBody, repriced, seatServicesFor, toCancellation, toProviderOrder } from './order-map.js';
import { toSeatMap } from './seat-map.js';
import { WireCancellation, WireErrors, WireOffer, WireOfferPassenger, WireOrder, WirePayment, WireSeatMap } from './wire.js';

const OfferAnswer = z.object({ data: WireOffer });
const SeatMapsAnswer = z.object({ data: z.array(WireSeatMap) });
const PassengerAnswer = z.object({ data: WireOfferPassenger });
const OrderAnswer = z.object({ data: WireOrder });
const CancellationAnswer = z.object({ data: WireCancellation });
const PaymentAnswer = z.object({ data: WirePayment });

/** The codes provider_b refuses a passenger's details with. */
const PASSENGER_CODES = ['invalid_passenger', 'invalid_born_on', 'invalid_phone_number', 'invalid_identity_document', 'validation_required'];

const failures = providerFailures(PROVIDER_ID);

/**
 * How long the seat maps read for a booking's checks stand in for the order's own read: the order follows
 * within seconds, and a seat sold meanwhile is refused by the order itself (service_not_available).
 */
const SEAT_MAPS_KEPT_MS = 60_000;
const SEAT_MAPS_KEPT_MAX = 100;

export class ProviderBAdapter implements FlightProvider {
  readonly providerId = PROVIDER_ID;
  /** Its client within the pricing timeout (offers, seat maps, passengers), and within the booking one (orders). */
  readonly #http: HttpClient;
  readonly #orders: HttpClient;
  readonly #settings: ProviderSettings;
  /** The last seat maps read of each offer (by its id at provider_b), for the order that follows. */
  readonly #recentSeatMaps = new Map<string, { seatMaps: WireSeatMap[]; at: number }>();

  constructor(settings: ProviderSettings) {
    this.#settings = settings;
    const headers = { authorization: `Bearer ${settings.token}`, 'duffel-version': 'v2', accept: 'application/json' };
    this.#http = new HttpClient({ baseUrl: settings.baseUrl, headers, timeoutMs: settings.capabilities.pricing_timeout_seconds * 1000 });
    this.#orders = new HttpClient({ baseUrl: settings.baseUrl, headers, timeoutMs: settings.capabilities.booking_timeout_seconds * 1000 });
  }

  async price(raw: Record<string, unknown>): Promise<NormalizedOffer> {
    const id = encodeURIComponent(String(raw.id));
    const answer = await this.#call(raw, () =>
      this.#http.json({ method: 'POST', path: `air/offers/${id}/actions/price`, json: { data: {} } }),
    );
    const { data } = failures.parse(OfferAnswer, answer);
    return { offer: failures.map(() => toOffer(data)), providerOfferId: data.id };
  }

  async seatMaps(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]> {
    return (await this.#nativeSeatMaps(raw)).map((seatMap) => toSeatMap(seatMap, offerId));
  }

  async #nativeSeatMaps(raw: Record<string, unknown>): Promise<WireSeatMap[]> {
    const answer = await this.#call(raw, () =>
      this.#http.json({ method: 'GET', path: 'air/seat_maps', query: { offer_id: String(raw.id) } }),
    );
    const seatMaps = failures.parse(SeatMapsAnswer, answer).data;
    this.#keepSeatMaps(String(raw.id), seatMaps);
    return seatMaps;
  }

  #keepSeatMaps(offerId: string, seatMaps: WireSeatMap[]): void {
    const now = this.#settings.clock.now().getTime();
    this.#recentSeatMaps.delete(offerId);
    for (const [id, kept] of this.#recentSeatMaps) {
      if (kept.at > now - SEAT_MAPS_KEPT_MS && this.#recentSeatMaps.size < SEAT_MAPS_KEPT_MAX) break;
      this.#recentSeatMaps.delete(id);
    }
    this.#recentSeatMaps.set(offerId, { seatMaps, at: now });
  }

  /**
   * The seat maps an order's seats are found in: those the booking's checks just read (issue 25: the
   * seat maps were read twice a booking), else read now (a recovery, another instance).
   */
  async #seatMapsForOrder(raw: Record<string, unknown>): Promise<WireSeatMap[]> {
    const offerId = String(raw.id);
    const kept = this.#recentSeatMaps.get(offerId);
    this.#recentSeatMaps.delete(offerId);
    if (kept && kept.at > this.#settings.clock.now().getTime() - SEAT_MAPS_KEPT_MS) return kept.seatMaps;
    return this.#nativeSeatMaps(raw);
  }

  /**
   * `POST /air/orders`, seats as the `ase_` services of the seat maps. A hold the airline placed at a
   * total other than the agreed one is a price change that can be paid at the new total.
   */
  async createOrder(request: OrderRequest): Promise<ProviderOrder> {
    let seatIds: string[] = [];
    if (request.seats.length > 0) {
      const found = seatServicesFor(request.seats, await this.#seatMapsForOrder(request.raw));
      if ('missing' in found) throw serviceUnavailable(`seat ${found.missing}`);
      seatIds = found.ids;
    }
    let answer: unknown;
    try {
      answer = await this.#orders.json({ method: 'POST', path: 'air/orders', json: orderBody(request, seatIds) });
    } catch (error) {
      if (codesOf(error).includes('price_changed')) throw await this.#priceChangedAtOrder(request);
      throw this.#orderFailure(error, request.raw);
    }
    const order = this.#order(answer);
    if (order.status === 'held' && toMinorUnits(order.amount, order.currency) !== toMinorUnits(request.amount, request.currency)) {
      throw new PriceChangedError({ orderId: order.orderId, previousTotalAmount: request.amount, newTotalAmount: order.amount, currency: order.currency });
    }
    return order;
  }

  /** `POST /air/payments` from the balance, then the order as paid. */
  async payOrder(payment: OrderPayment): Promise<ProviderOrder> {
    const json = { data: { order_id: payment.orderId, payment: { type: 'balance', amount: payment.amount, currency: payment.currency } } };
    try {
      failures.parse(PaymentAnswer, await this.#orders.json({ method: 'POST', path: 'air/payments', json }));
    } catch (error) {
      const codes = codesOf(error);
      // Paid already (a step repeated after a crash): the order as it is answers.
      if (codes.includes('already_paid')) return this.retrieveOrder(payment.orderId);
      if (codes.includes('price_changed')) {
        const order = await this.retrieveOrder(payment.orderId);
        throw new PriceChangedError({ orderId: order.orderId, previousTotalAmount: payment.amount, newTotalAmount: order.amount, currency: order.currency });
      }
      throw this.#orderFailure(error, undefined);
    }
    return this.retrieveOrder(payment.orderId);
  }

  async retrieveOrder(orderId: string): Promise<ProviderOrder> {
    const answer = await this.#orderCall(() => this.#orders.json({ method: 'GET', path: `air/orders/${encodeURIComponent(orderId)}` }));
    return this.#order(answer);
  }

  /** Two steps: `POST /air/order_cancellations` quotes the refund, its `actions/confirm` cancels. */
  async cancelOrder(orderId: string): Promise<OrderCancellation> {
    const quoted = await this.#orderCall(() => this.#orders.json({ method: 'POST', path: 'air/order_cancellations', json: { data: { order_id: orderId } } }));
    let cancellation = failures.parse(CancellationAnswer, quoted).data;
    if (!cancellation.confirmed_at) {
      const path = `air/order_cancellations/${encodeURIComponent(cancellation.id)}/actions/confirm`;
      cancellation = failures.parse(CancellationAnswer, await this.#orderCall(() => this.#orders.json({ method: 'POST', path }))).data;
    }
    if (!cancellation.confirmed_at) throw failures.unavailable();
    const confirmed = cancellation;
    return failures.map(() => toCancellation(confirmed));
  }

  #order(answer: unknown): ProviderOrder {
    const { data } = failures.parse(OrderAnswer, answer);
    return failures.map(() => toProviderOrder(data));
  }

  /** The instant order was refused at the old total: the offer priced again says the new one. */
  async #priceChangedAtOrder(request: OrderRequest): Promise<PriceChangedError> {
    const { offer } = await this.price(request.raw);
    const newTotalAmount = failures.map(() => repriced(request.amount, request.offer.total_amount, offer.total_amount, request.currency));
    return new PriceChangedError({ orderId: null, previousTotalAmount: request.amount, newTotalAmount, currency: request.currency });
  }

  async #orderCall(request: () => Promise<unknown>): Promise<unknown> {
    try {
      return await request();
    } catch (error) {
      throw this.#orderFailure(error, undefined);
    }
  }

  /** An order step's failure; `raw` is the offer when the step is the order's creation. */
  #orderFailure(error: unknown, raw: Record<string, unknown> | undefined): Error {
    const seconds = this.#settings.capabilities.booking_timeout_seconds;
    if (error instanceof HttpTimeoutError) return failures.timedOut(seconds);
    if (!(error instanceof HttpStatusError)) return failures.unavailable();
    const codes = codesOf(error);
    if (raw && (codes.includes('offer_no_longer_available') || codes.includes('invalid_passenger_name'))) return this.#translate(error, raw);
    if (codes.some((code) => PASSENGER_CODES.includes(code))) {
      return failures.invalidPassenger(
        "The airline refused a passenger's details: check each passenger's title, gender, date of birth (in the past), email, phone number (E.164, such as +442080160508) and identity documents (not expired).",
        'passenger details refused',
      );
    }
    if (codes.includes('service_not_available')) return serviceUnavailable('extra');
    if (codes.includes('invalid_payment_amount')) {
      return new ProviderRejectedError(
        "The airline's total for this offer and its extras is not the amount given: price the offer again and book at its total.",
        'payment_amount_mismatch',
        `${PROVIDER_ID}: payment amount refused`,
      );
    }
    if (codes.includes('instant_payment_required')) {
      return new ProviderRejectedError('The airline does not hold this offer: book it as an instant order.', 'hold_not_available', `${PROVIDER_ID}: instant payment required`);
    }
    if (codes.includes('order_cancelled')) {
      return new ProviderRejectedError(
        'The order is cancelled at the airline (an unpaid hold lapses at its payment deadline), so it cannot be paid: book again.',
        'order_cancelled',
        `${PROVIDER_ID}: order cancelled`,
      );
    }
    if (error.status === 404 && !raw) return new NotFoundError(`${PROVIDER_ID} has no such order.`, 'provider_order_not_found');
    return failures.unavailable();
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
    const answer = await this.#call(raw, () => this.#http.json({ method: 'PATCH', path, json: { data } }));
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

  async #call(raw: Record<string, unknown>, request: () => Promise<unknown>): Promise<unknown> {
    try {
      return await request();
    } catch (error) {
      throw this.#translate(error, raw);
    }
  }

  #translate(error: unknown, raw: Record<string, unknown>): Error {
    if (error instanceof HttpTimeoutError) return failures.timedOut(this.#settings.capabilities.pricing_timeout_seconds);
    if (error instanceof HttpStatusError) {
      const codes = WireErrors.safeParse(error.body).data?.errors.map((item) => item.code) ?? [];
      if (codes.includes('invalid_passenger_name')) {
        return failures.invalidPassenger(
          "The airline refused the passenger's name: use letters, spaces, hyphens and apostrophes only, as printed in the passport.",
          'invalid passenger name',
        );
      }
      if (codes.includes('offer_no_longer_available') || error.status === 404) {
        // One code for both: the offer's own expiry tells them apart.
        const expired = typeof raw.expires_at === 'string' && new Date(raw.expires_at) <= this.#settings.clock.now();
        return expired ? failures.expired() : failures.soldOut();
      }
    }
    return failures.unavailable();
  }
}

function codesOf(error: unknown): string[] {
  if (!(error instanceof HttpStatusError)) return [];
  return WireErrors.safeParse(error.body).data?.errors.flatMap((item) => (item.code ? [item.code] : [])) ?? [];
}

const serviceUnavailable = (what: string) =>
  new ProviderRejectedError(
    'A seat or extra you chose is no longer for sale to that passenger: choose again from the seat maps and the offer\'s services.',
    'service_not_available',
    `${PROVIDER_ID}: ${what} not available`,
  );
