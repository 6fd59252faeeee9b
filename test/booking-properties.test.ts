/**
 * Property tests of the booking routes, as a careless or hostile partner calls them: random, boundary
 * and hostile bodies on createProviderBooking, retryProviderBooking and cancelProviderBooking (valid
 * requests with one field broken among them, so that the checks against the offer are reached too), and
 * random path and query values on the read routes (ids, providers, `me`, `status`, `limit`, cursors that
 * decode to odd dates). Every answer is a success or one of the error envelopes: never a 5xx.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import fc from 'fast-check';
import { book, booker, prepareBooking, type Booker, type PreparedBooking } from './helpers/bookings.js';
import { asPartner } from './helpers/cards.js';
import { answersInOurEnvelope, deeplyNested, hostileText } from './helpers/hostile.js';
import { jsonOf, type Json } from './helpers/http.js';
import { createPartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let ada: Booker;
/** A traveler of the same partner: their card and bookings are not Ada's. */
let bob: Booker;
/** Ada's confirmed provider_d booking and the request that made it. */
let booked: { id: string; orderId: string; prepared: PreparedBooking };
/** An offer of Ada's not yet booked: broken requests for it reach the checks against the offer. */
let fresh: PreparedBooking;
/** Ada's sold-out attempt (failed) and Ada's cancelled booking. */
let failedId: string;
let cancelledId: string;

const PROVIDERS = ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'];

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  // The properties send their requests as fast as they can: a plan that lets them.
  await running.service.partners.setPlan({ id: 'booking-properties', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  const partner = await createPartnerClient(running, 'Property Air', 'booking-properties');
  [ada, bob] = await Promise.all([booker(running, partner), booker(running, partner)]);
  const prepared = await prepareBooking(running, ada, 'provider_d');
  const created = await jsonOf(await book(running, ada, 'provider_d', prepared.body));
  booked = { id: created.booking.id, orderId: created.booking.provider_order_id, prepared };
  fresh = await prepareBooking(running, ada, 'provider_d');
  const soldOut = await prepareBooking(running, ada, 'provider_b', 'soldOut');
  await book(running, ada, 'provider_b', soldOut.body);
  failedId = (await running.service.db.knex('bookings').where({ user_id: ada.userId, idempotency_key: soldOut.body.idempotency_key }).first()).id;
  const toCancel = await prepareBooking(running, ada, 'provider_b');
  cancelledId = (await jsonOf(await book(running, ada, 'provider_b', toCancel.body))).booking.id;
  const cancelled = await asPartner(running, ada, `/v1/flights/providers/provider_b/bookings/${cancelledId}`, { method: 'DELETE' });
  if (cancelled.status !== 200) throw new Error(`not cancelled: ${cancelled.status}`);
});
test.after.always(async () => {
  await running?.close();
});

/** Text at and past the schemas' edges, and values of the wrong type. */
const boundaryText = fc.constantFrom(
  '', ' ', 'me', 'a', 'x'.repeat(40), 'x'.repeat(41), 'x'.repeat(100), 'x'.repeat(101), 'x'.repeat(255), 'x'.repeat(256), 'x'.repeat(501), 'key with spaces',
  'GBP', 'gbp', 'XXX', 'EUR', '1985-12-10', '2016-05-01', '0000-01-01', '2026-02-30', '9999-12-31', '2099-01-01', 'ADULT_1', 'CHILD_1', 'passenger_0',
  'adult', 'child', 'infant', 'infant_without_seat', 'hold', 'instant', 'mr', 'ms', '14C', '999Z', '+447700900123', '+1', 'ada@example.com', 'not-an-email',
  '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '__proto__', 'constructor',
);
const scalar = fc.oneof(
  { weight: 3, arbitrary: hostileText(80) },
  { weight: 3, arbitrary: boundaryText },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1, 9, 10, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, true, false, null) },
  { weight: 1, arbitrary: fc.uuid() },
);
const anyValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileText(12), scalar, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom([], {}, Array.from({ length: 10 }, () => ({})), Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`k${index}`, 'v']))) },
  { weight: 1, arbitrary: deeplyNested() },
);

