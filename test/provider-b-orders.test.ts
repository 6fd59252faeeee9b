/**
 * provider_b's orders beyond the booking contract: what its sandbox refuses in its own dialect (a wrong
 * amount, an unknown order, a wrong credential, a taken seat), an offer expired at booking, orders that
 * outlive the sandbox instance that placed them, the two-step cancellation with its refund quote, a hold
 * whose price moved, and a hold past its payment deadline.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import { type DomainError, GoneError, PriceChangedError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError } from '../core/errors.js';
import { departuresOf } from '../core/flights/departure-window.js';
import { ProviderBAdapter } from '../providers/flights/provider-b/adapter.js';
import { MAGIC_OFFERS, providerBSandbox, SOLD_OUT_SURNAME } from '../providers/flights/provider-b/sandbox.js';
import { NON_REFUNDABLE_OFFER, orderRequest, REFUNDABLE_OFFER } from './booking-contract/provider-b.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
const servers: http.Server[] = [];

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await running?.close();
});

const sandbox = () => `${running.config.sandboxUrl}/flights/provider_b`;
const capabilities = () => running.service.providers.capabilities('provider_b');
const adapterAt = (baseUrl: string, token = 'duffel_test_orders', bookingTimeoutSeconds?: number) =>
  new ProviderBAdapter({
    baseUrl,
    token,
    capabilities: bookingTimeoutSeconds ? { ...capabilities(), booking_timeout_seconds: bookingTimeoutSeconds } : capabilities(),
    clock: { now: () => new Date() },
  });
const adapter = () => adapterAt(sandbox());

/** A call in provider_b's own dialect, as any client of its API makes it. */
const native = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
  fetch(`${sandbox()}${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${init.token ?? 'duffel_test_orders'}`, 'duffel-version': 'v2', 'content-type': 'application/json' },
    ...(init.body ? { body: JSON.stringify({ data: init.body }) } : {}),
  });

