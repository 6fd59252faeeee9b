/**
 * Idempotency of createProviderBooking (decisions §4), on PostgreSQL over real HTTP: a hundred identical
 * requests at once make one booking, one provider order and one capture, and every answer carries that
 * booking (one 201, the others 200 with the same body); the key with another body is 409
 * `idempotency_conflict` and moves no money; a key is the traveler's own, so another traveler's same key
 * is another booking.
 */
import test from 'ava';
import { toMinorUnits } from '../core/money/money.js';
import { book, booker, prepareBooking, type Booker } from './helpers/bookings.js';
import type { Json } from './helpers/http.js';
import { createPartnerClient, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partner: PartnerClient;
let ada: Booker;
let grace: Booker;

const CONCURRENT = 100;

test.before(async () => {
  // The default pool (10 connections) serves all hundred requests: waiting repeats poll, they hold none.
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  // A hundred requests in the same instant are over the default plan's burst: a plan that lets them in.
  await running.service.partners.setPlan({ id: 'idempotency-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  partner = await createPartnerClient(running, 'Idempotent Air', 'idempotency-tests');
  [ada, grace] = await Promise.all([booker(running, partner), booker(running, partner)]);
});
test.after.always(async () => {
  await running?.close();
});

/** The provider sandbox's orders placed for a booking: referenced by its id (provider_d's prefixed with the account). */
const orders = (bookingId: string) =>
  running.service.db.knex('flight_sandbox_orders').where((where) => where.where('reference', bookingId).orWhere('reference', 'like', `%:${bookingId}`));
const intentsOf = (bookingId: string) => running.service.db.knex('processor_sandbox_payment_intents').where({ description: `Flight booking ${bookingId}` });

/** Everything the answer says, as text: the 200s must say exactly what the 201 said. */
async function answer(response: Response): Promise<{ status: number; text: string; body: Json }> {
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

test(`${CONCURRENT} concurrent identical requests: one booking, one provider order, one capture; one 201 and ${CONCURRENT - 1} 200s with its body`, async (t) => {
  const { order, body } = await prepareBooking(running, ada, 'provider_b');
  const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => book(running, ada, 'provider_b', body).then(answer)));

  const statuses = answers.map((each) => each.status);
  t.is(statuses.filter((status) => status === 201).length, 1, `statuses: ${JSON.stringify(statuses)}`);
  t.is(statuses.filter((status) => status === 200).length, CONCURRENT - 1, `statuses: ${JSON.stringify(statuses)}`);
  const first = answers.find((each) => each.status === 201) as { text: string; body: Json };
  t.is(first.body.status, 'confirmed', first.text);
  const bookingId: string = first.body.booking.id;
  for (const each of answers) t.is(each.text, first.text, 'every repeat answers the first booking, byte for byte');

  const rows = await running.service.db.knex('bookings').where({ user_id: ada.userId, idempotency_key: body.idempotency_key });
  t.is(rows.length, 1, 'one booking row');
  t.is((await orders(bookingId)).length, 1, 'one provider order, referenced by the booking');
  const intents = await intentsOf(bookingId);
  t.is(intents.length, 1, 'one authorization');
  t.is(intents[0].status, 'succeeded');
  t.is(BigInt(intents[0].amount_received), toMinorUnits(order.amount, order.currency), 'captured once, exactly the total');
  t.is(intents[0].id, first.body.payment_intent_id);
});

test('a repeat after the booking is done answers 200 with the same body; fields the server ignores do not make it another request', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_d');
  const created = await answer(await book(running, ada, 'provider_d', body));
  t.is(created.status, 201, created.text);
  const again = await answer(await book(running, ada, 'provider_d', body));
  t.is(again.status, 200);
  t.is(again.text, created.text);
  // provider_id is taken from the path and customer_id ignored: sending them is the same request.
  const decorated = await answer(await book(running, ada, 'provider_d', { ...body, provider_id: 'provider_d', customer_id: 'cus_123' }));
  t.is(decorated.status, 200, decorated.text);
  t.is(decorated.text, created.text);
  // The same fields in another order are the same request too.
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  t.is((await answer(await book(running, ada, 'provider_d', reordered))).text, created.text);
  t.is((await orders(created.body.booking.id)).length, 1);
  t.is((await intentsOf(created.body.booking.id)).length, 1);
});

test('the same key with another body is 409 idempotency_conflict: nothing new is stored, authorized or ordered', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_b');
  const created = await answer(await book(running, ada, 'provider_b', body));
  t.is(created.status, 201, created.text);
  const bookingId: string = created.body.booking.id;
  const other = await prepareBooking(running, ada, 'provider_b');

  const variants: [string, Json, string][] = [
    ['another offer', { ...other.body, idempotency_key: body.idempotency_key }, 'provider_b'],
    ['another contact e-mail', { ...body, contact_info: { ...body.contact_info, email: 'someone.else@example.com' } }, 'provider_b'],
    ['metadata added', { ...body, metadata: { cart: '42' } }, 'provider_b'],
    ['another passenger name', { ...body, passengers: [{ ...body.passengers[0], first_name: 'Augusta' }, ...body.passengers.slice(1)] }, 'provider_b'],
    ['another provider in the path', body, 'provider_d'],
  ];
  for (const [what, sent, providerId] of variants) {
    const refused = await answer(await book(running, ada, providerId, sent));
    t.is(refused.status, 409, `${what}: ${refused.text}`);
    t.like(refused.body, { code: 'idempotency_conflict', status_code: 409 }, what);
    t.true(refused.body.message.includes(bookingId), `${what}: the message names the booking the key made`);
  }
  t.is((await running.service.db.knex('bookings').where({ user_id: ada.userId, idempotency_key: body.idempotency_key })).length, 1);
  t.is((await orders(bookingId)).length, 1);
  t.is((await intentsOf(bookingId)).length, 1);
  t.is((await orders(other.body.offer_id)).length, 0);
  // The first body still answers the first booking.
  const again = await answer(await book(running, ada, 'provider_b', body));
  t.is(again.status, 200);
  t.is(again.text, created.text);
});

