/**
 * provider_e's order steps beyond the booking contract: what its sandbox refuses in its own dialect
 * (an amount that is not the prebook's price, unknown prebooks and bookings, a wrong key), an offer
 * expired at booking, a price changed at verify, the booking id replacing the prebook id, the refund
 * less the fare's penalty, a slow prebook that places nothing, prebooks that lapse at their expiration
 * (on the service's clock), and checkouts kept in the database, read back by a second instance.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { GoneError, PriceChangedError, ProviderTimeoutError } from '../core/errors.js';
import type { OrderRequest } from '../core/flights/flight-provider.js';
import { ProviderEAdapter } from '../providers/flights/provider-e/adapter.js';
import { MAGIC_OFFERS } from '../providers/flights/provider-e/sandbox.js';
import { bookingCase } from './booking-contract/provider-e.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let database: TestDatabase;
let running: RunningService;
/** A second instance on the same database, on a clock the tests move (so they run serially). */
let other: RunningService;
let now = new Date();

const sandbox = (on: RunningService) => `${on.config.sandboxUrl}/flights/provider_e`;
const adapterOf = (on: RunningService, overrides: { token?: string; bookingTimeoutSeconds?: number } = {}) => {
  const capabilities = on.service.providers.capabilities('provider_e');
  return new ProviderEAdapter({
    baseUrl: sandbox(on),
    token: overrides.token ?? 'liteapi_test_orders',
    capabilities: overrides.bookingTimeoutSeconds ? { ...capabilities, booking_timeout_seconds: overrides.bookingTimeoutSeconds } : capabilities,
    clock: { now: () => new Date() },
  });
};

