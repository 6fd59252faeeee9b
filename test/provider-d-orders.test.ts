/**
 * What is particular to provider_d's bookings, beyond the booking contract: the requests its sandbox
 * refuses in its own dialect (a wrong amount, an unknown booking, a wrong key, another partner's
 * booking), an offer expired at booking, a price changed at the check before any hold, check_flights
 * polled until checked, a caller that hangs up holding nothing, and bookings kept in the database: a
 * second instance reads, pays and cancels what the first booked, and refuses a payment after the hold's
 * 30 minutes.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { ConflictError, GoneError, NotFoundError, PriceChangedError, ProviderTimeoutError } from '../core/errors.js';
import { ProviderDAdapter } from '../providers/flights/provider-d/adapter.js';
import { MAGIC_DESTINATIONS } from '../providers/flights/provider-d/catalogue.js';
import { datedFixture } from '../providers/flights/provider-d/dated-fixtures.js';
import { adapterOf, orderRequest, searchedOffer } from './booking-contract/provider-d.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import type { Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let database: TestDatabase;
let running: RunningService;
/** A second instance on the same database, its clock 31 minutes ahead: past every hold's payment deadline. */
let later: RunningService;
const LATER_MS = 31 * 60_000;

test.before(async () => {
  database = await createTestDatabase();
  running = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix() });
  later = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix(), clock: { now: () => new Date(Date.now() + LATER_MS) } });
});
test.after.always(async () => {
  await later?.close();
  await running?.close();
  await database?.drop();
});

