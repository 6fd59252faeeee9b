/**
 * The booking contract: the same outcomes on every provider, each adapter ordering at its own sandbox over
 * real HTTP, on the magic values each case (test/booking-contract/<provider>.ts) steers by. Placed and
 * confirmed with a PNR (tickets and seats where the provider gives them); the same reference books once;
 * sold out, invalid passenger, a price changed at booking, a 5xx and an answer slower than
 * `booking_timeout_seconds` become the same domain errors everywhere; a hold is paid later; a cancel says
 * the refund the provider grants, or none.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import test from 'ava';
import { PriceChangedError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError } from '../core/errors.js';
import type { FlightProvider, ProviderOrder } from '../core/flights/flight-provider.js';
import type { BookingCase } from './booking-contract/case.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

/** Words the sandboxes use that must never reach a caller. */
const VENDOR_WORDS = /SEGMENT SELL|SYSTEM ERROR|Offer no longer available|No available flights|Internal server error|Expired booking token|not found or expired|no availability|unauthori[sz]ed|apikey|invalid_authentication/i;
const SLOW_TIMEOUT_SECONDS = 2;

const CASES: BookingCase[] = [];
for (const file of fs.readdirSync(new URL('./booking-contract/', import.meta.url)).sort()) {
  // provider-a.ts in the sources, provider-a.js (beside its .js.map) in the build that the tests run from.
  if (!/^provider-[a-e]\.[jt]s$/.test(file)) continue;
  CASES.push(((await import(`./booking-contract/${file}`)) as { bookingCase: BookingCase }).bookingCase);
}

let running: RunningService;
test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

