/**
 * provider_e's bookings: booking a prebook (paid by the transaction the prebook opened, or from the
 * partner's credit line at the prebook's price), reading a booking, and cancelling it (invented: its
 * cancel is not documented). Booking a prebook already booked answers its booking, as LiteAPI documents.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { toMinorUnits } from '../../../core/money/money.js';
import { error, pnr, ticketNumber, token, utc } from './sandbox-dialect.js';
import type { CheckoutDeps } from './sandbox-prebooks.js';
import type { BookingDocument, CheckoutStore, PrebookDocument } from './sandbox-store.js';
import { bookingView, lapsed, refundOf } from './sandbox-views.js';
import { ERROR_CODES } from './wire.js';

type Payment = { method?: unknown; transactionId?: unknown; amount?: unknown; currency?: unknown };

export function bookingRoutes(router: Router, { store, clock, body }: CheckoutDeps): void {
  router.post('/v3.0/flights/bookings', body, async (ctx) => {
    const request = ctx.request.body as { prebookId?: unknown; payment?: Payment };
    const prebookId = typeof request.prebookId === 'string' ? request.prebookId : '';
    // Twice at most: a booking that lost a race to another reads the winner's booking.
    for (let attempt = 0; attempt < 2; attempt++) {
      const found = await store.prebook(prebookId);
      if (!found) return error(ctx, 404, ERROR_CODES.prebookNotFound, 'Prebook not found or expired');
      const prebook = found.document;
      if (prebook.status === 'BOOKED') return answerBooking(ctx, store, prebook.bookingId as string);
      if (prebook.status === 'CANCELLED' || lapsed(prebook, clock.now())) return error(ctx, 404, ERROR_CODES.prebookNotFound, 'Prebook not found or expired');
      const refused = paymentRefusal(request.payment, prebook);
      if (refused) return error(ctx, 400, refused.code, refused.message, [{ field: refused.field, message: refused.detail }]);
      const booking = bookingOf(prebook, request.payment as Payment, clock.now());
      if (await store.book(prebook, booking)) {
        ctx.body = { data: bookingView(booking) };
        return;
      }
    }
    error(ctx, 409, ERROR_CODES.prebookBooked, 'Prebook already booked');
  });

  router.get('/v3.0/flights/bookings/:bookingId', async (ctx) => {
    await answerBooking(ctx, store, ctx.params.bookingId as string);
  });

  router.delete('/v3.0/flights/bookings/:bookingId', async (ctx) => {
    const found = await store.booking(ctx.params.bookingId as string);
    if (!found) return error(ctx, 404, ERROR_CODES.bookingNotFound, 'Booking not found');
    let booking = found.document;
    if (booking.status === 'CONFIRMED') {
      const cancelled = { ...booking, status: 'CANCELLED' as const, cancelledAt: utc(clock.now()), refund: refundOf(booking) };
      // Of two cancels racing, the second answers the first's cancellation.
      booking = (await store.updateBooking(cancelled, ['CONFIRMED'])) ?? ((await store.booking(booking.bookingId))?.document as BookingDocument);
    }
    ctx.body = { data: bookingView(booking) };
  });
}

async function answerBooking(ctx: Context, store: CheckoutStore, bookingId: string): Promise<void> {
  const booking = await store.booking(bookingId);
  if (!booking) return error(ctx, 404, ERROR_CODES.bookingNotFound, 'Booking not found');
  ctx.body = { data: bookingView(booking.document) };
}

/**
 * TRANSACTION_ID pays with the prebook's latest transaction (attaching services opens a new one). CREDIT
 * bills the partner's credit line; the `amount` and `currency` it names (invented: the sandbox's check
 * that the partner is billed what it agreed) must be the prebook's price, services included.
 */
function paymentRefusal(payment: Payment | undefined, prebook: PrebookDocument): { code: number; field: string; message: string; detail: string } | undefined {
  const display = prebook.pricing.display;
  if (payment?.method === 'TRANSACTION_ID') {
    if (payment.transactionId === prebook.transactionId) return undefined;
    return { code: ERROR_CODES.validation, field: 'payment.transactionId', message: 'Validation failed', detail: "transactionId must be the prebook's latest transactionId" };
  }
  if (payment?.method !== 'CREDIT') {
    return { code: ERROR_CODES.validation, field: 'payment.method', message: 'Validation failed', detail: 'payment.method must be TRANSACTION_ID or CREDIT' };
  }
  const matches =
    typeof payment.amount === 'number' && Number.isFinite(payment.amount) && payment.currency === display.currency && toMinorUnits(payment.amount, display.currency) === toMinorUnits(display.total, display.currency);
  if (matches) return undefined;
  return { code: ERROR_CODES.amountMismatch, field: 'payment.amount', message: 'Payment amount does not match the prebook price', detail: `the prebook's price is ${display.total} ${display.currency}` };
}

function bookingOf(prebook: PrebookDocument, payment: Payment, now: Date): BookingDocument {
  const display = prebook.pricing.display;
  return {
    kind: 'booking',
    bookingId: token(10),
    bookingRef: pnr(),
    status: 'CONFIRMED',
    offerId: prebook.offerId,
    prebookId: prebook.prebookId,
    clientReference: prebook.clientReference,
    createdAt: utc(now),
    cancelledAt: null,
    pricing: { display },
    payment: { method: String(payment.method), amount: display.total, currency: display.currency },
    // Every passenger is ticketed at booking, infants too.
    passengers: prebook.passengers.map((passenger) => ({ ...passenger, ticketNumber: ticketNumber(prebook.offer.validatingCarrier.code) })),
    contact: prebook.contact,
    journeys: prebook.offer.journeys,
    services: prebook.selectedServices,
    fareRules: prebook.offer.fareRules,
    refund: null,
  };
}