/** The fields a valid request has, each a path into it: one of them is replaced or dropped. */
const FIELD_PATHS = [
  ['offer_id'], ['passengers'], ['passengers', 0], ['passengers', 0, 'provider_passenger_id'], ['passengers', 0, 'first_name'], ['passengers', 0, 'last_name'],
  ['passengers', 0, 'born_on'], ['passengers', 0, 'type'], ['passengers', 0, 'traveler_type'], ['passengers', 0, 'identity_documents'],
  ['passengers', 0, 'identity_documents', 0, 'expires_on'], ['passengers', 1, 'born_on'], ['passengers', 1, 'provider_passenger_id'], ['contact_info'],
  ['contact_info', 'email'], ['contact_info', 'phone_number'], ['payment_method_id'], ['currency'], ['user_id'], ['idempotency_key'], ['metadata'],
  ['services'], ['services', 0, 'id'], ['services', 0, 'quantity'], ['order_type'], ['seat_selections'], ['provider_id'], ['customer_id'], ['order_id'], ['unknown_field'],
  ['expected_total'],
] as const;

/** `body` with the value at `path` replaced (or, for `undefined`, removed). */
function broken(body: Json, path: readonly (string | number)[], value: Json | undefined): Json {
  const copy = structuredClone(body);
  let parent = copy;
  for (const step of path.slice(0, -1)) {
    if (parent?.[step] === undefined || parent[step] === null || typeof parent[step] !== 'object') return copy;
    parent = parent[step];
  }
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** A request body: a valid one with one field broken (its key new, used, or Ada's booked one), or anything at all. */
function bookingBody(): fc.Arbitrary<Json> {
  const key = fc.constantFrom('new', 'booked');
  const oneBroken = fc
    .tuple(fc.constantFrom('fresh', 'booked'), fc.constantFrom(...FIELD_PATHS), fc.option(anyValue, { nil: undefined, freq: 5 }), key)
    .map(([which, path, value, keyKind]) => {
      const template = which === 'fresh' ? fresh.body : booked.prepared.body;
      // A new key reaches the checks against the offer; the booked key is answered by idempotency.
      const withKey = { ...template, idempotency_key: keyKind === 'booked' ? booked.prepared.body.idempotency_key : `prop-${randomUUID()}` };
      return broken(withKey, path, value);
    });
  const others = fc.constantFrom<Json>(
    { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, payment_method_id: '' },
    { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, passengers: [...fresh.body.passengers, ...fresh.body.passengers] },
    { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, passengers: Array.from({ length: 10 }, () => fresh.body.passengers[0]) },
    { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, seat_selections: Array.from({ length: 41 }, () => ({ segment_id: 's', passenger_id: 'p', seat_number: '1A' })) },
    { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, seat_selections: [{ segment_id: 'nowhere', passenger_id: 'ADULT_1', seat_number: '1A' }] },
    { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, services: [{ id: 'no_such_service', quantity: 9 }] },
    { ...fresh.body, idempotency_key: `prop-${randomUUID()}` },
  );
  return fc.oneof(
    { weight: 6, arbitrary: oneBroken },
    { weight: 1, arbitrary: others },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_PATHS.map((path) => String(path[0]))), anyValue, { maxKeys: 10 }) },
    { weight: 1, arbitrary: anyValue },
  );
}

/** A path segment as a client could send it: percent-encoded, or raw bytes that are not valid encodings. */
function segment(values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: values.map(encodeSegment) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%C0%80', '%E0%A4%A', '%00', '%2F', '%2e%2e', '..', '%FF') },
  );
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes as the bytes of U+FFFD. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

const providerSegment = () => segment(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PROVIDERS, 'provider_z', 'PROVIDER_D') }, { weight: 1, arbitrary: hostileText(30) }));
const bookingIdSegment = () =>
  segment(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(booked.id, failedId, cancelledId, booked.id.toUpperCase(), randomUUID(), 'retry', 'me') }, { weight: 2, arbitrary: fc.oneof(fc.uuid(), hostileText(60)) }));