for (const contract of CASES) {
  const id = contract.providerId;
  const adapter = (timeoutSeconds?: number): FlightProvider => {
    const capabilities = running.service.providers.capabilities(id);
    return contract.adapter(running, timeoutSeconds ? { ...capabilities, booking_timeout_seconds: timeoutSeconds } : capabilities);
  };
  /** Places the order, and pays it where the provider holds it first: what an instant booking does. */
  const placeAndPay = async (path: 'normal' | 'nonRefundable') => {
    const request = await contract.request(running, path, randomUUID(), 'instant');
    const placed = await adapter().createOrder(request);
    const order = placed.status === 'held' ? await adapter().payOrder({ orderId: placed.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency }) : placed;
    return { request, placed, order };
  };

  test(`${id}: an order is placed and confirmed with a PNR, and reads back the same`, async (t) => {
    const { request, order } = await placeAndPay('normal');
    t.is(order.status, 'confirmed');
    t.regex(order.pnr ?? '', /^[A-Z0-9]{6}$/);
    t.is(order.currency, request.currency);
    t.is(order.amount, request.amount, 'the provider was paid exactly the agreed total');
    const read = await adapter().retrieveOrder(order.orderId);
    t.like(read, { orderId: order.orderId, status: 'confirmed', pnr: order.pnr, amount: order.amount });
    t.deepEqual(read.tickets, order.tickets);
    for (const ticket of order.tickets) t.true(request.passengers.some((passenger) => passenger.providerPassengerId === ticket.providerPassengerId));
    for (const seat of request.seats) t.true(read.seats.some((held) => held.seatNumber === seat.seatNumber && held.providerPassengerId === seat.providerPassengerId), `seat ${seat.seatNumber} is held`);
  });

  test(`${id}: the same reference places one order`, async (t) => {
    const request = await contract.request(running, 'normal', randomUUID(), 'instant');
    const [first, second] = await Promise.all([adapter().createOrder(request), adapter().createOrder(request)]);
    t.is(first.orderId, second.orderId);
    const third = await adapter().createOrder(request);
    t.is(third.orderId, first.orderId);
  });

  test(`${id}: a hold is held until paid, then confirmed; paying twice answers the paid order`, async (t) => {
    if (!running.service.providers.capabilities(id).supports_hold_booking) {
      t.pass('no holds');
      return;
    }
    const request = await contract.request(running, 'normal', randomUUID(), 'hold');
    const held = await adapter().createOrder(request);
    t.is(held.status, 'held');
    t.true(Date.parse(held.paymentRequiredBy ?? '') > Date.now(), 'a hold says until when it can be paid');
    t.is((await adapter().retrieveOrder(held.orderId)).status, 'held');
    const payment = { orderId: held.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency };
    const paid = await adapter().payOrder(payment);
    t.is(paid.status, 'confirmed');
    const again = await adapter().payOrder({ ...payment, orderId: paid.orderId });
    t.is(again.status, 'confirmed');
    t.is(again.orderId, paid.orderId);
  });

  test(`${id}: sold out is offer_no_longer_available, in our words`, async (t) => {
    const error = await t.throwsAsync(placeWith('soldOut'), { instanceOf: ProviderRejectedError });
    t.is(error?.code, 'offer_no_longer_available');
    t.notRegex(error?.message ?? '', VENDOR_WORDS);
  });

  test(`${id}: an invalid passenger is invalid_passenger, naming no vendor words`, async (t) => {
    const error = await t.throwsAsync(placeWith('invalidPassenger'), { instanceOf: ProviderRejectedError });
    t.is(error?.code, 'invalid_passenger');
    t.notRegex(error?.message ?? '', VENDOR_WORDS);
  });

  test(`${id}: a price changed at booking is price_changed with both totals; with an order id, the order is paid at the new total`, async (t) => {
    const request = await contract.request(running, 'priceChangedAtBooking', randomUUID(), 'instant');
    let changed: PriceChangedError | undefined;
    let placed: ProviderOrder | undefined;
    try {
      placed = await adapter().createOrder(request);
      if (placed.status === 'held') await adapter().payOrder({ orderId: placed.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency });
    } catch (error) {
      if (error instanceof PriceChangedError) changed = error;
      else throw error;
    }
    if (!changed) return t.fail('the price change was not said');
    t.is(changed.code, 'price_changed');
    t.is(changed.previousTotalAmount, request.amount);
    t.is(changed.currency, request.currency);
    t.not(changed.newTotalAmount, changed.previousTotalAmount);
    if (changed.orderId === null) return;
    const paid = await adapter().payOrder({ orderId: changed.orderId, reference: request.reference, raw: request.raw, amount: changed.newTotalAmount, currency: changed.currency });
    t.is(paid.status, 'confirmed');
    t.is(paid.amount, changed.newTotalAmount);
  });

  test(`${id}: a provider error at booking is provider_unavailable`, async (t) => {
    const error = await t.throwsAsync(placeWith('providerError'), { instanceOf: ProviderUnavailableError });
    t.notRegex(error?.message ?? '', VENDOR_WORDS);
  });

  test(`${id}: an answer slower than booking_timeout_seconds is provider_timeout at that timeout`, async (t) => {
    const started = Date.now();
    const error = await t.throwsAsync(placeWith('slow', SLOW_TIMEOUT_SECONDS), { instanceOf: ProviderTimeoutError });
    const waited = Date.now() - started;
    t.regex(error?.message ?? '', new RegExp(`within ${SLOW_TIMEOUT_SECONDS} s`));
    // Well before the sandbox's slow answer (past the real booking_timeout_seconds, 30 s or more), even on
    // a machine busy with other test files.
    t.true(waited >= SLOW_TIMEOUT_SECONDS * 1000 - 200 && waited < SLOW_TIMEOUT_SECONDS * 1000 + 6000, `gave up after ${waited} ms`);
  });

  test(`${id}: a cancel refunds what the fare allows, and says so; cancelling again answers the same`, async (t) => {
    const { order } = await placeAndPay('normal');
    const cancelled = await adapter().cancelOrder(order.orderId);
    t.is(cancelled.orderId, order.orderId);
    t.truthy(cancelled.refundAmount, 'a refundable fare refunds something');
    t.is(cancelled.refundCurrency, order.currency);
    t.true(Number(cancelled.refundAmount) <= Number(order.amount));
    t.is((await adapter().retrieveOrder(order.orderId)).status, 'cancelled');
    t.deepEqual(await adapter().cancelOrder(order.orderId), cancelled);
  });

  test(`${id}: a cancel of a non-refundable fare refunds nothing`, async (t) => {
    const { order } = await placeAndPay('nonRefundable');
    const cancelled = await adapter().cancelOrder(order.orderId);
    t.is(cancelled.refundAmount, null);
    t.is((await adapter().retrieveOrder(order.orderId)).status, 'cancelled');
  });

  test(`${id}: an unknown order is provider_order_not_found`, async (t) => {
    const error = await t.throwsAsync(adapter().retrieveOrder('no-such-order-0000'));
    t.is((error as { code?: string }).code, 'provider_order_not_found');
  });

  /** Places (and pays where needed) an order on `path`: the failure comes from whichever step has it. */
  async function placeWith(path: 'soldOut' | 'invalidPassenger' | 'providerError' | 'slow', timeoutSeconds?: number): Promise<ProviderOrder> {
    const request = await contract.request(running, path, randomUUID(), 'instant');
    const placed = await adapter(timeoutSeconds).createOrder(request);
    if (placed.status !== 'held') return placed;
    return adapter(timeoutSeconds).payOrder({ orderId: placed.orderId, reference: request.reference, raw: request.raw, amount: request.amount, currency: request.currency });
  }
}

test('every provider has its booking case', (t) => {
  t.deepEqual(
    CASES.map((item) => item.providerId),
    ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'],
  );
});
