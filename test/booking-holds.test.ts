/**
 * Holds and cancellation over REST (decisions §4 and §9). `order_type: hold` stops at booking_created with
 * the authorization held until `payment_required_by`; confirming captures it and pays the provider; an
 * unpaid hold cancelled, or swept once its deadline passed, voids the authorization and cancels the order.
 * A confirmed booking cancelled is refunded what the provider grants (nothing for a non-refundable fare).
 *
 * Serial: the sweep runs on a second instance of the service whose clock is days ahead, over the same
 * database, and would sweep the holds of any test running beside it.
 */
import test, { type ExecutionContext } from 'ava';
import { toMinorUnits } from '../core/money/money.js';
import { intentsOf, orderOf, orderStatus, refundsOf } from './helpers/booking-records.js';
import { BOOKING_CASES, book, booker, prepareBooking, type Booker } from './helpers/bookings.js';
import { asPartner } from './helpers/cards.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let database: TestDatabase;
let running: RunningService;
let ada: Booker;

test.before(async () => {
  database = await createTestDatabase();
  running = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
});
test.after.always(async () => {
  await running?.close();
  await database?.drop();
});

const HOLDERS = ['provider_b', 'provider_c'];

/** Places a hold and checks what it leaves: booking_created, the authorization held, the provider's order held. */
async function placeHold(t: ExecutionContext, providerId: string): Promise<{ booking: Json; amountMinor: bigint }> {
  const { body, order } = await prepareBooking(running, ada, providerId, 'nonRefundable', { type: 'hold' });
  const created = await book(running, ada, providerId, body);
  const answer = await jsonOf(created);
  t.is(created.status, 201, JSON.stringify(answer));
  const booking = answer.booking;
  t.like(booking, { status: 'booking_created', order_type: 'hold', total_amount: Number(order.amount) });
  t.true(Date.parse(booking.payment_required_by) > Date.now(), 'the hold says until when it can be paid');
  const amountMinor = toMinorUnits(order.amount, order.currency);
  const [intent, ...others] = await intentsOf(running, booking.id);
  t.is(others.length, 0);
  t.like(intent, { id: booking.payment_intent_id, status: 'requires_capture', amount_received: 0 });
  t.is(BigInt(intent?.amount_capturable ?? 0), amountMinor, 'the total is authorized and held');
  t.is(orderStatus(await orderOf(running, providerId, booking.id)), 'held');
  return { booking, amountMinor };
}

/** The voided hold: booking cancelled, authorization released, the provider's order cancelled, no trip that is not cancelled. */
async function assertReleased(t: ExecutionContext, providerId: string, booking: Json): Promise<void> {
  const row = await running.service.db.knex('bookings').where({ id: booking.id }).first();
  t.is(row.status, 'cancelled');
  t.deepEqual(
    (await intentsOf(running, booking.id)).map((intent) => intent.status),
    ['canceled'],
    'the authorization was voided',
  );
  t.regex(orderStatus(await orderOf(running, providerId, booking.id)) ?? '', /cancel/, 'the provider’s order is cancelled');
  const trips = await jsonOf(await asPartner(running, ada, '/v1/users/me/bookings?status=cancelled&limit=100'));
  t.true(trips.some((trip: Json) => trip.id === booking.id));
}

for (const providerId of HOLDERS) {
  test.serial(`${providerId}: a hold is held with its authorization, then confirmed: captured and paid at the provider`, async (t) => {
    const { booking, amountMinor } = await placeHold(t, providerId);
    const path = `/v1/flights/providers/${providerId}/bookings/${booking.id}/confirm`;
    const confirmed = await asPartner(running, ada, path, { method: 'POST' });
    const answer = await jsonOf(confirmed);
    t.is(confirmed.status, 200, JSON.stringify(answer));
    t.like(answer.booking, { id: booking.id, status: 'confirmed', payment_required_by: null, payment_intent_id: booking.payment_intent_id });
    const [intent] = await intentsOf(running, booking.id);
    t.is(intent?.status, 'succeeded');
    t.is(BigInt(intent?.amount_received ?? 0), amountMinor, 'the held authorization was captured in full');
    t.notRegex(orderStatus(await orderOf(running, providerId, booking.id)) ?? '', /held|cancel/, 'the provider’s order is paid');

    const again = await asPartner(running, ada, path, { method: 'POST' });
    t.is(again.status, 200);
    t.is((await jsonOf(again)).booking.status, 'confirmed', 'confirming again answers the confirmed booking');
    t.is((await intentsOf(running, booking.id)).length, 1);
  });

  test.serial(`${providerId}: an unpaid hold cancelled with DELETE voids its authorization and cancels the order`, async (t) => {
    const { booking } = await placeHold(t, providerId);
    const cancelled = await asPartner(running, ada, `/v1/flights/providers/${providerId}/bookings/${booking.id}`, { method: 'DELETE', body: { reason: 'changed plans' } });
    const answer = await jsonOf(cancelled);
    t.is(cancelled.status, 200, JSON.stringify(answer));
    t.like(answer, { booking_id: booking.id, is_cancelled: true, refund_amount: null, refund_currency: null, reason: 'changed plans' });
    await assertReleased(t, providerId, booking);
    const confirm = await asPartner(running, ada, `/v1/flights/providers/${providerId}/bookings/${booking.id}/confirm`, { method: 'POST' });
    t.is(confirm.status, 409, 'a cancelled hold cannot be paid');
    t.is((await jsonOf(confirm)).code, 'booking_not_held');
  });
}

