/**
 * A booking request is checked against its offer and the traveler's card before anything is stored or
 * charged (decisions §4): a hold where the provider holds nothing, a currency that is not the offer's,
 * passengers that are not the offer's (count, type), a seat not in the seat map, another traveler's card
 * and a legacy card each answer their status and code, and leave no booking and no authorization.
 */
import test, { type ExecutionContext } from 'ava';
import { runAdminCommand } from '../admin/commands.js';
import { bookingByKey } from './helpers/booking-records.js';
import { book, booker, prepareBooking, type Booker } from './helpers/bookings.js';
import { jsonOf, type Json } from './helpers/http.js';
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

/** Books `body` as `who`, and asserts that nothing was stored under its key: no booking, so no authorization. */
async function refused(t: ExecutionContext, who: Booker, providerId: string, body: Json): Promise<{ status: number; answer: Json }> {
  const response = await book(running, who, providerId, body);
  const answer = await jsonOf(response);
  t.is(await bookingByKey(running, who.userId, body.idempotency_key), undefined, 'nothing was stored, nothing authorized');
  return { status: response.status, answer };
}

test('a hold where the provider holds nothing (provider_e): 422 hold_not_supported', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_e', 'nonRefundable', { type: 'hold' });
  const { status, answer } = await refused(t, ada, 'provider_e', body);
  t.is(status, 422, JSON.stringify(answer));
  t.is(answer.code, 'hold_not_supported');
});

test('a currency that is not the offer’s: 400, on the currency field', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_b', 'nonRefundable');
  t.is(body.currency, 'GBP');
  const { status, answer } = await refused(t, ada, 'provider_b', { ...body, currency: 'EUR' });
  t.is(status, 400, JSON.stringify(answer));
  t.is(answer.code, 'validation_error');
  t.is(answer.fields.currency?.rule, 'offer_currency');
});

test('fewer passengers than the offer’s: 400, on passengers', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_c', 'nonRefundable');
  t.is(body.passengers.length, 4);
  const { status, answer } = await refused(t, ada, 'provider_c', { ...body, passengers: body.passengers.slice(0, 3) });
  t.is(status, 400, JSON.stringify(answer));
  t.is(answer.fields.passengers?.rule, 'offer_passengers');
});

test('a passenger whose age is not their type in the offer (an adult born last decade): 400, on born_on', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_c', 'nonRefundable');
  const passengers = body.passengers.map((passenger: Json) => (passenger.provider_passenger_id === 'ADULT_1' ? { ...passenger, born_on: '2018-01-01' } : passenger));
  const { status, answer } = await refused(t, ada, 'provider_c', { ...body, passengers });
  t.is(status, 400, JSON.stringify(answer));
  const index = passengers.findIndex((passenger: Json) => passenger.provider_passenger_id === 'ADULT_1');
  t.is(answer.fields[`passengers.${index}.born_on`]?.rule, 'passenger_type');
});

test('a seat not in the offer’s seat map: 400, on the seat', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_b', 'normal');
  t.true(body.seat_selections.length > 0);
  const seats = body.seat_selections.map((seat: Json, index: number) => (index === 0 ? { ...seat, seat_number: '99Z' } : seat));
  const { status, answer } = await refused(t, ada, 'provider_b', { ...body, seat_selections: seats });
  t.is(status, 400, JSON.stringify(answer));
  t.is(answer.fields['seat_selections.0.seat_number']?.rule, 'available_seat');
});

test('another traveler’s card (same partner): 404, nothing charged to it', async (t) => {
  const grace = await booker(running, ada.partner);
  const { body } = await prepareBooking(running, ada, 'provider_b', 'nonRefundable');
  const { status, answer } = await refused(t, ada, 'provider_b', { ...body, payment_method_id: grace.cardId });
  t.is(status, 404, JSON.stringify(answer));
  t.like(answer, { status_code: 404, code: 'payment_method_not_found' });
});

test('a legacy card (imported, no vault token): 422 payment_method_not_chargeable', async (t) => {
  const traveler = await booker(running, ada.partner);
  const legacy = (await runAdminCommand(
    ['payment-method', 'import-legacy', '--user', traveler.userId, '--brand', 'amex', '--last4', '0005', '--exp-month', '3', '--exp-year', '2031'],
    { partners: running.service.partners, clients: running.service.partnerClients, paymentMethods: running.service.paymentMethods },
  )) as { id: string };
  const { body } = await prepareBooking(running, traveler, 'provider_b', 'nonRefundable');
  const { status, answer } = await refused(t, traveler, 'provider_b', { ...body, payment_method_id: legacy.id });
  t.is(status, 422, JSON.stringify(answer));
  t.is(answer.code, 'payment_method_not_chargeable');
});
