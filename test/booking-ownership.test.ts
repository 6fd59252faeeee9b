/**
 * Who reaches a booking, on every booking route (decisions §2, §3): the scope each route needs
 * (`bookings.read` to read, `bookings.write` to book, retry, confirm and cancel); another traveler, of the
 * same partner or another, gets 403 on the booking's ids and never sees it in a list; `user_id` naming
 * someone else is 403; an administrator with an unscoped token cancels anyone's booking. The trips list
 * pages with `limit`, `cursor` and a `Link` header and filters by the trip status rule; the deprecated
 * paths are not served.
 */
import test from 'ava';
import { asPartner } from './helpers/cards.js';
import { book, booker, prepareBooking, type Booker, type PreparedBooking } from './helpers/bookings.js';
import { jsonOf, type Json } from './helpers/http.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, uniqueEmail, userIdOf, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

type Caller = { partner: { apiKey: string }; token: string };

let running: RunningService;
let ada: Booker;
/** Another traveler of Ada's partner. */
let bob: Booker;
/** A traveler of another partner. */
let carol: Booker;
/** Tokens of Ada's partner with one booking scope each. */
let readOnly: Caller;
let writeOnly: Caller;

/** Ada's bookings: upcoming (provider_d), completed (provider_c's, flown on 2026-06-03), a hold, and two to cancel. */
type Mine = Record<'upcoming' | 'completed' | 'hold' | 'cancelledByAda' | 'cancelledByAdmin', { id: string; providerId: string; prepared: PreparedBooking }>;
const mine = {} as Mine;
/** Ada's sold-out attempt: a failed booking, never a trip. */
let failedId: string;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  await running.service.partners.setPlan({ id: 'ownership-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  const partner = await createPartnerClient(running, 'Owner Air', 'ownership-tests');
  const other = await createPartnerClient(running, 'Other Air', 'ownership-tests');
  [ada, bob, carol] = await Promise.all([booker(running, partner), booker(running, partner), booker(running, other)]);
  const [reader, writer] = await Promise.all([travelerOf(partner, 'bookings.read'), travelerOf(partner, 'bookings.write')]);
  readOnly = { partner, token: reader.token };
  writeOnly = { partner, token: writer.token };
  const plans: [keyof Mine, string, 'instant' | 'hold'][] = [
    ['upcoming', 'provider_d', 'instant'],
    ['completed', 'provider_c', 'instant'],
    ['hold', 'provider_b', 'hold'],
    ['cancelledByAda', 'provider_b', 'instant'],
    ['cancelledByAdmin', 'provider_a', 'instant'],
  ];
  // One after another: the list's order (newest first) is then the order above, reversed.
  for (const [name, providerId, type] of plans) {
    const prepared = await prepareBooking(running, ada, providerId, 'normal', { type });
    const created = await book(running, ada, providerId, prepared.body);
    const body = await jsonOf(created);
    if (created.status !== 201) throw new Error(`${name}: ${created.status} ${JSON.stringify(body)}`);
    mine[name] = { id: body.booking.id, providerId, prepared };
  }
  // A flight that has left cannot be booked (flight_departed): the completed trip is booked ahead, then
  // flown, its travel dates moved into the past as time would move them.
  await running.service.db.knex('bookings').where({ id: mine.completed.id }).update({ departure_date: '2026-06-03T11:35:00', return_date: null });
  const soldOut = await prepareBooking(running, ada, 'provider_b', 'soldOut');
  const refused = await book(running, ada, 'provider_b', soldOut.body);
  if (refused.status !== 422) throw new Error(`sold out: ${refused.status}`);
  failedId = (await running.service.db.knex('bookings').where({ user_id: ada.userId, idempotency_key: soldOut.body.idempotency_key }).first()).id;
});
test.after.always(async () => {
  await running?.close();
});

