/**
 * The booking benchmark measures what it says: its baseline makes the very calls a provider_b booking
 * makes of the sandboxes (one authorization captured for the same amount on the same card, one order of
 * the same passengers at the same total), and a booking or a load run that fails is never timed.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { toMinorUnits } from '../core/money/money.js';
import { createOffer, sandboxBooking, serviceBooking, type BenchTraveler, type BookingTarget } from '../bench/booking-calls.js';
import { percentile, underLoad } from '../bench/load.js';
import { booker, intentRecord, sandboxOrder } from './helpers/bookings.js';
import { vaultToken } from './helpers/cards.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let target: BookingTarget;
let traveler: BenchTraveler;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  const grace = await booker(running);
  traveler = { token: grace.token, cardId: grace.cardId, vaultToken: await vaultToken(running, grace.browser) };
  const provider = running.config.providerB as BookingTarget['provider'];
  const offer = await fetch(`${provider.url}/air/offers/off_0000AuPyAJY1KPrmYbBxIm`, { headers: { authorization: `Bearer ${provider.token}`, 'duffel-version': 'v2' } });
  target = {
    url: running.url,
    apiKey: grace.partner.apiKey,
    processor: running.config.processor as BookingTarget['processor'],
    provider,
    nativeOffer: ((await offer.json()) as { data: Record<string, unknown> }).data,
  };
});
test.after.always(async () => {
  await running?.close();
});

const rowCount = async (table: string) => Number((await running.service.db.knex(table).count({ n: '*' }).first())?.n);

test('the baseline makes the booking’s own sandbox calls: one capture of the same amount, one order of the same passengers and total', async (t) => {
  const intentsBefore = await rowCount('processor_sandbox_payment_intents');
  const ordersBefore = await rowCount('flight_sandbox_orders');
  const direct = await sandboxBooking(target, traveler, randomUUID());
  t.is(await rowCount('processor_sandbox_payment_intents'), intentsBefore + 1);
  t.is(await rowCount('flight_sandbox_orders'), ordersBefore + 1);

  const booking = await serviceBooking(target, traveler, await createOffer(target), randomUUID());
  t.is(await rowCount('processor_sandbox_payment_intents'), intentsBefore + 2, 'the booking authorized once');
  t.is(await rowCount('flight_sandbox_orders'), ordersBefore + 2, 'the booking ordered once');

  const [directIntent, bookedIntent] = [await intentRecord(running, direct.intentId), await intentRecord(running, booking.payment_intent_id)];
  for (const intent of [directIntent, bookedIntent]) t.like(intent, { status: 'succeeded', capture_method: 'manual', card_last4: '4242' });
  t.is(BigInt(directIntent.amount_received), toMinorUnits(String(target.nativeOffer.total_amount), String(target.nativeOffer.total_currency)), 'the offer’s total');
  t.is(directIntent.amount_received, bookedIntent.amount_received, 'the same amount captured');
  t.is(directIntent.currency, bookedIntent.currency);

  const [directOrder, bookedOrder] = [await sandboxOrder(running, 'provider_b', direct.orderId), await sandboxOrder(running, 'provider_b', booking.provider_order_id)];
  t.is(directOrder.status, bookedOrder.status);
  t.is(directOrder.document.offerId, bookedOrder.document.offerId);
  t.is(directOrder.document.order.total_amount, bookedOrder.document.order.total_amount);
  const people = (order: typeof directOrder) =>
    order.document.order.passengers.map((passenger: Record<string, unknown>) => [passenger.id, passenger.given_name, passenger.family_name, passenger.born_on]);
  t.deepEqual(people(directOrder), people(bookedOrder), 'the same passengers, as the adapter sends them');
});

test('a booking that is not confirmed throws instead of being timed', async (t) => {
  await t.throwsAsync(serviceBooking(target, traveler, randomUUID(), randomUUID()), { message: /^not booked: 404/ });
});

test('under load, each worker runs its operations one after another; failures are counted apart from the times', async (t) => {
  const busy = new Set<number>();
  let overlapped = false;
  let mostAtOnce = 0;
  const result = await underLoad(3, 4, async (worker, index) => {
    if (busy.has(worker)) overlapped = true;
    busy.add(worker);
    mostAtOnce = Math.max(mostAtOnce, busy.size);
    await sleep(20);
    busy.delete(worker);
    if (worker === 1 && index === 2) throw new Error('declined');
  });
  t.false(overlapped, 'a worker starts its next operation only when the last one ended');
  t.is(mostAtOnce, 3, 'the workers run at once');
  t.is(result.millis.length, 11);
  t.deepEqual(result.failures, ['declined']);
  t.true(result.millis.every((ms) => ms >= 19));
  t.true(result.wallMs >= 4 * 19);
});

test('percentiles are nearest-rank', (t) => {
  const values = Array.from({ length: 200 }, (_, index) => 200 - index);
  t.is(percentile(values, 50), 100);
  t.is(percentile(values, 99), 198);
  t.is(percentile(values, 100), 200);
  t.is(percentile([7], 99), 7);
  t.true(Number.isNaN(percentile([], 50)));
});