/** Calls a sandbox in provider_e's dialect. */
function provider(on: RunningService, path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<Response> {
  return fetch(`${sandbox(on)}/v3.0/flights/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'x-api-key': init.key ?? 'liteapi_test_partner', 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

const payment = (request: OrderRequest, orderId: string, amount = request.amount) => ({ orderId, reference: request.reference, raw: request.raw, amount, currency: request.currency });

test.before(async () => {
  database = await createTestDatabase();
  running = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix() });
  other = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix(), clock: { now: () => now } });
});
test.after.always(async () => {
  await other?.close();
  await running?.close();
  await database?.drop();
});

test('the booking replaces the prebook: a new order id, and the prebook id reads, pays and cancels the booking', async (t) => {
  const request = await bookingCase.request(running, 'normal', randomUUID(), 'instant');
  const adapter = adapterOf(running);
  const held = await adapter.createOrder(request);
  t.like(held, { status: 'held', pnr: null, amount: request.amount, currency: 'EUR' });
  t.is(held.seats.length, 2, 'the adult and the child are seated, the infant travels on a lap');
  const paid = await adapter.payOrder(payment(request, held.orderId));
  t.not(paid.orderId, held.orderId);
  t.like(paid, { status: 'confirmed', amount: request.amount, paymentRequiredBy: null });
  t.deepEqual(paid.tickets.map((ticket) => ticket.providerPassengerId).sort(), ['P1', 'P2', 'P3']);
  t.true(paid.tickets.every((ticket) => /^176\d{10}$/.test(ticket.ticketNumber)), 'Emirates tickets start with its code, 176');
  t.like(await adapter.retrieveOrder(held.orderId), { orderId: paid.orderId, status: 'confirmed', pnr: paid.pnr });
  t.is((await adapter.payOrder(payment(request, held.orderId))).orderId, paid.orderId, 'paying the prebook again answers its booking');
  t.is((await adapter.createOrder(request)).orderId, paid.orderId, 'a create repeated after the booking answers the booking');

  // EK76's fare is refundable less a 150 EUR penalty; the seat and the bag are refunded with it.
  const cancelled = await adapter.cancelOrder(held.orderId);
  t.is(cancelled.orderId, paid.orderId);
  t.is(cancelled.refundAmount, (Number(request.amount) - 150).toFixed(2));
  t.is(cancelled.refundCurrency, 'EUR');
});

test('the sandbox bills the prebook’s price and nothing else; unknown prebooks and bookings, and a wrong key, are refused', async (t) => {
  const request = await bookingCase.request(running, 'normal', randomUUID(), 'instant');
  const held = await adapterOf(running).createOrder(request);
  const prebook = (await jsonOf(await provider(running, `prebooks/${held.orderId}`))).data;
  t.is(prebook.pricing.display.total, Number(request.amount), 'fare, bag and seats');
  t.is(prebook.selectedServices.length, 3);

  const wrong = await provider(running, 'bookings', { body: { prebookId: held.orderId, payment: { method: 'CREDIT', amount: Number(request.offer.total_amount), currency: 'EUR' } } });
  t.is(wrong.status, 400);
  t.like((await jsonOf(wrong)).error, { code: 4003, details: [{ field: 'payment.amount' }] });
  const otherCurrency = await provider(running, 'bookings', { body: { prebookId: held.orderId, payment: { method: 'CREDIT', amount: Number(request.amount), currency: 'GBP' } } });
  t.is((await jsonOf(otherCurrency)).error.code, 4003);
  t.is((await jsonOf(await provider(running, `prebooks/${held.orderId}`))).data.status, 'PREBOOKED', 'a refused payment books nothing');

  const unknownPrebook = await provider(running, 'bookings', { body: { prebookId: 'nosuchprebook', payment: { method: 'CREDIT', amount: 1, currency: 'EUR' } } });
  t.is(unknownPrebook.status, 404);
  t.is((await jsonOf(unknownPrebook)).error.code, 4042);
  t.is((await jsonOf(await provider(running, 'prebooks/nosuchprebook'))).error.code, 4042);
  t.is((await jsonOf(await provider(running, 'bookings/nosuchbooking'))).error.code, 4041);
  t.is((await provider(running, 'bookings/nosuchbooking', { method: 'DELETE' })).status, 404);
  const badKey = await provider(running, `prebooks/${held.orderId}`, { key: 'live_key' });
  t.is(badKey.status, 401);
  t.is((await jsonOf(badKey)).error.code, 4010);
  t.is(((await t.throwsAsync(adapterOf(running).retrieveOrder('nosuchbooking'))) as { code?: string }).code, 'provider_order_not_found');
  t.is(((await t.throwsAsync(adapterOf(running, { token: 'live_key' }).retrieveOrder(held.orderId))) as { code?: string }).code, 'provider_unavailable', 'a refused key is not the caller’s to fix');
});

test('a wrong amount through the adapter is price_changed with the prebook to pay; the right one books', async (t) => {
  const request = await bookingCase.request(running, 'nonRefundable', randomUUID(), 'instant');
  const adapter = adapterOf(running);
  const held = await adapter.createOrder(request);
  const changed = await t.throwsAsync(adapter.payOrder(payment(request, held.orderId, '500.00')), { instanceOf: PriceChangedError });
  t.like(changed, { orderId: held.orderId, previousTotalAmount: '500.00', newTotalAmount: '512.46', currency: 'GBP' });
  t.like(await adapter.payOrder(payment(request, held.orderId)), { status: 'confirmed', amount: '512.46' });
});

test('an offer expired at booking is offer_expired; a price changed at verify is price_changed before anything is placed', async (t) => {
  const expired = await bookingCase.request(running, 'normal', randomUUID(), 'instant');
  const gone = await fetch(`${sandbox(running)}/v3.0/flights/offers/${MAGIC_OFFERS.expired}`, { headers: { 'x-api-key': 'liteapi_test_partner' } });
  const raw = (await jsonOf(gone)).data.offer;
  const error = await t.throwsAsync(adapterOf(running).createOrder({ ...expired, raw }), { instanceOf: GoneError });
  t.is(error?.code, 'offer_expired');

  const base = await bookingCase.request(running, 'nonRefundable', randomUUID(), 'instant');
  const risen = (await jsonOf(await provider(running, `offers/${MAGIC_OFFERS.priceChangeAtVerify}`))).data.offer;
  const changed = await t.throwsAsync(adapterOf(running).createOrder({ ...base, raw: risen }), { instanceOf: PriceChangedError });
  t.like(changed, { orderId: null, previousTotalAmount: '512.46', newTotalAmount: '534.81' });
});

test('a prebook slower than the booking timeout places nothing once the caller hung up', async (t) => {
  const request = await bookingCase.request(running, 'slow', randomUUID(), 'instant');
  await t.throwsAsync(adapterOf(running, { bookingTimeoutSeconds: 1 }).createOrder(request), { instanceOf: ProviderTimeoutError });
  await sleep(300);
  const rows = await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_e', reference: request.reference });
  t.deepEqual(rows, []);
});

test.serial('checkouts live in the database: a second instance reads, books and cancels what the first placed', async (t) => {
  now = new Date();
  const request = await bookingCase.request(running, 'nonRefundable', randomUUID(), 'instant');
  const held = await adapterOf(running).createOrder(request);
  t.like(await adapterOf(other).retrieveOrder(held.orderId), { orderId: held.orderId, status: 'held', amount: '512.46' });
  const paid = await adapterOf(other).payOrder(payment(request, held.orderId));
  t.like(await adapterOf(running).retrieveOrder(paid.orderId), { status: 'confirmed', pnr: paid.pnr });
  t.like(await adapterOf(running).cancelOrder(paid.orderId), { orderId: paid.orderId, refundAmount: null, refundCurrency: null });
  t.is((await adapterOf(other).retrieveOrder(paid.orderId)).status, 'cancelled');
});

test.serial('a prebook lapses at its expiration: it reads cancelled, and paying it is offer_expired', async (t) => {
  now = new Date();
  const request = await bookingCase.request(other, 'nonRefundable', randomUUID(), 'instant');
  const adapter = adapterOf(other);
  const held = await adapter.createOrder(request);
  t.is(held.paymentRequiredBy, new Date(Math.floor(now.getTime() / 1000) * 1000 + 30 * 60_000).toISOString(), 'thirty minutes to pay');
  now = new Date(now.getTime() + 31 * 60_000);
  t.like(await adapter.retrieveOrder(held.orderId), { status: 'cancelled', paymentRequiredBy: null });
  t.is((await jsonOf(await provider(other, `prebooks/${held.orderId}`))).data.status, 'EXPIRED');
  const lapsed = await t.throwsAsync(adapter.payOrder(payment(request, held.orderId)), { instanceOf: GoneError });
  t.is(lapsed?.code, 'offer_expired');
  const native = await provider(other, 'bookings', { body: { prebookId: held.orderId, payment: { method: 'CREDIT', amount: 512.46, currency: 'GBP' } } });
  t.is((await jsonOf(native)).error.code, 4042);
  // A lapsed prebook can still be cancelled: nothing was paid, nothing comes back.
  t.like(await adapter.cancelOrder(held.orderId), { orderId: held.orderId, refundAmount: null });
});

test('a cancelled prebook cannot be paid, and cancelling it again answers the same', async (t) => {
  const request = await bookingCase.request(running, 'normal', randomUUID(), 'instant');
  const adapter = adapterOf(running);
  const held = await adapter.createOrder(request);
  const cancelled = await adapter.cancelOrder(held.orderId);
  t.like(cancelled, { orderId: held.orderId, refundAmount: null });
  t.deepEqual(await adapter.cancelOrder(held.orderId), cancelled);
  t.is((await adapter.retrieveOrder(held.orderId)).status, 'cancelled');
  t.is((await t.throwsAsync(adapter.payOrder(payment(request, held.orderId)), { instanceOf: GoneError }))?.code, 'provider_order_cancelled');
});