/** Another instance of the sandbox on the same database, with its own clock. */
async function secondSandbox(clock: { now(): Date }): Promise<string> {
  const app = new Koa();
  app.use(providerBSandbox({ db: running.service.db.knex, clock }).routes());
  const server = http.createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/flights/provider_b`;
}

const errorCodeOf = async (response: Response) => (await jsonOf(response)).errors[0].code;

test('the sandbox refuses, in its dialect, a payment that is not the total with its services and seats', async (t) => {
  const request = await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'instant', { extras: true });
  t.true(request.seats.length === 2 && request.services.length === 1, 'a seat each and a bag');
  const short = { ...request, amount: (Number(request.amount) - 0.01).toFixed(2) };
  const refused = await t.throwsAsync(adapter().createOrder(short), { instanceOf: ProviderRejectedError });
  t.is(refused?.code, 'payment_amount_mismatch');
  const withoutExtras = { ...request, amount: request.offer.total_amount };
  t.is((await t.throwsAsync<DomainError>(adapter().createOrder(withoutExtras)))?.code, 'payment_amount_mismatch', 'seats and bags are paid for too');
  t.falsy(await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_b', reference: request.reference }).first(), 'nothing was booked');

  const placed = await adapter().createOrder(request);
  const order = (await jsonOf(await native(`/air/orders/${placed.orderId}`))).data;
  t.is(order.metadata.booking_reference, request.reference, 'our reference travels as metadata');
  t.true((departuresOf(request.offer)[0]?.at.getTime() ?? 0) > Date.now(), 'the booked offer departs after now');
  t.deepEqual(order.slices, request.raw.slices, 'the order flies the dated flights of the offer it books');
  t.deepEqual(order.services.map((service: { type: string }) => service.type).sort(), ['baggage', 'seat', 'seat']);
  t.is(order.payment_status.awaiting_payment, false);
  t.is(order.documents.length, 2, 'an electronic ticket per passenger');
});

test('the sandbox answers an unknown order 404 and a wrong credential 401; the adapter says so in our words', async (t) => {
  const unknown = await native('/air/orders/ord_0000nosuchorder');
  t.is(unknown.status, 404);
  t.is(await errorCodeOf(unknown), 'not_found');
  const unpaid = await native('/air/payments', { body: { order_id: 'ord_0000nosuchorder', payment: { type: 'balance', amount: '1.00', currency: 'GBP' } } });
  t.is(unpaid.status, 404);
  t.is((await t.throwsAsync<DomainError>(adapter().cancelOrder('ord_0000nosuchorder')))?.code, 'provider_order_not_found');
  t.is((await t.throwsAsync<DomainError>(adapter().payOrder({ orderId: 'ord_0000nosuchorder', reference: 'r', raw: {}, amount: '1.00', currency: 'GBP' })))?.code, 'provider_order_not_found');

  const stranger = await native('/air/orders/ord_0000nosuchorder', { token: 'live_token' });
  t.is(stranger.status, 401);
  t.is(await errorCodeOf(stranger), 'invalid_authentication');
  const request = await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'instant');
  await t.throwsAsync(adapterAt(sandbox(), 'live_token').createOrder(request), { instanceOf: ProviderUnavailableError });
});

test('an offer expired at booking is offer_expired; the family name SOLDOUT finds the flight full', async (t) => {
  const expired = await orderRequest(running, MAGIC_OFFERS.expired, randomUUID(), 'instant');
  const gone = await t.throwsAsync(adapter().createOrder(expired), { instanceOf: GoneError });
  t.is(gone?.code, 'offer_expired');
  const full = await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'instant', { lastName: SOLD_OUT_SURNAME });
  t.is((await t.throwsAsync(adapter().createOrder(full), { instanceOf: ProviderRejectedError }))?.code, 'offer_no_longer_available');
});

test('a seat someone else holds is refused as service_not_available', async (t) => {
  const request = await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'instant', { extras: true });
  const [seatMap] = await adapter().seatMaps(request.raw, request.offer.id);
  const taken = Object.values(seatMap?.seat_map ?? {}).find((seat) => seat.is_occupied);
  t.truthy(taken);
  const seats = request.seats.map((seat, index) => (index === 0 ? { ...seat, seatNumber: taken?.seat_number as string } : seat));
  t.is((await t.throwsAsync(adapter().createOrder({ ...request, seats }), { instanceOf: ProviderRejectedError }))?.code, 'service_not_available');
});

test('orders live in the database: another sandbox instance retrieves and pays what the first placed', async (t) => {
  const request = await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'hold');
  const held = await adapter().createOrder(request);
  const row = await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_b', id: held.orderId }).first();
  t.like(row, { reference: request.reference, status: 'held' });

  const other = adapterAt(await secondSandbox({ now: () => new Date() }));
  t.like(await other.retrieveOrder(held.orderId), { orderId: held.orderId, status: 'held', pnr: held.pnr });
  const paid = await other.payOrder({ orderId: held.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency });
  t.is(paid.status, 'confirmed');
  t.is(paid.tickets.length, 2);
  t.deepEqual(await adapter().retrieveOrder(held.orderId), paid, 'the first instance reads the payment of the second');
  t.is((await adapter().createOrder(request)).orderId, held.orderId, 'the reference still finds its order');
});

test('cancelling is two steps: a quote of the refund (total less the fare penalty), then its confirmation', async (t) => {
  const request = await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'instant');
  const order = await adapter().createOrder(request);
  t.is(order.amount, '192.80');
  const quoted = await native('/air/order_cancellations', { body: { order_id: order.orderId } });
  t.is(quoted.status, 201);
  const quote = (await jsonOf(quoted)).data;
  t.like(quote, { order_id: order.orderId, refund_amount: '152.80', refund_currency: 'GBP', refund_to: 'balance', confirmed_at: null });
  t.regex(quote.id, /^ore_/);
  t.is((await jsonOf(await native(`/air/orders/${order.orderId}`))).data.cancelled_at, null, 'a quote cancels nothing');

  const confirmed = await native(`/air/order_cancellations/${quote.id}/actions/confirm`, { method: 'POST' });
  t.is(confirmed.status, 200);
  t.truthy((await jsonOf(confirmed)).data.confirmed_at);
  t.truthy((await jsonOf(await native(`/air/orders/${order.orderId}`))).data.cancelled_at);
  const cancelled = await adapter().cancelOrder(order.orderId);
  t.like(cancelled, { orderId: order.orderId, refundAmount: '152.80', refundCurrency: 'GBP' });
  const paying = await native('/air/payments', { body: { order_id: order.orderId, payment: { type: 'balance', amount: '192.80', currency: 'GBP' } } });
  t.is(await errorCodeOf(paying), 'order_cancelled');
});

test('a non-refundable fare quotes a refund of nothing; an unpaid hold refunds nothing either', async (t) => {
  const instant = await adapter().createOrder(await orderRequest(running, NON_REFUNDABLE_OFFER, randomUUID(), 'instant'));
  const quote = (await jsonOf(await native('/air/order_cancellations', { body: { order_id: instant.orderId } }))).data;
  t.is(quote.refund_amount, '0.00');
  const hold = await adapter().createOrder(await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'hold'));
  t.like(await adapter().cancelOrder(hold.orderId), { refundAmount: null, refundCurrency: null });
});

test('a hold whose price moved is price_changed with its order id, and is paid at the new total', async (t) => {
  const request = await orderRequest(running, MAGIC_OFFERS.priceChangeAtBooking, randomUUID(), 'hold');
  const changed = await t.throwsAsync(adapter().createOrder(request), { instanceOf: PriceChangedError });
  t.like(changed, { previousTotalAmount: '512.46', newTotalAmount: '550.89', currency: 'GBP' });
  const orderId = changed?.orderId as string;
  t.regex(orderId, /^ord_/);
  const atOldPrice = await t.throwsAsync(adapter().payOrder({ orderId, reference: request.reference, raw: request.raw, amount: '512.46', currency: 'GBP' }), {
    instanceOf: PriceChangedError,
  });
  t.is(atOldPrice?.orderId, orderId);
  const paid = await adapter().payOrder({ orderId, reference: request.reference, raw: request.raw, amount: '550.89', currency: 'GBP' });
  t.like(paid, { status: 'confirmed', amount: '550.89' });
});

test('a hold past payment_required_by is cancelled by the airline, and its payment refused', async (t) => {
  let now = new Date();
  const baseUrl = await secondSandbox({ now: () => now });
  const request = await orderRequest(running, REFUNDABLE_OFFER, randomUUID(), 'hold');
  const held = await adapterAt(baseUrl).createOrder(request);
  const deadline = Date.parse(held.paymentRequiredBy as string);
  t.true(deadline > now.getTime());
  now = new Date(deadline + 1000);
  const payment = { orderId: held.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency };
  t.is((await t.throwsAsync(adapterAt(baseUrl).payOrder(payment), { instanceOf: ProviderRejectedError }))?.code, 'order_cancelled');
  t.like(await adapterAt(baseUrl).retrieveOrder(held.orderId), { status: 'cancelled', paymentRequiredBy: null });
});

test('an order the caller gave up on while the airline was slow is never placed', async (t) => {
  const request = await orderRequest(running, MAGIC_OFFERS.slow, randomUUID(), 'instant');
  await t.throwsAsync(adapterAt(sandbox(), 'duffel_test_orders', 1).createOrder(request), { instanceOf: ProviderTimeoutError });
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.falsy(await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_b', reference: request.reference }).first());
});
