/**
 * A price that moved at booking, over REST (decisions §3, issue 13 item 4): 409 `price_changed` with both
 * totals and the provider's order id. Where an order exists (provider_c, provider_d, provider_e) it is left
 * held, the first authorization voided, and retryProviderBooking pays it at the new total under a new
 * authorization; a second identical retry answers the same booking. Where none exists (provider_a,
 * provider_b) `order_id` is null and there is nothing to retry.
 */
import test from 'ava';
import { toMinorUnits } from '../core/money/money.js';
import { assertFailed, intentsOf, orderOf, orderStatus } from './helpers/booking-records.js';
import { book, booker, prepareBooking, type Booker } from './helpers/bookings.js';
import { asPartner } from './helpers/cards.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let ada: Booker;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
});
test.after.always(async () => {
  await running?.close();
});

for (const providerId of ['provider_c', 'provider_d', 'provider_e']) {
  test(`${providerId}: 409 price_changed with the held order; the retry pays it at the new total under a new authorization, once`, async (t) => {
    const { body, order } = await prepareBooking(running, ada, providerId, 'priceChangedAtBooking');
    const changed = await book(running, ada, providerId, body);
    const change = await jsonOf(changed);
    t.is(changed.status, 409, JSON.stringify(change));
    t.like(change, { status_code: 409, code: 'price_changed', previous_total_amount: order.amount, currency: order.currency });
    t.truthy(change.order_id);
    t.not(change.new_total_amount, change.previous_total_amount);

    const failed = await assertFailed(t, running, ada, body.idempotency_key, 'price_changed');
    t.is(failed.provider_order_id, change.order_id);
    const held = await orderOf(running, providerId, failed.id);
    t.truthy(held, 'the provider holds the order for the retry');
    t.notRegex(orderStatus(held) ?? '', /cancel/, 'the held order was not cancelled');
    const [first] = await intentsOf(running, failed.id);
    t.like(first, { status: 'canceled', amount: Number(toMinorUnits(order.amount, order.currency)) });

    const retryBody = { ...body, order_id: change.order_id };
    const retried = await book(running, ada, providerId, retryBody, '/retry');
    const answer = await jsonOf(retried);
    t.is(retried.status, 200, JSON.stringify(answer));
    const booking = answer.booking;
    t.like(booking, { id: failed.id, status: 'confirmed', currency: order.currency, total_amount: Number(change.new_total_amount) });
    t.regex(booking.airline_pnr ?? '', /^[A-Z0-9]{6}$/);

    const intents = await intentsOf(running, failed.id);
    t.is(intents.length, 2, 'one authorization per attempt');
    t.like(intents[0], { id: first?.id, status: 'canceled', amount_received: 0 });
    t.like(intents[1], { id: booking.payment_intent_id, status: 'succeeded' });
    t.is(BigInt(intents[1]?.amount_received ?? 0), toMinorUnits(change.new_total_amount, change.currency), 'the new total was captured');
    const paid = await orderOf(running, providerId, failed.id);
    t.notRegex(orderStatus(paid) ?? '', /held|cancel|prebook/, `the provider’s order is paid (${orderStatus(paid)})`);

    const again = await book(running, ada, providerId, retryBody, '/retry');
    const againAnswer = await jsonOf(again);
    t.is(again.status, 200, JSON.stringify(againAnswer));
    t.is(againAnswer.booking?.id, booking.id, 'a second identical retry answers the same booking');
    t.is((await intentsOf(running, failed.id)).length, 2, 'and authorizes nothing more');
    const repeat = await book(running, ada, providerId, body);
    t.is(repeat.status, 200, 'the first request’s key now answers the confirmed booking');
    t.is((await jsonOf(repeat)).booking?.status, 'confirmed');
    const trips = await jsonOf(await asPartner(running, ada, '/v1/users/me/bookings?limit=100'));
    t.true(trips.some((trip: { id: string }) => trip.id === booking.id), 'now it is a trip');
  });
}

for (const providerId of ['provider_a', 'provider_b']) {
  test(`${providerId}: 409 price_changed with order_id null; the authorization is voided, no order, nothing to retry`, async (t) => {
    const { body, order } = await prepareBooking(running, ada, providerId, 'priceChangedAtBooking');
    const changed = await book(running, ada, providerId, body);
    const change = await jsonOf(changed);
    t.is(changed.status, 409, JSON.stringify(change));
    t.like(change, { code: 'price_changed', order_id: null, previous_total_amount: order.amount, currency: order.currency });
    t.not(change.new_total_amount, order.amount);
    const failed = await assertFailed(t, running, ada, body.idempotency_key, 'price_changed');
    t.deepEqual(
      (await intentsOf(running, failed.id)).map((intent) => intent.status),
      ['canceled'],
    );
    t.is(await orderOf(running, providerId, failed.id), undefined);

    const retried = await book(running, ada, providerId, { ...body, order_id: 'no-such-order' }, '/retry');
    t.is(retried.status, 404);
    t.is((await jsonOf(retried)).code, 'retryable_order_not_found');
    const repeat = await book(running, ada, providerId, body);
    t.is(repeat.status, 409, 'the key answers its recorded price change');
    // Each answer quotes its own request's id; the rest is the recorded price change.
    const { request_id: repeatRequest, ...repeated } = await jsonOf(repeat);
    const { request_id: firstRequest, ...recorded } = change;
    t.deepEqual(repeated, recorded);
    t.not(repeatRequest, firstRequest);
  });
}
