/**
 * provider_d's order steps. createOrder checks the flights again (check_flights, polled until checked),
 * then holds them with save_booking: the hold is what it makes, and confirm_payment pays it within 30
 * minutes. A total that moved (at the check or at the hold) is said with both totals, and with the
 * booking id where the hold exists at the new total. Reading and cancelling a booking use endpoints no
 * source shows (invented, providers.md §1). Each step has the booking timeout, however many calls it makes.
 */
import { ConflictError, GoneError, NotFoundError, PriceChangedError } from '../../../core/errors.js';
import type { OrderCancellation, OrderPayment, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import type { ProviderCapabilities } from '../../../core/flights/schemas.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import type { HttpClient, HttpStatusError } from '../../http-client.js';
import { call, checkFlights, Deadline, failures } from './calls.js';
import { toCancellation, toProviderOrder } from './order-map.js';
import { saveBookingBody } from './order-request.js';
import { WireBooking, WireCancellation, WireConfirmPayment, WireError, WireOffer, type WireCheckFlights } from './wire.js';

/** The passenger fields save_booking names in its refusals, in our words. */
const PASSENGER_FIELDS: Record<string, string> = {
  name: 'first name (letters only)',
  surname: 'last name',
  title: 'title (Mr or Ms; or a gender)',
  birthday: 'date of birth',
  category: 'passenger type',
  nationality: "identity document's issuing country",
  cardno: 'identity document number',
  expiration: "identity document's expiry date (it must be valid beyond the first flight)",
  email: 'e-mail address',
  phone: 'phone number',
};

export class ProviderDOrders {
  constructor(
    private readonly http: HttpClient,
    private readonly capabilities: ProviderCapabilities,
  ) {}

  async create(request: OrderRequest): Promise<ProviderOrder> {
    const native = failures.parse(WireOffer, request.raw);
    const deadline = this.#deadline();
    const check = await checkFlights(this.http, native, deadline);
    if (check.flights_invalid) throw failures.soldOut();
    const checked = checkedTotal(check, request.currency);
    if (checked !== request.offer.total_amount) {
      // No hold exists yet: the offer must be priced again, at the total the check says.
      const currency = request.currency;
      const moved = fromMinorUnits(toMinorUnits(request.amount, currency) - toMinorUnits(request.offer.total_amount, currency) + toMinorUnits(checked, currency), currency);
      throw new PriceChangedError({ orderId: null, previousTotalAmount: request.amount, newTotalAmount: moved, currency });
    }
    if (!check.session_id) throw failures.unavailable();
    const body = saveBookingBody(request, native, { ...check, session_id: check.session_id });
    const answer = await call(
      () => this.http.json({ method: 'POST', path: 'v2/booking/save_booking', json: body, timeoutMs: deadline.remaining() }),
      deadline,
      refuseSave,
    );
    const booking = failures.parse(WireBooking, answer);
    if (booking.flights_invalid) throw failures.soldOut();
    const order = failures.map(() => toProviderOrder(booking));
    if (order.currency !== request.currency) throw failures.unavailable();
    if (order.amount !== request.amount) {
      // The hold exists at the new total: it can be paid at that total (payOrder with the new amount).
      throw new PriceChangedError({ orderId: order.orderId, previousTotalAmount: request.amount, newTotalAmount: order.amount, currency: order.currency });
    }
    return order;
  }

  async pay(payment: OrderPayment): Promise<ProviderOrder> {
    const deadline = this.#deadline();
    const booking = await this.#read(payment.orderId, deadline);
    const order = failures.map(() => toProviderOrder(booking));
    if (order.status === 'confirmed') return order;
    if (order.status === 'cancelled') throw lapsedOrCancelled(booking);
    if (order.currency !== payment.currency || order.amount !== payment.amount) {
      throw new PriceChangedError({ orderId: order.orderId, previousTotalAmount: payment.amount, newTotalAmount: order.amount, currency: order.currency });
    }
    // Its answer whatever the status (send, not json): beyond a 404 or a 5xx, the body says whether it paid.
    const response = await call(
      () =>
        this.http.send({
          method: 'POST',
          path: 'v2/booking/confirm_payment',
          json: { booking_id: booking.booking_id, transaction_id: booking.transaction_id, amount: Number(payment.amount), currency: payment.currency },
          timeoutMs: deadline.remaining(),
        }),
      deadline,
    );
    if (response.status === 404) throw notFound();
    if (response.status >= 500) throw failures.unavailable();
    const confirmed = failures.parse(WireConfirmPayment, response.body);
    const now = await this.#read(payment.orderId, deadline);
    if (confirmed.status === 0) return failures.map(() => toProviderOrder(now));
    // Refused: the booking as it is now says why (lapsed, cancelled, or its total moved meanwhile).
    if (now.status === 'CANCELLED') throw lapsedOrCancelled(now);
    const current = failures.map(() => toProviderOrder(now));
    if (current.amount !== payment.amount) {
      throw new PriceChangedError({ orderId: current.orderId, previousTotalAmount: payment.amount, newTotalAmount: current.amount, currency: current.currency });
    }
    throw failures.unavailable();
  }

  async retrieve(orderId: string): Promise<ProviderOrder> {
    const booking = await this.#read(orderId, this.#deadline());
    return failures.map(() => toProviderOrder(booking));
  }

  async cancel(orderId: string): Promise<OrderCancellation> {
    const deadline = this.#deadline();
    const answer = await call(
      () => this.http.json({ method: 'POST', path: `v2/booking/${encodeURIComponent(orderId)}/cancel`, timeoutMs: deadline.remaining() }),
      deadline,
      (error) => (error.status === 404 ? notFound() : undefined),
    );
    return failures.map(() => toCancellation(failures.parse(WireCancellation, answer)));
  }

  async #read(orderId: string, deadline: Deadline): Promise<WireBooking> {
    const answer = await call(
      () => this.http.json({ method: 'GET', path: `v2/booking/${encodeURIComponent(orderId)}`, timeoutMs: deadline.remaining() }),
      deadline,
      (error) => (error.status === 404 ? notFound() : undefined),
    );
    return failures.parse(WireBooking, answer);
  }

  #deadline(): Deadline {
    return new Deadline(this.capabilities.booking_timeout_seconds);
  }
}

