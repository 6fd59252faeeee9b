/**
 * Recovery after a crash (decisions §4 and §9): a service process is killed right after each step of the
 * saga (BOOKING_FAULT_AFTER, honoured only with NODE_ENV=test), on provider_c (an order held, then paid)
 * and provider_b (an instant order), and once on provider_d where the order then fails. Services on the
 * same database, their clock past the dead process's lease, recover: each booking ends confirmed or
 * failed, and the processor's and the provider sandbox's own rows agree with it (a capture only with a
 * paid order, an order only with a capture or cancelled, one intent and one order per booking, each step
 * recorded once). Two services recovering at once drive each booking once; a second pass changes nothing;
 * the traveler repeating the request reads the recovered booking.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { LEASE_MS } from '../core/bookings/saga.js';
import type { Clock } from '../core/clock.js';
import { toMinorUnits } from '../core/money/money.js';
import { loadConfig } from '../config.js';
import type { BookingPath } from './booking-contract/case.js';
import { startDyingService } from './helpers/booking-process.js';
import { book, booker, prepareBooking, type Booker, type PreparedBooking } from './helpers/bookings.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

interface Crash {
  providerId: string;
  /** The step after which the process dies. */
  step: string;
  path: BookingPath;
  /** Where recovery takes the booking: on (confirmed), or back (failed, compensated). */
  outcome: 'confirmed' | 'failed';
  /** The booking's status as the dead process left it. */
  leftAt: string;
  /** The statuses booking_events records, crash and recovery together: each step once. */
  events: string[];
  prepared?: PreparedBooking;
  bookingId?: string;
}

const HELD_THEN_PAID = ['pending', 'payment_authorized', 'booking_created', 'booking_created', 'payment_captured', 'confirmed'];
const INSTANT = ['pending', 'payment_authorized', 'booking_created', 'payment_captured', 'confirmed'];

/** The statuses the fault injection's step names leave a booking in. */
const LEFT_AT: Record<string, string> = {
  pending: 'pending',
  payment_authorized: 'payment_authorized',
  booking_created: 'booking_created',
  provider_paid: 'booking_created',
  payment_captured: 'payment_captured',
  confirmed: 'confirmed',
};

const crashes: Crash[] = [
  // provider_c holds the order, then is paid (OrderChange): every step of the saga.
  ...['pending', 'payment_authorized', 'booking_created', 'provider_paid', 'payment_captured', 'confirmed'].map((step) => ({
    providerId: 'provider_c',
    step,
    path: 'normal' as const,
    outcome: 'confirmed' as const,
    leftAt: LEFT_AT[step] as string,
    events: HELD_THEN_PAID,
  })),
  // provider_b's instant order is paid as it is placed (its booking_created is recorded as provider_paid):
  // recovery places it, or captures what it placed. Its other steps are provider_c's code paths, and
  // each child costs a whole service's start.
  ...['payment_authorized', 'provider_paid'].map((step) => ({
    providerId: 'provider_b',
    step,
    path: 'normal' as const,
    outcome: 'confirmed' as const,
    leftAt: LEFT_AT[step] as string,
    events: INSTANT,
  })),
  // Authorized, then dead; the provider fails the order recovery places: the authorization is voided.
  { providerId: 'provider_d', step: 'payment_authorized', path: 'providerError', outcome: 'failed', leftAt: 'payment_authorized', events: ['pending', 'payment_authorized', 'failed'] },
];

/** What the processor and the provider hold when the process dies right after each step. */
const LEFT_WITH: Record<string, { intent: string | null; order: 'held' | 'paid' | null }> = {
  pending: { intent: null, order: null },
  payment_authorized: { intent: 'requires_capture', order: null },
  booking_created: { intent: 'requires_capture', order: 'held' },
  provider_paid: { intent: 'requires_capture', order: 'paid' },
  payment_captured: { intent: 'succeeded', order: 'paid' },
  confirmed: { intent: 'succeeded', order: 'paid' },
};

let database: TestDatabase;
let running: RunningService;
let ada: Booker;
const dataEncryptionKey = `recovery:${randomBytes(32).toString('base64')}`;
/** The services' clock, moved past the dead processes' leases before recovering (no waiting). */
let ahead = 0;
const clock: Clock = { now: () => new Date(Date.now() + ahead) };

