/**
 * provider_d's sandbox bookings: the hold (save_booking), its payment (confirm_payment), and reading and
 * cancelling a booking, which no source shows (`GET /v2/booking/{id}` and `POST /v2/booking/{id}/cancel`
 * are invented, as providers.md §1 says). Bookings live in the sandbox order table, so any instance
 * answers for what another one booked.
 *
 * Invented too, for lack of a documented way: save_booking's `client_reference` (Kiwi documents no
 * client reference: a repeated save_booking with the same one answers the first booking), and
 * confirm_payment's `amount` and `currency` (the deposit account is charged exactly the agreed total, or
 * the payment is refused).
 */
import crypto from 'node:crypto';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { toMinorUnits } from '../../../core/money/money.js';
import { SandboxOrders, type FlightSandboxDeps, type SandboxOrder } from '../sandbox-orders.js';
import { answerSlowly } from '../sandbox-timing.js';
import { MAGIC_DESTINATIONS, SLOW_BOOKING_MS } from './catalogue.js';
import { segmentsOf } from './itineraries.js';
import { PROVIDER_ID } from './map.js';
import { bookingTotal, passengerProblem, readBaggage, refundOf, view, type BaggageInput, type NativeBooking, type PassengerInput } from './sandbox-booking-rules.js';
import { answerError, destinationOf, ownerOf, readToken, sessionOf, TOKEN_LIFETIME_MS, tokenExpired } from './sandbox-dialect.js';

/** How much a price change at booking moves the total. */
const PRICE_SHIFT = 1.08;

