/**
 * provider_a's orders beyond the booking contract: what its sandbox refuses in its own dialect (a wrong
 * amount, an unknown order, a wrong token), an offer gone stale at booking, orders that outlive the
 * sandbox instance that took them (they live in the database), the hold's DELAY_TO_CANCEL deadline and its
 * lapse, and the seats and bags that travel with the order.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import Koa from 'koa';
import { GoneError, NotFoundError, PriceChangedError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError } from '../core/errors.js';
import type { OrderRequest } from '../core/flights/flight-provider.js';
import { ProviderAAdapter } from '../providers/flights/provider-a/adapter.js';
import { MAGIC_FLIGHT_NUMBERS, MAGIC_SOLD_OUT_LAST_NAME } from '../providers/flights/provider-a/magic-values.js';
import { orderBody } from '../providers/flights/provider-a/order-request.js';
import { providerASandbox } from '../providers/flights/provider-a/sandbox.js';
import { bookingCase, providerANative } from './booking-contract/provider-a.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
const servers: http.Server[] = [];
const DAY_MS = 86_400_000;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await running?.close();
});

const sandbox = () => `${running.config.sandboxUrl}/flights/provider_a`;
const adapter = (options: { baseUrl?: string; token?: string; bookingTimeoutSeconds?: number } = {}) =>
  new ProviderAAdapter({
    baseUrl: options.baseUrl ?? sandbox(),
    token: options.token ?? 'amadeus_test_orders',
    capabilities: { ...running.service.providers.capabilities('provider_a'), ...(options.bookingTimeoutSeconds ? { booking_timeout_seconds: options.bookingTimeoutSeconds } : {}) },
    clock: { now: () => new Date() },
  });
const request = (path: Parameters<typeof bookingCase.request>[1] = 'normal', type: 'instant' | 'hold' = 'instant') => bookingCase.request(running, path, randomUUID(), type);

/** A second instance of provider_a's sandbox on the same database, with a clock of its own. */
async function secondSandbox(now: () => Date = () => new Date()): Promise<string> {
  const app = new Koa();
  app.use(providerASandbox({ db: running.service.db.knex, clock: { now } }).routes());
  const server = http.createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/flights/provider_a`;
}

/** A native call to the sandbox's flight orders. */
async function native(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${sandbox()}/v1/booking/flight-orders${path}`, {
    method,
    headers: { authorization: 'Bearer amadeus_test_native', 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: response.status === 204 ? null : await jsonOf(response) };
}

const storedOrders = (reference: string) => running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_a', reference });

test('native: an order paid a wrong amount is 37200 PRICE DISCREPANCY with the total it costs, and nothing is booked', async (t) => {
  const order = await request();
  const body = orderBody({ ...order, amount: '700.00' }) as { data: Record<string, unknown> };
  const refused = await native('POST', '', body, { 'ama-client-ref': order.reference });
  t.is(refused.status, 400);
  t.like(refused.body.errors[0], { code: 37200, title: 'PRICE DISCREPANCY' });
  t.true((refused.body.errors[0].detail as string).includes(`(${order.amount})`), 'it says the total the order costs');
  t.is((await storedOrders(order.reference)).length, 0);

  const error = await t.throwsAsync(adapter().createOrder({ ...order, amount: '700.00' }), { instanceOf: PriceChangedError });
  t.like(error, { orderId: null, previousTotalAmount: '700.00', newTotalAmount: order.amount, currency: 'EUR' });

  const wrongCurrency = await native('POST', '', orderBody({ ...order, currency: 'GBP' }));
  t.like(wrongCurrency.body.errors[0], { code: 477, source: { pointer: '/data/formOfPayments/0/other/currencyCode' } });
  const unpaid = await native('POST', '', { data: { ...body.data, formOfPayments: undefined } });
  t.like(unpaid.body.errors[0], { code: 32171, source: { pointer: '/data/formOfPayments' } });
});

test('native: an unknown order is 404 to read, cancel or issue; the adapter says provider_order_not_found', async (t) => {
  for (const [method, path] of [['GET', '/eJzNoSuchOrder'], ['DELETE', '/eJzNoSuchOrder'], ['POST', '/eJzNoSuchOrder/issuance']] as const) {
    const answer = await native(method, path, method === 'POST' ? { data: { formOfPayments: [{ other: { method: 'ACCOUNT', amount: '1.00', currencyCode: 'EUR' } }] } } : undefined);
    t.is(answer.status, 404, `${method} ${path}`);
    t.like(answer.body.errors[0], { status: 404, code: 1797 });
  }
  for (const call of [() => adapter().cancelOrder('eJzNoSuchOrder'), () => adapter().payOrder({ orderId: 'eJzNoSuchOrder', reference: 'r', raw: {}, amount: '1.00', currency: 'EUR' })]) {
    const error = await t.throwsAsync(call(), { instanceOf: NotFoundError });
    t.is(error?.code, 'provider_order_not_found');
  }
});

test('native: a wrong token is 401 38192; the adapter says provider_unavailable, not the provider’s words', async (t) => {
  const order = await request();
  const answer = await native('POST', '', orderBody(order), { authorization: 'Bearer someone-else' });
  t.is(answer.status, 401);
  t.is(answer.body.errors[0].code, 38192);
  const error = await t.throwsAsync(adapter({ token: 'someone-else' }).createOrder(order), { instanceOf: ProviderUnavailableError });
  t.notRegex(error?.message ?? '', /token|expired|38192/i);
  t.is((await storedOrders(order.reference)).length, 0);
});

test('an offer gone stale at booking is offer_expired: its stale flight, or its last ticketing date passed', async (t) => {
  const stale = await request();
  const raw = providerANative('cdg-dxb-family-eur', MAGIC_FLIGHT_NUMBERS.expired);
  const error = await t.throwsAsync(adapter().createOrder({ ...stale, raw }), { instanceOf: GoneError });
  t.is(error?.code, 'offer_expired');

  const late = await request();
  const error2 = await t.throwsAsync(adapter().createOrder({ ...late, raw: { ...late.raw, lastTicketingDate: '2026-01-01', lastTicketingDateTime: '2026-01-01T12:00:00' } }), { instanceOf: GoneError });
  t.is(error2?.code, 'offer_expired');
});

test('an order the caller gave up on (slow flight, past the booking timeout) is not booked', async (t) => {
  const order = await request('slow');
  await t.throwsAsync(adapter({ bookingTimeoutSeconds: 1 }).createOrder(order), { instanceOf: ProviderTimeoutError });
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.is((await storedOrders(order.reference)).length, 0);
});

test('the surname SOLDOUT sells nothing: offer_no_longer_available', async (t) => {
  const order = await request();
  const passengers = order.passengers.map((passenger, index) => (index === 1 ? { ...passenger, lastName: MAGIC_SOLD_OUT_LAST_NAME } : passenger));
  const error = await t.throwsAsync(adapter().createOrder({ ...order, passengers }), { instanceOf: ProviderRejectedError });
  t.is(error?.code, 'offer_no_longer_available');
});

test('orders live in the database: another sandbox instance and a fresh adapter read and cancel what the first booked', async (t) => {
  const order = await request();
  const placed = await adapter().createOrder(order);
  const [row] = await storedOrders(order.reference);
  t.like(row, { id: placed.orderId, status: 'issued' });
  t.is(row.document.associatedRecords[0].reference, placed.pnr);

  const other = adapter({ baseUrl: await secondSandbox() });
  t.deepEqual(await other.retrieveOrder(placed.orderId), placed);
  const cancelled = await other.cancelOrder(placed.orderId);
  t.is((await adapter().retrieveOrder(placed.orderId)).status, 'cancelled');
  t.deepEqual(await adapter().cancelOrder(placed.orderId), cancelled, 'cancelling again at the first instance answers the same');
  // SAVER: the whole total less the fare's 100.00 penalty.
  t.is(cancelled.refundAmount, (Number(order.amount) - 100).toFixed(2));
});

test('a hold is DELAY_TO_CANCEL for six days, never past the last ticketing date; unpaid, it lapses and cannot be paid', async (t) => {
  const order = await request('normal', 'hold');
  const before = Date.now();
  const held = await adapter().createOrder(order);
  t.is(held.status, 'held');
  t.deepEqual(held.tickets, []);
  const deadline = Date.parse(held.paymentRequiredBy ?? '');
  t.true(Math.abs(deadline - (before + 6 * DAY_MS)) < 60_000, `held until ${held.paymentRequiredBy}`);
  const stored = await native('GET', `/${held.orderId}`);
  t.like(stored.body.data.ticketingAgreement, { option: 'DELAY_TO_CANCEL', delay: '6D', dateTime: held.paymentRequiredBy });

  const soon = new Date(Date.now() + 2 * DAY_MS).toISOString().slice(0, 19);
  const capped = await adapter().createOrder({ ...(await request('normal', 'hold')), raw: { ...order.raw, lastTicketingDateTime: soon } });
  t.is(capped.paymentRequiredBy, `${soon}.000Z`);

  const wrong = await t.throwsAsync(adapter().payOrder({ orderId: held.orderId, reference: order.reference, raw: order.raw, amount: '1.00', currency: order.currency }), { instanceOf: PriceChangedError });
  t.like(wrong, { orderId: held.orderId, newTotalAmount: order.amount });

  const later = adapter({ baseUrl: await secondSandbox(() => new Date(Date.now() + 7 * DAY_MS)) });
  t.is((await later.retrieveOrder(held.orderId)).status, 'cancelled', 'the airline cancelled the unpaid hold');
  const lapsed = await t.throwsAsync(later.payOrder({ orderId: held.orderId, reference: order.reference, raw: order.raw, amount: order.amount, currency: order.currency }), { instanceOf: ProviderRejectedError });
  t.is(lapsed?.code, 'provider_order_cancelled');
  t.is((await adapter().cancelOrder(held.orderId)).refundAmount, null, 'an unpaid hold refunds nothing');
});

test('seats and bags go with the order: on its travelers in the offer, charged into its grandTotal', async (t) => {
  const order = await request();
  const { offer: priced } = await adapter().price(order.raw);
  const bag = priced.available_services?.find((service) => service.id === 'bag-1');
  if (!bag) return t.fail('pricing sells no bag');
  const amount = (Number(order.amount) + Number(bag.total_amount)).toFixed(2);
  const placed = await adapter().createOrder({ ...order, offer: priced, services: [{ id: 'bag-1', quantity: 1 }], amount });
  t.is(placed.amount, amount);
  t.deepEqual(
    placed.seats,
    order.seats.map(({ segmentId, providerPassengerId, seatNumber }) => ({ segmentId, providerPassengerId, seatNumber })),
  );
  const stored = (await native('GET', `/${placed.orderId}`)).body.data;
  const adult = stored.flightOffers[0].travelerPricings[0].fareDetailsBySegment[0].additionalServices;
  t.deepEqual(adult, { chargeableSeatNumber: order.seats[0]?.seatNumber, chargeableCheckedBags: { quantity: 1 } });
  t.deepEqual(
    stored.flightOffers[0].price.additionalServices.map((item: Json) => item.type),
    ['CHECKED_BAGS', 'SEATS'],
  );
  t.is(stored.tickets.length, 3, 'every traveler is ticketed, the lap infant too');
});

test('a seat the map shows taken, or one for a lap infant, is not sold: service_unavailable, nothing booked', async (t) => {
  const order = await request();
  const [map] = await adapter().seatMaps(order.raw, order.offer.id);
  const taken = Object.values(map?.seat_map ?? {}).find((seat) => seat.is_occupied && Number(seat.row) >= 30);
  const seat = order.seats[0] as OrderRequest['seats'][number];
  for (const seats of [[{ ...seat, seatNumber: taken?.seat_number ?? '' }], [{ ...seat, providerPassengerId: '3' }]]) {
    const attempt = { ...order, reference: randomUUID(), seats };
    const error = await t.throwsAsync(adapter().createOrder(attempt), { instanceOf: ProviderRejectedError });
    t.is(error?.code, 'service_unavailable');
    t.is((await storedOrders(attempt.reference)).length, 0);
  }
});