const adapter = (service = running, bookingTimeoutSeconds?: number) => {
  const capabilities = service.service.providers.capabilities('provider_d');
  return adapterOf(service, bookingTimeoutSeconds ? { ...capabilities, booking_timeout_seconds: bookingTimeoutSeconds } : capabilities);
};
const sandbox = (service = running) => `${service.config.sandboxUrl}/flights/provider_d`;
const native = (path: string, init: { method?: string; body?: unknown; apikey?: string } = {}, service = running) =>
  fetch(`${sandbox(service)}/${path}`, {
    method: init.method ?? 'GET',
    headers: { apikey: init.apikey ?? 'kiwi_test_sandbox', 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
const hold = async () => {
  const request = orderRequest(await searchedOffer(running, 'CDG'), { reference: randomUUID() });
  return { request, order: await adapter().createOrder(request) };
};

test('a hold is paid only with its exact total: confirm_payment refuses another amount, in its own dialect', async (t) => {
  const { request, order } = await hold();
  t.is(order.status, 'held');
  const booking: Json = await (await native(`v2/booking/${order.orderId}`)).json();
  t.is(booking.status, 'CONFIRMATION_PENDING');
  t.is(booking.client_reference, request.reference, 'the reference went with the hold');
  const pay = (amount: number, currency = 'GBP') => native('v2/booking/confirm_payment', { method: 'POST', body: { booking_id: booking.booking_id, transaction_id: booking.transaction_id, amount, currency } });

  const short = await pay(Number(request.amount) - 0.01);
  t.is(short.status, 400);
  t.deepEqual(await short.json(), { status: -1, msg: 'amount does not match the booking total' });
  t.is((await pay(Number(request.amount), 'USD')).status, 400, 'neither EUR nor the booking’s currency');
  const wrongTransaction = await native('v2/booking/confirm_payment', { method: 'POST', body: { booking_id: booking.booking_id, transaction_id: randomUUID(), amount: Number(request.amount), currency: 'GBP' } });
  t.is(wrongTransaction.status, 404);

  const error = await t.throwsAsync(adapter().payOrder({ orderId: order.orderId, reference: request.reference, raw: request.raw, amount: '1.00', currency: 'GBP' }), { instanceOf: PriceChangedError });
  t.is(error?.orderId, order.orderId);
  t.is(error?.newTotalAmount, request.amount, 'the total to pay instead');
  t.is((await adapter().retrieveOrder(order.orderId)).status, 'held', 'nothing was paid');

  const inEuros = await pay(booking.total, 'EUR');
  t.deepEqual(await inEuros.json(), { status: 0, msg: '' }, 'its settling currency is taken too');
  t.is((await adapter().retrieveOrder(order.orderId)).status, 'confirmed');
});

test('unknown bookings, wrong keys and another partner’s bookings are refused', async (t) => {
  const { order } = await hold();
  for (const [path, method] of [['v2/booking/123456789', 'GET'], ['v2/booking/no-such', 'GET'], ['v2/booking/123456789/cancel', 'POST']] as const) {
    const answer = await native(path, { method });
    t.is(answer.status, 404, `${method} ${path}`);
    t.deepEqual(await answer.json(), { status: 'Error', error: 'booking not found' });
  }
  const missing = await t.throwsAsync(adapter().cancelOrder('123456789'), { instanceOf: NotFoundError });
  t.is(missing?.code, 'provider_order_not_found');

  const wrongKey = await native(`v2/booking/${order.orderId}`, { apikey: 'not_a_kiwi_key' });
  t.is(wrongKey.status, 403);
  t.deepEqual(await wrongKey.json(), { status: 'Error', error: 'Invalid apikey' });
  t.is((await native(`v2/booking/${order.orderId}`, { apikey: 'kiwi_test_another_partner' })).status, 404, 'another key’s booking does not exist for it');

  const badKey = new ProviderDAdapter({
    baseUrl: sandbox(),
    token: 'wrong_key',
    capabilities: running.service.providers.capabilities('provider_d'),
    clock: { now: () => new Date() },
  });
  const refused = await t.throwsAsync(badKey.retrieveOrder(order.orderId));
  t.is((refused as { code?: string }).code, 'provider_unavailable', 'a refused key is ours to fix, not the caller’s');
  t.notRegex(refused?.message ?? '', /apikey/i);
});

test('an offer whose booking token has expired is offer_expired at booking; nothing is held', async (t) => {
  // A fixture dated as if searched 31 minutes ago: its flight is weeks ahead, its booking token past its 30 minutes.
  const raw = datedFixture('lhr-jfk-gbp', new Date(Date.now() - 31 * 60_000));
  const request = orderRequest(raw, { reference: randomUUID() });
  const error = await t.throwsAsync(adapter().createOrder(request), { instanceOf: GoneError });
  t.is(error?.code, 'offer_expired');
  t.notRegex(error?.message ?? '', /Expired booking token/);
  t.is(await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_d' }).whereLike('reference', `%${request.reference}`).first(), undefined);
});

test('a price changed at the check before the hold is price_changed without an order: price the offer again', async (t) => {
  // Booked as searched (not yet checked): the check at booking says the total moved 8%.
  const request = orderRequest(await searchedOffer(running, MAGIC_DESTINATIONS.priceChange, { priced: false }), { reference: randomUUID() });
  const error = await t.throwsAsync(adapter().createOrder(request), { instanceOf: PriceChangedError });
  t.is(error?.orderId, null);
  t.is(error?.previousTotalAmount, request.amount);
  t.is(error?.newTotalAmount, '104.10', 'EUR 121.50 in GBP');
});

test('check_flights is polled until checked: the first call opens a session, a call naming it answers', async (t) => {
  const raw = await searchedOffer(running, 'CDG', { priced: false });
  const token = (raw.data as { booking_token: string }[])[0]?.booking_token as string;
  const query = `v2/booking/check_flights?booking_token=${token}&bnum=0&adults=1&children=0&infants=0&currency=GBP`;
  const first: Json = await (await native(query)).json();
  t.false(first.flights_checked);
  t.truthy(first.session_id);
  const second: Json = await (await native(`${query}&session_id=${first.session_id}`)).json();
  t.true(second.flights_checked);
  t.deepEqual(second.conversion, { currency: 'GBP', amount: 84.61 });

  // An unchecked offer is checked at booking, which waits for the second answer.
  const started = Date.now();
  const order = await adapter().createOrder(orderRequest(raw, { reference: randomUUID() }));
  t.is(order.status, 'held');
  t.true(Date.now() - started >= 900, 'polled once more after the first answer');

  // A check that never completes runs out within the booking timeout: no hold is made.
  const never = orderRequest(await searchedOffer(running, MAGIC_DESTINATIONS.slow, { priced: false }), { reference: randomUUID() });
  const error = await t.throwsAsync(adapter(running, 2).createOrder(never), { instanceOf: ProviderTimeoutError });
  t.regex(error?.message ?? '', /within 2 s/);
});

test('a caller that hangs up on a slow save_booking holds nothing', async (t) => {
  const request = orderRequest(await searchedOffer(running, MAGIC_DESTINATIONS.slowAtBooking), { reference: randomUUID() });
  await t.throwsAsync(adapter(running, 2).createOrder(request), { instanceOf: ProviderTimeoutError });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const rows = await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_d' }).whereLike('reference', `%:${request.reference}`);
  t.is(rows.length, 0);
});

test('bookings live in the database: another instance reads, pays and cancels them, and the same reference books once across instances', async (t) => {
  const { request, order } = await hold();
  const other = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix() });
  t.teardown(() => other.close());
  const elsewhere = adapter(other);
  t.like(await elsewhere.retrieveOrder(order.orderId), { orderId: order.orderId, status: 'held', amount: request.amount });
  t.is((await elsewhere.createOrder(request)).orderId, order.orderId, 'the reference is known there too');
  const paid = await elsewhere.payOrder({ orderId: order.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency });
  t.is(paid.status, 'confirmed');
  t.regex(paid.pnr ?? '', /^[A-Z0-9]{6}$/);
  const cancelled = await adapter().cancelOrder(order.orderId);
  t.is(cancelled.refundCurrency, 'GBP');
  // The fare back, less EUR 25 (GBP 21.42) for the one passenger.
  t.is(cancelled.refundAmount, (Number(request.amount) - 21.42).toFixed(2));
  const row = await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_d', id: order.orderId }).first();
  t.is(row.status, 'CANCELLED');
  const unpaid = await t.throwsAsync(adapter().payOrder({ orderId: order.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency }), { instanceOf: ConflictError });
  t.is(unpaid?.code, 'order_cancelled');
});

test('a hold not paid within its 30 minutes has lapsed: confirm_payment refuses it, and it reads as cancelled', async (t) => {
  const { request, order } = await hold();
  t.true(Date.parse(order.paymentRequiredBy ?? '') - Date.now() <= 30 * 60_000);
  const booking: Json = await (await native(`v2/booking/${order.orderId}`)).json();
  const refused = await native('v2/booking/confirm_payment', { method: 'POST', body: { booking_id: booking.booking_id, transaction_id: booking.transaction_id, amount: Number(request.amount), currency: 'GBP' } }, later);
  t.is(refused.status, 200);
  t.deepEqual(await refused.json(), { status: -1, msg: 'confirm payment timeout' });
  const error = await t.throwsAsync(adapter(later).payOrder({ orderId: order.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency }), {
    instanceOf: GoneError,
  });
  t.is(error?.code, 'order_expired');
  t.like(await adapter().retrieveOrder(order.orderId), { status: 'cancelled', paymentRequiredBy: null });
  t.like(await adapter().cancelOrder(order.orderId), { orderId: order.orderId, refundAmount: null }, 'nothing was taken, nothing is refunded');
});

test('an unpaid hold cancelled refunds nothing: its frozen funds are released', async (t) => {
  const { order } = await hold();
  const cancelled = await adapter().cancelOrder(order.orderId);
  t.is(cancelled.refundAmount, null);
  t.is(cancelled.refundCurrency, null);
  const answer: Json = await (await native(`v2/booking/${order.orderId}/cancel`, { method: 'POST' })).json();
  t.like(answer, { status: 'CANCELLED', reason: 'cancelled', refund: null });
});