test('another traveler of the same partner with the same key makes a booking of their own; the key reveals nothing of the first', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_b');
  const adas = await answer(await book(running, ada, 'provider_b', body));
  t.is(adas.status, 201, adas.text);

  // Ada's very request sent with Grace's token: no replay of Ada's booking, no conflict either; the offer
  // is Ada's since she booked it (decisions §2), so Grace cannot reach it.
  const copied = await answer(await book(running, grace, 'provider_b', body));
  t.is(copied.status, 404, copied.text);
  t.is(copied.body.code, 'offer_not_found');
  t.false(copied.text.includes(adas.body.booking.id));

  const own = await prepareBooking(running, grace, 'provider_b', 'normal', { key: body.idempotency_key });
  const graces = await answer(await book(running, grace, 'provider_b', own.body));
  t.is(graces.status, 201, graces.text);
  t.not(graces.body.booking.id, adas.body.booking.id);
  t.like(graces.body.booking, { user_id: grace.userId, payment_method_id: grace.cardId, idempotency_key: body.idempotency_key, status: 'confirmed' });
  t.is((await orders(graces.body.booking.id)).length, 1);
  const [graceIntent] = await intentsOf(graces.body.booking.id);
  const [adaIntent] = await intentsOf(adas.body.booking.id);
  t.truthy(graceIntent);
  t.not(graceIntent.id, adaIntent.id, 'each traveler charged once, separately');
  // Each traveler's repeat answers their own booking.
  t.is((await answer(await book(running, ada, 'provider_b', body))).text, adas.text);
  t.is((await answer(await book(running, grace, 'provider_b', own.body))).text, graces.text);
});