/** A new traveler of `partner` signed in with `scope` (omitted: a legacy, unscoped token). */
async function travelerOf(partner: PartnerClient, scope?: string, email = uniqueEmail()) {
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, ...(scope === undefined ? {} : { scope }), traveler: { email } });
  return { token: tokens.access_token, email };
}

/** Each booking route, for the booking `id` of `providerId`, with the body it takes. */
function routes(id: string, providerId: string, prepared: PreparedBooking) {
  return {
    write: [
      ['createProviderBooking', 'POST', `/v1/flights/providers/${providerId}/bookings`, { ...prepared.body, idempotency_key: `scope-${id}` }],
      ['retryProviderBooking', 'POST', `/v1/flights/providers/${providerId}/bookings/retry`, { ...prepared.body, order_id: 'ORDER1' }],
      ['confirmProviderBooking', 'POST', `/v1/flights/providers/${providerId}/bookings/${id}/confirm`, {}],
      ['cancelProviderBooking', 'DELETE', `/v1/flights/providers/${providerId}/bookings/${id}`, undefined],
    ] as const,
    read: [
      ['getProviderBooking', 'GET', `/v1/flights/providers/${providerId}/bookings/${id}`, undefined],
      ['listUserBookings', 'GET', '/v1/users/me/bookings', undefined],
      ['getUserBooking', 'GET', `/v1/users/me/bookings/${id}`, undefined],
      ['getUserBookingPassengers', 'GET', `/v1/users/me/bookings/${id}/passengers`, undefined],
      ['getUserBookingOffer', 'GET', `/v1/users/me/bookings/${id}/offer`, undefined],
    ] as const,
  };
}

const call = (who: Caller, method: string, path: string, body?: unknown) => asPartner(running, who, path, { method, body });
const statusOf = async (id: string) => (await running.service.db.knex('bookings').where({ id }).first()).status as string;

async function tripIds(who: Caller, query = ''): Promise<string[]> {
  const response = await call(who, 'GET', `/v1/users/me/bookings?limit=100${query}`);
  const body = await jsonOf(response);
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body.map((trip: Json) => trip.id);
}

test('a token without the route’s scope is 403 insufficient_scope naming it, with the RFC 6750 challenge, on every booking route', async (t) => {
  const { id, providerId, prepared } = mine.hold;
  const { write, read } = routes(id, providerId, prepared);
  for (const [who, list, needed] of [
    [readOnly, write, 'bookings.write'],
    [writeOnly, read, 'bookings.read'],
  ] as const) {
    for (const [operation, method, path, body] of list) {
      const response = await call(who, method, path, body);
      t.is(response.status, 403, operation);
      t.like(await jsonOf(response), { error: 'insufficient_scope', scope: needed }, operation);
      t.regex(response.headers.get('www-authenticate') ?? '', new RegExp(`^Bearer .*error="insufficient_scope".*scope="${needed.replace('.', '\\.')}"`), operation);
    }
  }
  t.is(await statusOf(id), 'booking_created', 'the hold was neither paid nor cancelled');
  // And the owner, with both scopes, reaches each of the read routes.
  for (const [operation, method, path] of read) t.is((await call(ada, method, path)).status, 200, operation);
});