test.before(async () => {
  database = await createTestDatabase();
  running = await startService({ DATA_ENCRYPTION_KEY: dataEncryptionKey }, { database, clock, rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
  for (const crash of crashes) crash.prepared = await prepareBooking(running, ada, crash.providerId, crash.path);
});

test.after.always(async () => {
  await running?.close();
  await database?.drop();
});

const db = () => running.service.db.knex;
const bookingByKey = (crash: Crash) => db()('bookings').where({ user_id: ada.userId, idempotency_key: (crash.prepared as PreparedBooking).body.idempotency_key }).first();
const intentsOf = (bookingId: string) => db()('processor_sandbox_payment_intents').where({ description: `Flight booking ${bookingId}` });
/** provider_b and provider_c keep our booking id as the order's reference; provider_d prefixes its partner. */
const ordersOf = (providerId: string, bookingId: string) =>
  db()('flight_sandbox_orders')
    .where({ provider_id: providerId })
    .where((where) => where.where('reference', bookingId).orWhere('reference', 'like', `%:${bookingId}`));
/** A provider's own order status as paid, held or cancelled (each sandbox names them in its dialect). */
const orderState = (status: string) => (['confirmed', 'ticketed'].includes(status.toLowerCase()) ? 'paid' : status.toLowerCase());
const eventsOf = async (bookingId: string) => (await db()('booking_events').where({ booking_id: bookingId }).orderBy('id')).map((event: Json) => event.status);

test.serial('the fault injection is honoured only with NODE_ENV=test', (t) => {
  t.is(loadConfig({ NODE_ENV: 'development', BOOKING_FAULT_AFTER: 'payment_captured' }).bookingFaultAfter, undefined);
  t.is(loadConfig({ NODE_ENV: 'test', BOOKING_FAULT_AFTER: 'payment_captured' }).bookingFaultAfter, 'payment_captured');
  t.is(loadConfig({ NODE_ENV: 'test' }).bookingFaultAfter, undefined);
});

// One child at a time: each builds a whole service, and CI gives two cores to two test files.
for (const crash of crashes) {
  test.serial(`${crash.providerId}: the process dies right after ${crash.step}, leaving the booking there`, async (t) => {
    const child = await startDyingService(running, database.url, dataEncryptionKey, crash.step);
    try {
      const sent = book({ ...running, url: child.url }, ada, crash.providerId, (crash.prepared as PreparedBooking).body);
      const answered = await sent.then(
        (response) => response.status,
        () => undefined,
      );
      t.is(answered, undefined, `the request was answered instead of the process dying:\n${child.output()}`);
      t.is(await child.death, 'SIGKILL');
    } finally {
      child.dispose();
    }
    const row = await bookingByKey(crash);
    if (!row) return t.fail('no booking was stored before the process died');
    crash.bookingId = row.id;
    t.is(row.status, crash.leftAt);
    // The step that brings a booking to rest lets go of the lease in the same write.
    if (crash.leftAt === 'confirmed') t.is(row.lease_owner, null, 'the confirmed booking needs no lease');
    else t.not(row.lease_owner, null, 'the dead process still holds its lease');

    const left = LEFT_WITH[crash.step] as (typeof LEFT_WITH)[string];
    t.deepEqual((await intentsOf(row.id)).map((intent: Json) => intent.status), left.intent ? [left.intent] : []);
    t.deepEqual((await ordersOf(crash.providerId, row.id)).map((order: Json) => orderState(order.status)), left.order ? [left.order] : []);
  });
}

test.serial('two services recovering at once drive each abandoned booking once between them', async (t) => {
  // Past every lease the dead processes took.
  ahead = LEASE_MS + 60_000;
  const second = await startService({ DATA_ENCRYPTION_KEY: dataEncryptionKey }, { database, clock, rateLimitKeyPrefix: uniquePrefix() });
  try {
    const [first, other] = await Promise.all([running.service.recover(), second.service.recover()]);
    // A booking killed after `confirmed` needs nothing more: every other one was driven by exactly one service.
    t.is(first + other, crashes.filter((crash) => crash.leftAt !== 'confirmed').length);
  } finally {
    await second.close();
  }
});

for (const crash of crashes) {
  test.serial(`${crash.providerId} killed after ${crash.step}: recovered ${crash.outcome}, and the processor and the provider agree`, async (t) => {
    const bookingId = crash.bookingId as string;
    const row = await db()('bookings').where({ id: bookingId }).first();
    t.is(row.status, crash.outcome);
    t.is(row.lease_expires_at === null || crash.step === 'confirmed', true, 'recovery let the lease go');
    t.deepEqual(await eventsOf(bookingId), crash.events, 'each step recorded once, the crash’s and the recovery’s together');

    const intents = await intentsOf(bookingId);
    t.is(intents.length, 1, 'exactly one authorization');
    const [intent] = intents;
    const orders = await ordersOf(crash.providerId, bookingId);
    t.true(orders.length <= 1, 'at most one provider order');
    const total = toMinorUnits((crash.prepared as PreparedBooking).order.amount, (crash.prepared as PreparedBooking).order.currency);

    if (crash.outcome === 'confirmed') {
      t.is(intent.id, row.payment_intent_id);
      t.is(intent.status, 'succeeded');
      t.is(BigInt(intent.amount_received), total, 'captured exactly the total, once');
      t.is(BigInt(row.amount_minor), total);
      t.is(orders.length, 1);
      t.is(orders[0].id, row.provider_order_id);
      t.is(orderState(orders[0].status), 'paid');
      t.is(row.provider_status, 'confirmed');
      t.regex(row.airline_pnr ?? '', /^[A-Z0-9]{6}$/);
    } else {
      t.is(intent.status, 'canceled', 'the authorization is voided');
      t.is(Number(intent.amount_received), 0, 'nothing was captured');
      for (const order of orders) t.is(order.status.toLowerCase(), 'cancelled', 'no order is left without payment');
      t.is(row.failure.code, 'provider_unavailable');
    }

    // The traveler repeats the request the dead process never answered: the recovered booking.
    const repeat = await book(running, ada, crash.providerId, (crash.prepared as PreparedBooking).body);
    const answer = await jsonOf(repeat);
    if (crash.outcome === 'confirmed') {
      t.is(repeat.status, 200, JSON.stringify(answer));
      t.like(answer.booking, { id: bookingId, status: 'confirmed', payment_intent_id: intent.id, provider_order_id: row.provider_order_id, total_amount: Number((crash.prepared as PreparedBooking).order.amount) });
    } else {
      t.is(repeat.status, 502, JSON.stringify(answer));
      t.is(answer.code, 'provider_unavailable');
    }
  });
}

test.serial('a second recovery pass changes nothing', async (t) => {
  const ids = crashes.map((crash) => crash.bookingId as string);
  const snapshot = async () => ({
    bookings: await db()('bookings').whereIn('id', ids).orderBy('id').select('id', 'status', 'provider_status', 'payment_intent_id', 'provider_order_id', 'lease_owner', 'updated_at'),
    events: Number((await db()('booking_events').whereIn('booking_id', ids).count({ n: '*' }).first())?.n),
    intents: await db()('processor_sandbox_payment_intents').orderBy('id').select('id', 'status', 'amount_received'),
    refunds: Number((await db()('processor_sandbox_refunds').count({ n: '*' }).first())?.n),
    orders: await db()('flight_sandbox_orders').orderBy(['provider_id', 'id']).select('provider_id', 'id', 'status', 'updated_at'),
  });
  const before = await snapshot();
  t.is(await running.service.recover(), 0);
  t.deepEqual(await snapshot(), before);
});

test.serial('a repeat of the request drives on a booking whose process died, before any recovery pass', async (t) => {
  // The clock is past the lease from the start: the repeat finds the dead process's lease lapsed at once.
  ahead = LEASE_MS + 60_000;
  const prepared = await prepareBooking(running, ada, 'provider_c');
  const child = await startDyingService(running, database.url, dataEncryptionKey, 'booking_created');
  try {
    const answered = await book({ ...running, url: child.url }, ada, 'provider_c', prepared.body).then(
      (response) => response.status,
      () => undefined,
    );
    t.is(answered, undefined, child.output());
    t.is(await child.death, 'SIGKILL');
  } finally {
    child.dispose();
  }

  const repeat = await book(running, ada, 'provider_c', prepared.body);
  const answer = await jsonOf(repeat);
  t.is(repeat.status, 200, JSON.stringify(answer));
  t.is(answer.booking.status, 'confirmed');
  const bookingId = answer.booking.id;
  t.deepEqual(await eventsOf(bookingId), HELD_THEN_PAID);
  const intents = await intentsOf(bookingId);
  t.deepEqual(
    intents.map((intent: Json) => [intent.status, BigInt(intent.amount_received)]),
    [['succeeded', toMinorUnits(prepared.order.amount, prepared.order.currency)]],
  );
  t.deepEqual((await ordersOf('provider_c', bookingId)).map((order: Json) => [order.id, orderState(order.status)]), [[answer.booking.provider_order_id, 'paid']]);
  t.is(await running.service.recover(), 0, 'nothing was left for the recovery pass');
});