test('property: random, boundary and hostile bodies on createProviderBooking and retryProviderBooking never get a 5xx', async (t) => {
  const bodyFor = (route: 'book' | 'retry') =>
    bookingBody().map((body) => (route === 'retry' && body && typeof body === 'object' && !Array.isArray(body) && !('order_id' in body) ? { ...body, order_id: booked.orderId } : body));
  const seen = new Set<number>();
  // Mostly Ada on the templates' provider, so that the bodies reach the offer, the card and the key.
  const provider = fc.oneof({ weight: 4, arbitrary: fc.constant('provider_d') }, { weight: 1, arbitrary: providerSegment() });
  const who = fc.oneof({ weight: 3, arbitrary: fc.constant('ada') }, { weight: 1, arbitrary: fc.constant('bob') });
  const request = fc.constantFrom('book' as const, 'retry' as const).chain((route) => fc.tuple(fc.constant(route), provider, bodyFor(route), who));
  await fc.assert(
    fc.asyncProperty(request, async ([route, provider, body, name]) => {
      const who = name === 'ada' ? ada : bob;
      const response = await fetch(`${running.url}/v1/flights/providers/${provider}/bookings${route === 'retry' ? '/retry' : ''}`, {
        method: 'POST',
        headers: { 'x-api-key': who.partner.apiKey, authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      seen.add(response.status);
      return answersInOurEnvelope(response);
    }),
    {
      numRuns: 150,
      // Always among the runs: one of each answer past the schema, so that the random ones are known to reach that far.
      examples: [
        [['book', 'provider_d', { ...fresh.body, idempotency_key: `prop-${randomUUID()}` }, 'ada']],
        [['book', 'provider_d', booked.prepared.body, 'ada']],
        [['book', 'provider_d', { ...booked.prepared.body, metadata: { cart: '1' } }, 'ada']],
        [['book', 'provider_d', { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, user_id: bob.userId }, 'ada']],
        [['book', 'provider_d', { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, currency: 'EUR' }, 'ada']],
        [['retry', 'provider_d', { ...fresh.body, idempotency_key: `prop-${randomUUID()}`, order_id: 'NO_SUCH_ORDER' }, 'ada']],
      ],
    },
  );
  t.deepEqual(
    [200, 201, 400, 403, 404, 409].filter((status) => !seen.has(status)),
    [],
    'the bodies reached the checks behind the schema: booked, replayed, refused, not found, in conflict',
  );
});

test('property: an expected total or seat price past the bound of every amount (up to far past 2^63 minor units) is 400 naming that field; never a 5xx, nothing stored', async (t) => {
  const currency = fresh.body.currency as string;
  // Whole parts from 10^11 (the first past the bound) to 10^30, in the offer's currency or one with other minor units.
  const huge = fc.bigInt({ min: 10n ** 11n, max: 10n ** 30n });
  const expected = fc
    .tuple(huge, fc.constantFrom(currency, 'JPY', 'KWD'), fc.constantFrom('', '.0', '.00', '.000'), fc.boolean())
    .map(([whole, code, fraction, negative]) => ({ field: 'expected_total.amount', change: { expected_total: { amount: `${negative ? '-' : ''}${whole}${fraction}`, currency: code } } }));
  const seatPrice = fc
    .tuple(huge, fc.constantFrom(0, 0.5))
    .map(([whole, extra]) => ({
      field: 'seat_selections.0.price',
      change: { seat_selections: [{ segment_id: 'any', passenger_id: fresh.body.passengers[0].provider_passenger_id ?? 'ADULT_1', seat_number: '1A', price: Number(whole) + extra }] },
    }));
  await fc.assert(
    fc.asyncProperty(fc.oneof(expected, seatPrice), fc.constantFrom('book', 'retry'), async ({ field, change }, route) => {
      const key = `prop-money-${randomUUID()}`;
      const body = { ...fresh.body, ...change, idempotency_key: key, ...(route === 'retry' ? { order_id: booked.orderId } : {}) };
      const response = await book(running, ada, 'provider_d', body, route === 'retry' ? '/retry' : '');
      const answer = await jsonOf(response.clone());
      const stored = await running.service.db.knex('bookings').where({ user_id: ada.userId, idempotency_key: key }).first();
      return (await answersInOurEnvelope(response)) && response.status === 400 && answer.code === 'validation_error' && answer.fields?.[field]?.rule === 'max' && stored === undefined;
    }),
    { numRuns: 60 },
  );
  t.pass();
});

test('property: cancelProviderBooking with random ids and bodies never gets a 5xx, and cancels nothing it should not', async (t) => {
  const reason = fc.oneof(boundaryText, hostileText(600));
  const body = fc.oneof(
    fc.constant(undefined),
    reason.map((text) => ({ reason: text })),
    fc.dictionary(fc.constantFrom('reason', 'refund', 'x'), anyValue, { maxKeys: 3 }),
    anyValue,
  );
  // Ada on her failed and cancelled bookings, or Bob on any: a confirmed booking of Ada's stays confirmed.
  const request = fc.tuple(providerSegment(), bookingIdSegment(), body, fc.constantFrom('ada', 'bob'));
  await fc.assert(
    fc.asyncProperty(request, async ([provider, id, sent, name]) => {
      const who = name === 'ada' ? ada : bob;
      if (name === 'ada' && decodeURIComponentSafe(id).toLowerCase() === booked.id) return true;
      const response = await fetch(`${running.url}/v1/flights/providers/${provider}/bookings/${id}`, {
        method: 'DELETE',
        headers: { 'x-api-key': who.partner.apiKey, authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
        ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
      });
      return answersInOurEnvelope(response);
    }),
    { numRuns: 120 },
  );
  const row = await running.service.db.knex('bookings').where({ id: booked.id }).first();
  t.is(row.status, 'confirmed');
  t.is((await running.service.db.knex('bookings').where({ id: failedId }).first()).status, 'failed');
});

test('property: random path and query values on the read routes never get a 5xx', async (t) => {
  const userSegment = fc.oneof(
    { weight: 3, arbitrary: fc.constant('me') },
    { weight: 2, arbitrary: segment(fc.oneof(fc.constantFrom('ME', ada.userId, bob.userId, ada.userId.toUpperCase()), fc.uuid(), hostileText(40))) },
  );
  // Cursors as the API makes them (base64url JSON of a date and an id), with dates and ids from anywhere.
  const cursor = fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.oneof(cursorInstant(), fc.integer(), hostileText(20)), fc.oneof({ weight: 3, arbitrary: fc.uuid() }, { weight: 1, arbitrary: hostileText(20) }))
        .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
    },
    { weight: 1, arbitrary: fc.oneof(hostileText(60), fc.constantFrom('', 'W10', 'bnVsbA', 'e30', Buffer.from('[1e400,"x"]').toString('base64url'))) },
  );
  // Mostly valid status and limit, so that the cursor reaches the query.
  const query = fc.record(
    {
      status: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('upcoming', 'completed', 'cancelled') }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom('UPCOMING', ''), hostileText(20)) }),
      limit: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('1', '20', '100', '1e2') }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom('0', '101', '-1', '1.5', ' ', '0x10', 'NaN', 'Infinity'), hostileText(10)) }),
      cursor,
    },
    { requiredKeys: [] },
  );
  const route = fc.oneof(
    { weight: 1, arbitrary: fc.tuple(providerSegment(), bookingIdSegment()).map(([provider, id]) => `/v1/flights/providers/${provider}/bookings/${id}`) },
    { weight: 2, arbitrary: fc.tuple(userSegment, query).map(([user, params]) => `/v1/users/${user}/bookings?${queryString(params)}`) },
    { weight: 1, arbitrary: fc.tuple(userSegment, bookingIdSegment(), fc.constantFrom('', '/passengers', '/offer')).map(([user, id, suffix]) => `/v1/users/${user}/bookings/${id}${suffix}`) },
  );
  await fc.assert(
    fc.asyncProperty(route, fc.constantFrom('ada', 'bob'), async (path, name) => answersInOurEnvelope(await asPartner(running, name === 'ada' ? ada : bob, path))),
    { numRuns: 300 },
  );
  t.pass();
});