for (const [label, other] of [
  ['another traveler of the same partner', () => bob],
  ['a traveler of another partner', () => carol],
] as const) {
  test(`${label} gets 403 on every route naming Ada’s bookings, changes nothing, and never sees them listed`, async (t) => {
    const who = other();
    for (const name of ['upcoming', 'hold'] as const) {
      const { id, providerId, prepared } = mine[name];
      const { write, read } = routes(id, providerId, prepared);
      const byId = [...write.slice(2), ...read.filter(([operation]) => operation !== 'listUserBookings')];
      for (const [operation, method, path, body] of byId) {
        const response = await call(who, method, path, body);
        const answer = await jsonOf(response);
        t.is(response.status, 403, `${name}, ${operation}: ${JSON.stringify(answer)}`);
        t.like(answer, { status_code: 403, code: 'not_booking_owner' }, `${name}, ${operation}`);
        t.false(JSON.stringify(answer).includes(ada.userId), 'nothing of Ada’s is told');
      }
      // Ada's id in the path is 403 as well, whatever the booking.
      for (const suffix of ['', `/${id}`, `/${id}/passengers`, `/${id}/offer`]) {
        const response = await call(who, 'GET', `/v1/users/${ada.userId}/bookings${suffix}`);
        t.is(response.status, 403, suffix);
        t.is((await jsonOf(response)).code, 'not_your_user', suffix);
      }
    }
    t.is(await statusOf(mine.upcoming.id), 'confirmed');
    t.is(await statusOf(mine.hold.id), 'booking_created');
    const theirs = await tripIds(who);
    for (const { id } of Object.values(mine)) t.false(theirs.includes(id));
    for (const status of ['upcoming', 'completed', 'cancelled']) t.deepEqual(await tripIds(who, `&status=${status}`), []);

    // Ada's offer is Ada's since she booked it: not theirs to book, whatever the key.
    const { prepared } = mine.upcoming;
    const copied = await call(who, 'POST', '/v1/flights/providers/provider_d/bookings', { ...prepared.body, payment_method_id: who.cardId });
    t.is(copied.status, 404);
    t.is((await jsonOf(copied)).code, 'offer_not_found');
  });
}

test('user_id in the body naming another traveler is 403 on booking and retrying; me and the own id are the traveler', async (t) => {
  const prepared = await prepareBooking(running, bob, 'provider_d');
  for (const path of ['', '/retry']) {
    const body = { ...prepared.body, user_id: ada.userId, ...(path ? { order_id: 'ORDER1' } : {}) };
    const response = await book(running, bob, 'provider_d', body, path);
    t.is(response.status, 403, path);
    t.like(await jsonOf(response), { status_code: 403, code: 'not_your_user' }, path);
  }
  t.is((await running.service.db.knex('bookings').where({ idempotency_key: prepared.body.idempotency_key })).length, 0, 'nothing stored');
  // The own id, in capitals too, is the traveler.
  const own = await book(running, bob, 'provider_d', { ...prepared.body, user_id: bob.userId.toUpperCase() });
  t.is(own.status, 201, JSON.stringify(await own.clone().json()));
  t.is((await jsonOf(own)).booking.user_id, bob.userId);
  // A retry of an order that is not the traveler's own finds nothing to retry.
  const adas = await jsonOf(await call(ada, 'GET', `/v1/flights/providers/provider_d/bookings/${mine.upcoming.id}`));
  const retried = await book(running, bob, 'provider_d', { ...prepared.body, order_id: adas.booking.provider_order_id }, '/retry');
  t.is(retried.status, 404);
  t.is((await jsonOf(retried)).code, 'retryable_order_not_found');
});