/** The check's total in the offer's currency: its conversion, or its own total when that is EUR. */
function checkedTotal(check: WireCheckFlights, currency: string): string {
  const amount = check.conversion?.currency === currency ? check.conversion.amount : currency === 'EUR' ? check.total : undefined;
  if (amount === undefined) throw failures.unavailable();
  return failures.map(() => toDecimalString(amount, currency, 'check_flights.conversion.amount'));
}

/** What save_booking's refusals mean: a passenger it refused is the caller's to fix, in our words. */
function refuseSave(error: HttpStatusError): Error | undefined {
  if (error.status !== 422) return undefined;
  const said = WireError.safeParse(error.body).data?.error ?? '';
  const field = /^passengers\[(\d+)\]\.(\w+)/.exec(said);
  if (field) {
    const [, index, name] = field as unknown as [string, string, string];
    const what = PASSENGER_FIELDS[name] ?? 'details';
    return failures.invalidPassenger(
      `The airline refused the ${what} of passenger ${Number(index) + 1}: correct it and book again.`,
      `passenger ${Number(index) + 1}: ${what}`,
    );
  }
  if (said.startsWith('passengers')) {
    return failures.invalidPassenger('The airline needs every passenger of the offer, of the types searched: book with all of them.', 'passengers do not match the offer');
  }
  return undefined;
}

function lapsedOrCancelled(booking: WireBooking): Error {
  if (booking.cancellation?.reason === 'confirm payment timeout') {
    return new GoneError('This hold was not paid within its 30 minutes and has lapsed at the airline: search again and book anew.', 'order_expired');
  }
  return new ConflictError('This order has been cancelled at the airline: it can no longer be paid.', 'order_cancelled');
}

function notFound(): NotFoundError {
  return new NotFoundError('provider_d has no such order: check the order id.', 'provider_order_not_found');
}