test('a cursor naming a time PostgreSQL cannot hold, or not written as the API writes it, is 400 validation_error', async (t) => {
  const id = randomUUID();
  for (const instant of ['-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', -8.64e15, 0, '2026-11-23', '2026-11-23T10:00:00Z']) {
    const cursor = Buffer.from(JSON.stringify([instant, id])).toString('base64url');
    const response = await asPartner(running, ada, `/v1/users/me/bookings?cursor=${cursor}`);
    t.is(response.status, 400, String(instant));
    t.like(await jsonOf(response), { code: 'validation_error', fields: { cursor: { rule: 'cursor' } } }, String(instant));
  }
  const fine = Buffer.from(JSON.stringify(['2026-11-23T10:00:00.000Z', id])).toString('base64url');
  t.is((await asPartner(running, ada, `/v1/users/me/bookings?cursor=${fine}`)).status, 200);
});

/** Instants as text, often at the ends of JavaScript's range, which PostgreSQL cannot hold. */
function cursorInstant(): fc.Arbitrary<string> {
  const edges = fc.constantFrom(-8.64e15, 8.64e15, -62198755200000, 253402300799999, 253402300800000).map((time) => new Date(time));
  return fc.oneof(fc.date({ noInvalidDate: true }), edges).map((date) => date.toISOString());
}

function queryString(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${name}=${encodeSegment(value)}`)
    .join('&');
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