// Serial: ava runs it before the others, so the trips lists below see both cancellations.
test.serial('the owner cancels; an administrator with an unscoped token cancels anyone’s booking, and a scoped one cannot', async (t) => {
  const adaCancels = await call(ada, 'DELETE', `/v1/flights/providers/provider_b/bookings/${mine.cancelledByAda.id}`, { reason: 'change of plans' });
  t.is(adaCancels.status, 200);
  t.like(await jsonOf(adaCancels), { booking_id: mine.cancelledByAda.id, is_cancelled: true, reason: 'change of plans' });

  // An administrator of another partner: a legacy (unscoped) token after is_admin is set.
  const adminPartner = await createPartnerClient(running, 'Admin Air', 'ownership-tests');
  const { email } = await travelerOf(adminPartner);
  await running.service.db.knex('users').where({ email }).update({ is_admin: true });
  const admin = { partner: adminPartner, token: (await travelerOf(adminPartner, undefined, email)).token };
  const scopedAdmin = { partner: adminPartner, token: (await travelerOf(adminPartner, 'bookings.read bookings.write', email)).token };
  t.is(userIdOf(admin.token), userIdOf(scopedAdmin.token));

  const { id, providerId } = mine.cancelledByAdmin;
  const refused = await call(scopedAdmin, 'DELETE', `/v1/flights/providers/${providerId}/bookings/${id}`);
  t.is(refused.status, 403, 'a scoped token carries no admin rights');
  t.is((await jsonOf(refused)).code, 'not_booking_owner');
  t.is(await statusOf(id), 'confirmed');

  const cancelled = await call(admin, 'DELETE', `/v1/flights/providers/${providerId}/bookings/${id}`, { reason: 'fraud review' });
  const result = await jsonOf(cancelled);
  t.is(cancelled.status, 200, JSON.stringify(result));
  t.like(result, { booking_id: id, is_cancelled: true, reason: 'fraud review' });
  t.is(await statusOf(id), 'cancelled');
  const order = await running.service.db.knex('flight_sandbox_orders').where({ provider_id: providerId, id: (await running.service.db.knex('bookings').where({ id }).first()).provider_order_id }).first();
  t.regex(order.status, /cancel/i, 'cancelled at the provider too');
  // Ada sees it cancelled; the administrator reads her trips by her id.
  t.is((await jsonOf(await call(ada, 'GET', `/v1/users/me/bookings/${id}`))).status, 'cancelled');
  const hers = await call(admin, 'GET', `/v1/users/${ada.userId}/bookings?limit=100`);
  t.is(hers.status, 200);
  t.true((await jsonOf(hers)).some((trip: Json) => trip.id === id));
});

test('listUserBookings pages newest first with limit, cursor and a Link header; status follows the trip rule; failed attempts are no trips', async (t) => {
  const all = await tripIds(ada);
  t.false(all.includes(failedId), 'a failed booking is not a trip');
  const expected = ['cancelledByAdmin', 'cancelledByAda', 'hold', 'completed', 'upcoming'].map((name) => mine[name as keyof Mine].id);
  t.deepEqual(all, expected, 'newest first');

  const seen: string[] = [];
  let next: string | undefined = `${running.url}/v1/users/me/bookings?limit=2`;
  let pages = 0;
  while (next) {
    const response = await fetch(next, { headers: { 'x-api-key': ada.partner.apiKey, authorization: `Bearer ${ada.token}` } });
    t.is(response.status, 200);
    const page = await jsonOf(response);
    t.true(Array.isArray(page) && page.length <= 2);
    seen.push(...page.map((trip: Json) => trip.id));
    const link = response.headers.get('link');
    next = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    if (link) t.truthy(next, `a Link header of rel="next": ${link}`);
    if (next) t.is(new URL(next).searchParams.get('limit'), '2');
    pages += 1;
  }
  t.is(pages, 3);
  t.deepEqual(seen, expected, 'every trip once, in order');

  // The rule, worked out here from each booking's own dates: cancelled; else completed once the last travel
  // day (return, else departure) is past; else upcoming.
  const today = new Date().toISOString().slice(0, 10);
  const byStatus: Record<string, string[]> = { upcoming: [], completed: [], cancelled: [] };
  for (const id of expected) {
    const booking = await jsonOf(await call(ada, 'GET', `/v1/users/me/bookings/${id}`));
    const last = (booking.return_date ?? booking.departure_date).slice(0, 10);
    byStatus[booking.status === 'cancelled' ? 'cancelled' : last < today ? 'completed' : 'upcoming']?.push(id);
  }
  t.true(byStatus.completed?.includes(mine.completed.id), 'provider_c’s trip flew on 2026-06-03');
  t.true(byStatus.upcoming?.includes(mine.upcoming.id), 'provider_d’s flight is three weeks ahead');
  for (const [status, ids] of Object.entries(byStatus)) t.deepEqual(await tripIds(ada, `&status=${status}`), ids, status);
  const listed = await jsonOf(await call(ada, 'GET', '/v1/users/me/bookings?limit=100'));
  for (const trip of listed) t.true(byStatus[trip.status]?.includes(trip.id), `${trip.id} reads ${trip.status}`);
  t.like(
    listed.find((each: Json) => each.id === mine.completed.id),
    { status: 'completed', user_id: ada.userId, departure_date: '2026-06-03', origin_iata_code: 'LHR', destination_iata_code: 'JFK' },
  );
  const onePage = await jsonOf(await call(ada, 'GET', '/v1/users/me/bookings?status=upcoming&limit=1'));
  t.is(onePage.length, 1);

  // The status filter carries into the next page's link (two cancelled trips, one a page).
  const filtered = await call(ada, 'GET', '/v1/users/me/bookings?status=cancelled&limit=1');
  const link = /^<([^>]+)>; rel="next"$/.exec(filtered.headers.get('link') ?? '')?.[1] ?? '';
  t.is(new URL(link).searchParams.get('status'), 'cancelled');
  const second = await fetch(link, { headers: { 'x-api-key': ada.partner.apiKey, authorization: `Bearer ${ada.token}` } });
  t.deepEqual([...(await jsonOf(filtered)), ...(await jsonOf(second))].map((trip: Json) => trip.id), byStatus.cancelled);
  t.is(second.headers.get('link'), null, 'the last page links no further');

  for (const bad of ['limit=0', 'limit=101', 'limit=ten', 'status=past', 'cursor=not-a-cursor', `cursor=${'a'.repeat(201)}`]) {
    const response = await call(ada, 'GET', `/v1/users/me/bookings?${bad}`);
    t.is(response.status, 400, bad);
    t.is((await jsonOf(response)).code, 'validation_error', bad);
  }
});