test.serial('holds past their deadline are swept: authorization voided, booking cancelled, the provider’s order cancelled', async (t) => {
  const holds = [];
  for (const providerId of HOLDERS) holds.push({ providerId, ...(await placeHold(t, providerId)) });
  t.is(await running.service.bookings.holds.sweepLapsed(), 0, 'nothing lapsed yet');

  // The second instance lives a week ahead, past every provider's hold deadline.
  const ahead = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix(), clock: { now: () => new Date(Date.now() + 7 * 86_400_000) } });
  try {
    t.is(await ahead.service.bookings.holds.sweepLapsed(), holds.length);
  } finally {
    await ahead.close();
  }
  for (const { providerId, booking } of holds) {
    await assertReleased(t, providerId, booking);
    const read = await jsonOf(await asPartner(running, ada, `/v1/flights/providers/${providerId}/bookings/${booking.id}`));
    t.like(read.booking, { status: 'cancelled', payment_required_by: null });
  }
});

for (const [path, refundable] of [
  ['normal', true],
  ['nonRefundable', false],
] as const) {
  test.serial(`provider_b: a confirmed ${refundable ? 'refundable' : 'non-refundable'} booking cancelled is refunded what the provider grants${refundable ? '' : ': nothing'}`, async (t) => {
    const { body, order } = await prepareBooking(running, ada, 'provider_b', path);
    const created = await jsonOf(await book(running, ada, 'provider_b', body));
    const booking = created.booking;
    t.is(booking?.status, 'confirmed', JSON.stringify(created));
    const url = `/v1/flights/providers/provider_b/bookings/${booking.id}`;
    const cancelled = await asPartner(running, ada, url, { method: 'DELETE' });
    const answer = await jsonOf(cancelled);
    t.is(cancelled.status, 200, JSON.stringify(answer));
    t.like(answer, { booking_id: booking.id, is_cancelled: true });
    t.regex(orderStatus(await orderOf(running, 'provider_b', booking.id)) ?? '', /cancel/);

    // The provider answers a repeated cancel with the refund it granted the first time.
    const provider = await (BOOKING_CASES.provider_b as (typeof BOOKING_CASES)[string]).adapter(running, running.service.providers.capabilities('provider_b')).cancelOrder(booking.provider_order_id);
    const [intent] = await intentsOf(running, booking.id);
    const refunds = await refundsOf(running, intent?.id);
    if (refundable) {
      t.truthy(provider.refundAmount);
      t.is(answer.refund_amount, Number(provider.refundAmount));
      t.is(answer.refund_currency, order.currency);
      t.true(answer.refund_amount <= booking.total_amount);
      t.is(refunds.length, 1);
      t.is(BigInt(refunds[0]?.amount ?? 0), toMinorUnits(provider.refundAmount as string, order.currency), 'the processor refunded that much');
    } else {
      t.is(provider.refundAmount, null);
      t.like(answer, { refund_amount: null, refund_currency: null });
      t.is(refunds.length, 0, 'no refund at the processor');
    }
    t.is(intent?.status, 'succeeded', 'the capture stands; a refund is its own record');

    const again = await asPartner(running, ada, url, { method: 'DELETE' });
    t.is(again.status, 200);
    t.deepEqual(await jsonOf(again), answer, 'cancelling again answers the same result');
    t.is((await refundsOf(running, intent?.id)).length, refunds.length, 'and refunds nothing more');
  });
}