export function bookingRoutes(router: Router, { db, clock }: FlightSandboxDeps): void {
  const orders = new SandboxOrders<NativeBooking>(db, PROVIDER_ID, clock);
  const body = koaBody({ json: true, jsonLimit: '256kb', urlencoded: false, text: false, multipart: false });

  /** The caller's own booking, or undefined (another key's bookings do not exist for it). */
  const find = async (ctx: Context, id: string) => {
    const order = /^\d{1,12}$/.test(id) ? await orders.get(id) : undefined;
    return order && order.document.owner === ownerOf(ctx) ? order : undefined;
  };

  /** The booking as it stands now: a hold not paid within its 30 minutes has lapsed (and is cancelled). */
  const current = async (order: SandboxOrder<NativeBooking>): Promise<NativeBooking> => {
    const booking = order.document;
    if (booking.status !== 'CONFIRMATION_PENDING' || clock.now().getTime() <= Date.parse(booking.payment_deadline)) return booking;
    const lapsed: NativeBooking = { ...booking, status: 'CANCELLED', cancellation: { cancelled_at: booking.payment_deadline, reason: 'confirm payment timeout', refund: null } };
    const moved = await orders.transition(order.id, ['CONFIRMATION_PENDING'], { status: 'CANCELLED', document: lapsed });
    return moved?.document ?? (await orders.get(order.id))?.document ?? lapsed;
  };

  router.post('/v2/booking/save_booking', body, async (ctx) => {
    const request = (ctx.request.body ?? {}) as {
      booking_token?: string;
      session_id?: string;
      client_reference?: unknown;
      passengers?: PassengerInput[];
      baggage?: BaggageInput[];
    };
    if (request.client_reference !== undefined && (typeof request.client_reference !== 'string' || !/^[\w.:-]{1,100}$/.test(request.client_reference))) {
      return answerError(ctx, 400, 'client_reference: up to 100 letters, digits and . _ : -');
    }
    const owner = ownerOf(ctx);
    const reference = request.client_reference ? `${owner}:${request.client_reference}` : null;
    const earlier = reference ? await orders.byReference(reference) : undefined;
    if (earlier) return answerSaved(ctx, await current(earlier));

    const token = readToken(request.booking_token);
    if (!token) return answerError(ctx, 400, 'booking_token is not valid');
    if (tokenExpired(token, clock)) return answerError(ctx, 400, 'Expired booking token');
    if (request.session_id !== sessionOf(request.booking_token as string)) return answerError(ctx, 400, 'session_id is not the one check_flights gave');
    const passengers = Array.isArray(request.passengers) ? request.passengers : [];
    const expected = token.adults + token.children + token.infants;
    if (passengers.length !== expected) return answerError(ctx, 422, `passengers: ${expected} expected, as searched`);
    const firstFlight = (segmentsOf(token)[0]?.local_departure ?? '').slice(0, 10);
    const invalid = passengers.map((passenger, index) => passengerProblem(passenger, index, firstFlight)).find((problem) => problem !== null);
    if (invalid) return answerError(ctx, 422, invalid);
    const categories = passengers.map((passenger) => String(passenger.category));
    const searched = [...Array(token.adults).fill('adult'), ...Array(token.children).fill('child'), ...Array(token.infants).fill('infant')];
    if ([...categories].sort().join() !== [...searched].sort().join()) return answerError(ctx, 422, 'passengers: categories must be those searched');
    const baggage = readBaggage(Array.isArray(request.baggage) ? request.baggage : [], categories);
    if (typeof baggage === 'string') return answerError(ctx, 422, baggage);

    const magic = destinationOf(token);
    if (magic === MAGIC_DESTINATIONS.errorAtBooking) return answerError(ctx, 500, 'Internal server error');
    if (magic === MAGIC_DESTINATIONS.slowAtBooking) {
      // A caller that gave up has no booking: nothing is held for it.
      if (!(await answerSlowly(ctx, SLOW_BOOKING_MS))) return;
    }

    const now = clock.now();
    const quoted = bookingTotal(token, baggage);
    const priced = magic === MAGIC_DESTINATIONS.priceChangeAtBooking ? bookingTotal(token, baggage, PRICE_SHIFT) : quoted;
    const bookingId = crypto.randomInt(10_000_000, 100_000_000);
    const booking: NativeBooking = {
      booking_id: bookingId,
      transaction_id: crypto.randomUUID(),
      client_reference: typeof request.client_reference === 'string' ? request.client_reference : null,
      owner,
      status: 'CONFIRMATION_PENDING',
      pnr: null,
      total: priced.total,
      currency: 'EUR',
      conversion: priced.conversion,
      price_change: priced.total !== quoted.total,
      booked_at: now.toISOString(),
      payment_deadline: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
      confirmed_at: null,
      fare: { refundable: magic !== MAGIC_DESTINATIONS.nonRefundable, fare_basis: segmentsOf(token)[0]?.fare_basis ?? '' },
      passengers: passengers.map((passenger, index) => ({
        pk: index + 1,
        bid: bookingId,
        name: String(passenger.name),
        surname: String(passenger.surname),
        title: String(passenger.title),
        birthday: String(passenger.birthday),
        category: String(passenger.category),
        nationality: typeof passenger.nationality === 'string' ? passenger.nationality : null,
      })),
      baggage,
      cancellation: null,
    };
    const { order } = await orders.create({ id: String(bookingId), reference, status: booking.status, document: booking });
    answerSaved(ctx, order.document);
  });

  router.post('/v2/booking/confirm_payment', body, async (ctx) => {
    const request = (ctx.request.body ?? {}) as { booking_id?: unknown; transaction_id?: unknown; amount?: unknown; currency?: unknown };
    const order = await find(ctx, String(request.booking_id));
    if (!order || order.document.transaction_id !== request.transaction_id) return answerError(ctx, 404, 'booking not found');
    const booking = await current(order);
    if (booking.cancellation?.reason === 'confirm payment timeout') return refusePayment(ctx, 200, 'confirm payment timeout');
    if (booking.status === 'CANCELLED') return refusePayment(ctx, 409, 'booking is cancelled');
    const due = request.currency === 'EUR' ? booking.total : request.currency === booking.conversion.currency ? booking.conversion.amount : undefined;
    if (due === undefined) return refusePayment(ctx, 400, `currency must be EUR or ${booking.conversion.currency}`);
    const currency = request.currency as string;
    if (typeof request.amount !== 'number' || !Number.isFinite(request.amount) || toMinorUnits(request.amount, currency) !== toMinorUnits(due, currency)) {
      return refusePayment(ctx, 400, 'amount does not match the booking total');
    }
    if (booking.status === 'CONFIRMATION_PENDING') {
      const paid: NativeBooking = { ...booking, status: 'CONFIRMED', pnr: pnrOf(booking.booking_id), confirmed_at: clock.now().toISOString() };
      const moved = await orders.transition(order.id, ['CONFIRMATION_PENDING'], { status: 'CONFIRMED', document: paid });
      // Another request changed it first: a payment that won is this payment's answer too, a cancel is not.
      if (!moved && (await orders.get(order.id))?.status !== 'CONFIRMED') return refusePayment(ctx, 409, 'booking is cancelled');
    }
    ctx.body = { status: 0, msg: '' };
  });

  router.get('/v2/booking/:id', async (ctx) => {
    const order = await find(ctx, ctx.params.id as string);
    if (!order) return answerError(ctx, 404, 'booking not found');
    ctx.body = view(await current(order));
  });

  router.post('/v2/booking/:id/cancel', async (ctx) => {
    const order = await find(ctx, ctx.params.id as string);
    if (!order) return answerError(ctx, 404, 'booking not found');
    let booking = await current(order);
    // Twice at most: a payment racing this cancel changes what the cancel refunds.
    for (let attempt = 0; attempt < 2 && booking.status !== 'CANCELLED'; attempt++) {
      const cancelled: NativeBooking = { ...booking, status: 'CANCELLED', cancellation: { cancelled_at: clock.now().toISOString(), reason: 'cancelled', refund: refundOf(booking) } };
      const moved = await orders.transition(order.id, [booking.status], { status: 'CANCELLED', document: cancelled });
      booking = moved?.document ?? ((await orders.get(order.id)) as SandboxOrder<NativeBooking>).document;
    }
    if (!booking.cancellation) return answerError(ctx, 409, 'booking could not be cancelled');
    ctx.body = { booking_id: booking.booking_id, status: booking.status, ...booking.cancellation };
  });
}

/** save_booking's answer: the booking, with whether its total moved since check_flights. */
function answerSaved(ctx: Context, booking: NativeBooking): void {
  ctx.body = { ...view(booking), flights_invalid: false };
}

/** confirm_payment refuses as provider_d does: `{status: -1, msg}`. */
function refusePayment(ctx: Context, status: number, msg: string): void {
  ctx.status = status;
  ctx.body = { status: -1, msg };
}

function pnrOf(bookingId: number): string {
  return crypto.createHash('sha1').update(String(bookingId)).digest('hex').slice(0, 6).toUpperCase();
}