test('the cancelled filter lists what was cancelled, and only that; cancelling again answers the same result', async (t) => {
  const cancelled = [mine.cancelledByAdmin.id, mine.cancelledByAda.id];
  t.deepEqual(await tripIds(ada, '&status=cancelled'), cancelled);
  for (const status of ['upcoming', 'completed']) for (const id of cancelled) t.false((await tripIds(ada, `&status=${status}`)).includes(id), status);
  const again = await call(ada, 'DELETE', `/v1/flights/providers/provider_b/bookings/${mine.cancelledByAda.id}`);
  t.is(again.status, 200);
  t.like(await jsonOf(again), { booking_id: mine.cancelledByAda.id, is_cancelled: true, reason: 'change of plans' });
});

test('unknown, malformed or other-provider booking ids are 404 booking_not_found for the owner', async (t) => {
  const { id } = mine.upcoming;
  for (const path of [
    '/v1/flights/providers/provider_b/bookings/' + id,
    '/v1/flights/providers/provider_d/bookings/00000000-0000-4000-8000-000000000000',
    '/v1/flights/providers/provider_d/bookings/not-a-uuid',
    '/v1/users/me/bookings/00000000-0000-4000-8000-000000000000',
    '/v1/users/me/bookings/not-a-uuid/passengers',
  ]) {
    const response = await call(ada, 'GET', path);
    t.is(response.status, 404, path);
    t.is((await jsonOf(response)).code, 'booking_not_found', path);
  }
  const unknownProvider = await call(ada, 'GET', `/v1/flights/providers/provider_z/bookings/${id}`);
  t.is(unknownProvider.status, 404);
});

test('the deprecated duplicate path and the PUT stub are not served', async (t) => {
  for (const [method, path] of [
    ['GET', '/v1/flights/users/me/bookings'],
    ['GET', `/v1/flights/users/${ada.userId}/bookings`],
    ['PUT', `/v1/flights/providers/provider_d/bookings/${mine.upcoming.id}`],
  ] as const) {
    const response = await call(ada, method, path, method === 'PUT' ? { status: 'cancelled' } : undefined);
    t.true([404, 405].includes(response.status), `${method} ${path}: ${response.status}`);
  }
  t.is(await statusOf(mine.upcoming.id), 'confirmed');
});
