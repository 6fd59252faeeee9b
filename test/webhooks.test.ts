/**
 * Webhooks end to end (decisions §14; issue 26): a partner registers endpoints over REST, the service's
 * own changes (bookings over REST, the hosted checkout) write events, and the job runner delivers them
 * over real HTTP to a receiver on a loopback port that verifies every delivery with the `standardwebhooks`
 * package and once more by hand. The retry schedule is shortened to 1 s and 2 s by configuration.
 */
import { randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import test, { type ExecutionContext } from 'ava';
import { WebhookEventBody } from '../core/webhooks/schemas.js';
import { HttpWebhookTransport } from '../providers/webhooks/http-transport.js';
import { book, booker, prepareBooking, type Booker } from './helpers/bookings.js';
import { asPartner } from './helpers/cards.js';
import { checkoutApi, checkoutCard, checkoutPartner, choicesOf, openCheckout, signInToCheckout } from './helpers/checkout.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { jsonOf, type Json } from './helpers/http.js';
import { uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const PAGE = 'https://www.example-airline.com';
const BOOKING_EVENTS = ['booking.confirmed', 'booking.failed', 'booking.cancelled', 'booking.hold_expiring', 'booking.hold_expired'];

let database: TestDatabase;
let running: RunningService;
let receiver: WebhookReceiver;
/** Host names the tests own: each answers its list of addresses in turn (the last one repeated). */
const names = new Map<string, string[]>();

async function resolveHost(hostname: string): Promise<LookupAddress[]> {
  const answers = names.get(hostname);
  if (!answers) throw Object.assign(new Error(`${hostname} is not a test name`), { code: 'ENOTFOUND' });
  const address = answers.length > 1 ? (answers.shift() as string) : (answers[0] as string);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
}

test.before(async () => {
  database = await createTestDatabase();
  running = await startService({ WEBHOOK_RETRY_SECONDS: '1,2', JOB_POLL_SECONDS: '0.5' }, { database, rateLimitKeyPrefix: uniquePrefix(), resolveHost });
  await running.service.startBackgroundWork();
  receiver = await WebhookReceiver.start();
});

test.after.always(async () => {
  await running?.close();
  await receiver?.close();
  await database?.drop();
});

function webhooks(apiKey: string, path = '', init: { method?: string; body?: unknown } = {}) {
  return fetch(`${running.url}/v1/webhooks${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'x-api-key': apiKey, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** Registers an endpoint at a new path of the receiver for the partner; its id and path. */
async function register(t: ExecutionContext, apiKey: string, events: string[], url?: string): Promise<{ id: string; path: string; secret: string }> {
  const path = `/hooks/${randomUUID()}`;
  const response = await webhooks(apiKey, '', { body: { url: url ?? receiver.url(path), events } });
  const body = await jsonOf(response);
  t.is(response.status, 201, JSON.stringify(body));
  receiver.secretFor(url ? new URL(url).pathname : path, body.secret);
  return { id: body.id, path: url ? new URL(url).pathname : path, secret: body.secret };
}

async function bookInstant(t: ExecutionContext, who: Booker, card?: 'declined'): Promise<Json> {
  const { body } = await prepareBooking(running, who, 'provider_b', 'nonRefundable');
  const answer = await jsonOf(await book(running, who, 'provider_b', body));
  if (!card) t.is(answer.booking?.status, 'confirmed', JSON.stringify(answer));
  return answer;
}

/** The one delivery that reached `path`, checked: signed, its body in the documented shape. */
function only(t: ExecutionContext, path: string, type: string): Json {
  const arrived = receiver.at(path).filter((each) => each.body.type === type);
  t.is(arrived.length, 1, `one ${type} at ${path}`);
  const [delivery] = arrived;
  t.true(delivery?.verified, 'standardwebhooks and the hand-made check both verify the signature');
  t.true(WebhookEventBody.safeParse(delivery?.body).success, JSON.stringify(delivery?.body));
  t.regex(delivery?.id ?? '', /^evt_[0-9a-f]{32}$/);
  t.true(Math.abs((delivery?.timestamp ?? 0) - Date.now() / 1000) < 60, 'webhook-timestamp is the attempt’s, in seconds');
  return delivery?.body;
}

test('registration: 201 with a whsec_ secret shown once and kept sealed; listed and read without it; another partner gets 404', async (t) => {
  const partner = await checkoutPartner(running, 'Hooks Air');
  const other = await checkoutPartner(running, 'Other Air');
  const path = `/hooks/${randomUUID()}`;
  const created = await webhooks(partner.apiKey, '', { body: { url: receiver.url(path), events: ['booking.confirmed'], description: 'ops' } });
  const body = await jsonOf(created);
  t.is(created.status, 201);
  t.like(body, { url: receiver.url(path), events: ['booking.confirmed'], description: 'ops', status: 'enabled', disabled_reason: null });
  t.regex(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  const row = await running.service.db.knex('webhook_endpoints').where({ id: body.id }).first();
  t.false(JSON.stringify(row).includes(body.secret.slice(6)), 'the secret is not stored as it is');

  const listed = await jsonOf(await webhooks(partner.apiKey));
  t.deepEqual(listed.map((each: Json) => each.id), [body.id]);
  t.false('secret' in listed[0]);
  const read = await jsonOf(await webhooks(partner.apiKey, `/${body.id}`));
  t.false('secret' in read);
  t.is(read.id, body.id);

  for (const [method, suffix] of [['GET', ''], ['DELETE', ''], ['POST', '/test'], ['GET', '/deliveries']] as const) {
    const refused = await fetch(`${running.url}/v1/webhooks/${body.id}${suffix}`, { method, headers: { 'x-api-key': other.apiKey } });
    t.is(refused.status, 404, `${method} ${suffix}`);
    t.like(await jsonOf(refused), { code: 'webhook_endpoint_not_found' });
  }
  t.deepEqual(await jsonOf(await webhooks(other.apiKey)), [], 'another partner lists none of them');
  t.is((await webhooks(partner.apiKey, `/${body.id}`, { method: 'DELETE' })).status, 204);
  t.is((await webhooks(partner.apiKey, `/${body.id}`)).status, 404);
});

test('a publishable key and a missing key are refused', async (t) => {
  const partner = await checkoutPartner(running, 'Pk Air');
  const publishable = await running.service.partners.createPublishableKey({ partner_id: partner.partnerId, allowed_origins: [PAGE] });
  const refused = await fetch(`${running.url}/v1/webhooks`, { headers: { 'x-api-key': publishable.api_key, origin: PAGE } });
  t.is(refused.status, 403);
  t.like(await jsonOf(refused), { code: 'publishable_key_not_allowed' });
  t.is((await fetch(`${running.url}/v1/webhooks`)).status, 401);
});

test('bad registrations are 400 naming the field: no events, an unknown one, one twice, a URL that is not https or not public', async (t) => {
  const partner = await checkoutPartner(running, 'Strict Air');
  names.set('private.partner.test', ['192.168.1.5']);
  const cases: [unknown, string, RegExp][] = [
    [{ url: receiver.url('/x'), events: [] }, 'events', /./],
    [{ url: receiver.url('/x'), events: ['booking.exploded'] }, 'events.0', /./],
    [{ url: receiver.url('/x'), events: ['booking.failed', 'booking.failed'] }, 'events', /listed twice/],
    [{ url: 'ftp://127.0.0.1/x', events: ['booking.failed'] }, 'url', /https/],
    [{ url: 'http://10.0.0.8/x', events: ['booking.failed'] }, 'url', /public internet addresses/],
    [{ url: 'https://private.partner.test/x', events: ['booking.failed'] }, 'url', /private/],
    [{ url: 'https://nowhere.partner.test/x', events: ['booking.failed'] }, 'url', /does not resolve/],
    [{ url: `http://user:pass@127.0.0.1:${receiver.port}/x`, events: ['booking.failed'] }, 'url', /user name or password/],
    [{ url: 'not a url', events: ['booking.failed'] }, 'url', /absolute URL/],
  ];
  for (const [body, field, message] of cases) {
    const response = await webhooks(partner.apiKey, '', { body });
    const answer = await jsonOf(response);
    t.is(response.status, 400, JSON.stringify(body));
    const detail = answer.fields?.[field];
    t.truthy(detail, `${field}: ${JSON.stringify(answer)}`);
    t.regex(detail?.message ?? '', message);
  }
  t.deepEqual(await jsonOf(await webhooks(partner.apiKey)), [], 'nothing was registered');
});

test('outside the sandbox only https to public addresses is taken', async (t) => {
  const transport = new HttpWebhookTransport({ sandbox: false, resolve: async (hostname) => [{ address: hostname === 'public.partner.test' ? '93.184.216.34' : '127.0.0.1', family: 4 }] });
  t.is(await transport.refusal('https://public.partner.test/hooks'), undefined);
  t.regex((await transport.refusal('http://public.partner.test/hooks')) ?? '', /must be an https URL/);
  t.regex((await transport.refusal('https://local.partner.test/hooks')) ?? '', /public internet addresses only, and/);
  t.regex((await transport.refusal('https://127.0.0.1/hooks')) ?? '', /public internet addresses only, and/);
  t.regex((await transport.refusal('https://[::1]/hooks')) ?? '', /public internet addresses only, and/);
});

test('booking.confirmed, booking.cancelled and booking.failed arrive signed, with the booking’s public fields and no card details', async (t) => {
  const ada = await booker(running);
  const endpoint = await register(t, ada.partner.apiKey, BOOKING_EVENTS);
  const confirmed = await bookInstant(t, ada);
  await receiver.until(() => receiver.at(endpoint.path).length >= 1);
  const event = only(t, endpoint.path, 'booking.confirmed');
  t.like(event.data.booking, { id: confirmed.booking.id, status: 'confirmed', provider_id: 'provider_b', airline_pnr: confirmed.booking.airline_pnr, total_amount: confirmed.booking.total_amount });
  t.false('card_last4' in event.data.booking || 'card_brand' in event.data.booking, 'no card details');
  t.deepEqual(event.data.metadata, confirmed.metadata);
  t.is(event.data.failure, null);

  const cancelled = await asPartner(running, ada, `/v1/flights/providers/provider_b/bookings/${confirmed.booking.id}`, { method: 'DELETE', body: { reason: 'changed plans' } });
  t.is(cancelled.status, 200);
  await receiver.until(() => receiver.at(endpoint.path).length >= 2);
  const cancellation = only(t, endpoint.path, 'booking.cancelled');
  t.like(cancellation.data, { booking: { id: confirmed.booking.id, status: 'cancelled' }, cancellation: { reason: 'changed plans' } });

  const declined = await booker(running, ada.partner, { number: '4000000000000002' });
  const failed = await bookInstant(t, declined, 'declined');
  t.is(failed.code, 'card_declined');
  await receiver.until(() => receiver.at(endpoint.path).length >= 3);
  const failure = only(t, endpoint.path, 'booking.failed');
  t.like(failure.data, { booking: { status: 'failed' }, failure: { code: 'card_declined' } });
  for (const each of receiver.at(endpoint.path)) t.false(/4242|4000000000000002/.test(each.raw), 'no card number or last four in any body');

  // Each was recorded once, with a delivery that succeeded at its first attempt.
  await waitFor(async () => (await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`))).every((delivery: Json) => delivery.status === 'succeeded'));
  const log = await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`));
  t.deepEqual(log.map((delivery: Json) => delivery.event_type).sort(), ['booking.cancelled', 'booking.confirmed', 'booking.failed']);
  for (const delivery of log) t.like(delivery, { status: 'succeeded', attempt_count: 1, attempts: [{ trigger: 'automatic', status_code: 200, error: null }] });
});

test('an endpoint gets only the event types it listed, and only its own partner’s', async (t) => {
  const ada = await booker(running);
  const stranger = await booker(running);
  const failedOnly = await register(t, ada.partner.apiKey, ['booking.failed']);
  const strangers = await register(t, stranger.partner.apiKey, BOOKING_EVENTS);
  const confirmed = await bookInstant(t, ada);
  // The event and its deliveries are written with the booking's last step: none for these two endpoints.
  const deliveries = await running.service.db.knex('webhook_deliveries').whereIn('endpoint_id', [failedOnly.id, strangers.id]);
  t.is(deliveries.length, 0, JSON.stringify(confirmed.booking.id));
  t.is((await running.service.db.knex('webhook_events').where({ partner_id: ada.partner.partnerId, type: 'booking.confirmed' })).length, 1, 'the event is recorded all the same');
});

test('holds: booking.hold_expiring is due two hours before the deadline and sent once; booking.hold_expired when it lapses', async (t) => {
  const ada = await booker(running);
  const endpoint = await register(t, ada.partner.apiKey, BOOKING_EVENTS);
  const { body } = await prepareBooking(running, ada, 'provider_b', 'nonRefundable', { type: 'hold' });
  const held = await jsonOf(await book(running, ada, 'provider_b', body));
  t.is(held.booking.status, 'booking_created');
  const deadline = Date.parse(held.booking.payment_required_by);
  // Both jobs were enqueued with the step that left the hold at rest.
  const jobs = await running.service.db.knex('pgboss.job').whereRaw("data->>'booking_id' = ?", [held.booking.id]).select('name', 'start_after');
  const due = Object.fromEntries(jobs.map((job: Json) => [job.name, job.start_after.getTime()]));
  t.is(due['booking-hold-lapse'], deadline);
  // Two hours before the deadline; at once for a hold shorter than that.
  const warning = Math.max(deadline - 2 * 3_600_000, Date.parse(held.booking.updated_at));
  t.true(Math.abs((due['booking-hold-expiring'] ?? 0) - warning) < 5000, `${due['booking-hold-expiring']} ≈ ${warning}`);

  // The warning's work, as its job does it when due: twice, warns once.
  await running.service.bookings.holds.warnExpiring(held.booking.id);
  await running.service.bookings.holds.warnExpiring(held.booking.id);
  await receiver.until(() => receiver.at(endpoint.path).length >= 1);
  t.like(only(t, endpoint.path, 'booking.hold_expiring').data.booking, { id: held.booking.id, status: 'booking_created', payment_required_by: held.booking.payment_required_by });

  // The lapse, on an instance whose clock is past the deadline (the job's work when it falls due).
  const ahead = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix(), clock: { now: () => new Date(deadline + 60_000) } });
  try {
    t.true(await ahead.service.bookings.holds.lapse(held.booking.id));
    t.false(await ahead.service.bookings.holds.lapse(held.booking.id), 'a second run finds nothing to do');
  } finally {
    await ahead.close();
  }
  await receiver.until(() => receiver.at(endpoint.path).length >= 2);
  t.like(only(t, endpoint.path, 'booking.hold_expired').data, { booking: { id: held.booking.id, status: 'cancelled' }, cancellation: { reason: 'hold_lapsed' } });
  t.is(receiver.at(endpoint.path).length, 2, 'one warning, one lapse');
});

test('checkout.session.completed when the hosted checkout books; checkout.session.expired at the session’s end', async (t) => {
  const partner = await checkoutPartner(running, 'Checkout Hooks');
  const endpoint = await register(t, partner.apiKey, ['checkout.session.completed', 'checkout.session.expired', 'booking.confirmed']);
  const checkout = await openCheckout(running, partner, 'provider_b', PAGE);
  // The session's expiry is a job due at expires_at, enqueued with the session.
  const [expiry] = await running.service.db.knex('pgboss.job').where({ name: 'checkout-session-expire' }).whereRaw("data->>'session_id' = ?", [checkout.id]);
  const session = await running.service.db.knex('checkout_sessions').where({ id: checkout.id }).first();
  t.is(expiry?.start_after.getTime(), session.expires_at.getTime());

  const traveler = await signInToCheckout(running, checkout, uniqueEmail('hooks'));
  const cardId = await checkoutCard(running, checkout, traveler);
  const choices = choicesOf(checkout.order, cardId);
  const reviewed = await checkoutApi(running, checkout, 'review', { body: choices, traveler });
  const paid = await checkoutApi(running, checkout, 'pay', { body: { ...choices, expected_total: { amount: reviewed.body.total_amount, currency: 'GBP' } }, traveler });
  t.is(paid.status, 200, JSON.stringify(paid.body));
  await receiver.until(() => receiver.at(endpoint.path).length >= 2);
  t.like(only(t, endpoint.path, 'checkout.session.completed').data.checkout_session, { id: checkout.id, status: 'complete', booking_id: paid.body.booking_id });
  t.like(only(t, endpoint.path, 'booking.confirmed').data, { booking: { id: paid.body.booking_id }, metadata: { checkout_session_id: checkout.id } });
  await running.service.checkoutSessions.expire(checkout.id);
  t.is(receiver.at(endpoint.path).length, 2, 'a complete session does not expire');

  const unsold = await openCheckout(running, partner, 'provider_b', PAGE);
  await running.service.db.knex('checkout_sessions').where({ id: unsold.id }).update({ expires_at: new Date(Date.now() - 1000) });
  await running.service.checkoutSessions.expire(unsold.id);
  await running.service.checkoutSessions.expire(unsold.id);
  await receiver.until(() => receiver.at(endpoint.path).length >= 3);
  t.like(only(t, endpoint.path, 'checkout.session.expired').data.checkout_session, { id: unsold.id, status: 'expired', booking_id: null });
});

test('a receiver answering 500 twice then 200 sees the retries on schedule, with the same webhook-id; the log shows each attempt', async (t) => {
  const ada = await booker(running);
  const endpoint = await register(t, ada.partner.apiKey, ['booking.confirmed']);
  receiver.answer(endpoint.path, [500, 500, 200]);
  await bookInstant(t, ada);
  await receiver.until(() => receiver.at(endpoint.path).length >= 3, 20_000);
  const arrivals = receiver.at(endpoint.path);
  t.deepEqual(arrivals.map((each) => each.answered), [500, 500, 200]);
  t.is(new Set(arrivals.map((each) => each.id)).size, 1, 'one webhook-id for every attempt');
  t.true(arrivals.every((each) => each.verified), 'each attempt is signed anew (its own webhook-timestamp)');
  const [first, second, third] = arrivals.map((each) => each.at) as [number, number, number];
  t.true(second - first >= 950 && second - first < 5000, `the first retry after 1 s: ${second - first} ms`);
  t.true(third - second >= 1950 && third - second < 6000, `the second after 2 s: ${third - second} ms`);

  await waitFor(async () => (await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`)))[0]?.status === 'succeeded');
  const [delivery] = await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`));
  t.like(delivery, { status: 'succeeded', attempt_count: 3, next_attempt_at: null, event_type: 'booking.confirmed', event_id: arrivals[0]?.id });
  t.deepEqual(delivery.attempts.map((attempt: Json) => [attempt.trigger, attempt.status_code]), [['automatic', 200], ['automatic', 500], ['automatic', 500]]);
  t.regex(delivery.attempts[1].error, /HTTP 500/);
});

test('a receiver that keeps failing gets the whole schedule, then the delivery is failed', async (t) => {
  const ada = await booker(running);
  const endpoint = await register(t, ada.partner.apiKey, ['booking.confirmed']);
  receiver.answer(endpoint.path, [503]);
  await bookInstant(t, ada);
  await receiver.until(() => receiver.at(endpoint.path).length >= 3, 20_000);
  await waitFor(async () => (await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`)))[0]?.status === 'failed');
  const [delivery] = await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`));
  t.like(delivery, { status: 'failed', attempt_count: 3, next_attempt_at: null });
  t.is(receiver.at(endpoint.path).length, 3, 'the first attempt and the two retries configured');
  t.like(await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}`)), { status: 'enabled' }, 'a day of failures does not disable it');
});

test('410 Gone disables the endpoint at once: no delivery is made to it after, and its test is 409', async (t) => {
  const ada = await booker(running);
  const endpoint = await register(t, ada.partner.apiKey, ['booking.confirmed']);
  receiver.answer(endpoint.path, [410]);
  await bookInstant(t, ada);
  await receiver.until(() => receiver.at(endpoint.path).length >= 1);
  await waitFor(async () => (await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}`))).status === 'disabled');
  t.like(await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}`)), { status: 'disabled', disabled_reason: 'gone' });
  const [delivery] = await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`));
  t.like(delivery, { status: 'failed', attempt_count: 1, attempts: [{ status_code: 410 }] });

  await bookInstant(t, ada);
  t.is((await running.service.db.knex('webhook_deliveries').where({ endpoint_id: endpoint.id })).length, 1, 'nothing for a disabled endpoint');
  const test410 = await webhooks(ada.partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' });
  t.is(test410.status, 409);
  t.regex((await jsonOf(test410)).message, /410 Gone.*delete the endpoint and register the URL again/);
  t.is(receiver.at(endpoint.path).length, 1);
});

test('five days of failures disable the endpoint', async (t) => {
  const partner = await checkoutPartner(running, 'Failing Air');
  const endpoint = await register(t, partner.apiKey, ['booking.confirmed']);
  receiver.answer(endpoint.path, [500]);
  const failingSince = new Date(Date.now() - 5 * 86_400_000 - 60_000);
  await running.service.db.knex('webhook_endpoints').where({ id: endpoint.id }).update({ failing_since: failingSince });
  const tested = await jsonOf(await webhooks(partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' }));
  t.like(tested, { status: 'failed', attempts: [{ trigger: 'test', status_code: 500 }] });
  t.like(await jsonOf(await webhooks(partner.apiKey, `/${endpoint.id}`)), { status: 'disabled', disabled_reason: 'failing' });
});

test('a success clears the failing streak', async (t) => {
  const partner = await checkoutPartner(running, 'Recovering Air');
  const endpoint = await register(t, partner.apiKey, ['booking.confirmed']);
  await running.service.db.knex('webhook_endpoints').where({ id: endpoint.id }).update({ failing_since: new Date(Date.now() - 4 * 86_400_000) });
  t.like(await jsonOf(await webhooks(partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' })), { status: 'succeeded' });
  t.is((await running.service.db.knex('webhook_endpoints').where({ id: endpoint.id }).first()).failing_since, null);
});

test('a redelivery carries the same webhook-id and is logged as a retry', async (t) => {
  const ada = await booker(running);
  const endpoint = await register(t, ada.partner.apiKey, ['booking.confirmed']);
  await bookInstant(t, ada);
  await receiver.until(() => receiver.at(endpoint.path).length >= 1);
  await waitFor(async () => (await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`)))[0]?.status === 'succeeded');
  const [delivery] = await jsonOf(await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries`));
  const retried = await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries/${delivery.id}/retry`, { method: 'POST' });
  const body = await jsonOf(retried);
  t.is(retried.status, 200, JSON.stringify(body));
  t.like(body, { id: delivery.id, status: 'succeeded', attempt_count: 2 });
  t.deepEqual(body.attempts.map((attempt: Json) => attempt.trigger), ['retry', 'automatic']);
  const [first, again] = receiver.at(endpoint.path);
  t.is(again?.id, first?.id, 'the same webhook-id: the receiver drops the repeat');
  t.is(again?.raw, first?.raw, 'the same body');
  t.true(again?.verified);

  const unknown = await webhooks(ada.partner.apiKey, `/${endpoint.id}/deliveries/${randomUUID()}/retry`, { method: 'POST' });
  t.is(unknown.status, 404);
  t.like(await jsonOf(unknown), { code: 'webhook_delivery_not_found' });
  const stranger = await checkoutPartner(running, 'Stranger Air');
  t.is((await webhooks(stranger.apiKey, `/${endpoint.id}/deliveries/${delivery.id}/retry`, { method: 'POST' })).status, 404);
});

test('the test event: webhook.test to this endpoint alone, signed, answered with the attempt', async (t) => {
  const partner = await checkoutPartner(running, 'Testing Air');
  const endpoint = await register(t, partner.apiKey, ['booking.failed']);
  const other = await register(t, partner.apiKey, ['booking.failed']);
  const response = await webhooks(partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' });
  const body = await jsonOf(response);
  t.is(response.status, 200, JSON.stringify(body));
  t.like(body, { endpoint_id: endpoint.id, event_type: 'webhook.test', status: 'succeeded', attempts: [{ trigger: 'test', status_code: 200 }] });
  t.like(only(t, endpoint.path, 'webhook.test').data, { endpoint_id: endpoint.id });
  t.is(receiver.at(other.path).length, 0);
});

test('an endpoint on a private address is refused at registration and, when its name turns private, at delivery', async (t) => {
  const partner = await checkoutPartner(running, 'Rebinding Air');
  names.set('flip.partner.test', ['127.0.0.1', '10.20.30.40']);
  const endpoint = await register(t, partner.apiKey, ['booking.confirmed'], `http://flip.partner.test:${receiver.port}/flip/${randomUUID()}`);
  const tested = await jsonOf(await webhooks(partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' }));
  t.like(tested, { status: 'failed', attempts: [{ trigger: 'test', status_code: null }] });
  t.regex(tested.attempts[0].error, /^not sent: its host flip\.partner\.test must resolve to public internet addresses only/);
  t.is(receiver.at(endpoint.path).length, 0, 'nothing reached the receiver');
});

test('the delivery log pages with a Link header', async (t) => {
  const partner = await checkoutPartner(running, 'Paging Air');
  const endpoint = await register(t, partner.apiKey, ['booking.failed']);
  for (let index = 0; index < 3; index++) await webhooks(partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' });
  const first = await webhooks(partner.apiKey, `/${endpoint.id}/deliveries?limit=2`);
  const page = await jsonOf(first);
  t.is(page.length, 2);
  const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
  t.truthy(next);
  const rest = await jsonOf(await fetch(next as string, { headers: { 'x-api-key': partner.apiKey } }));
  t.is(rest.length, 1);
  t.is(new Set([...page, ...rest].map((delivery: Json) => delivery.id)).size, 3);
  const bad = await webhooks(partner.apiKey, `/${endpoint.id}/deliveries?cursor=nonsense`);
  t.is(bad.status, 400);
});

test('the sweep: events older than 30 days go with their log; a delivery pending days past its attempt is failed', async (t) => {
  const partner = await checkoutPartner(running, 'Sweeping Air');
  const endpoint = await register(t, partner.apiKey, ['booking.failed']);
  const old = await jsonOf(await webhooks(partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' }));
  const stuck = await jsonOf(await webhooks(partner.apiKey, `/${endpoint.id}/test`, { method: 'POST' }));
  const knex = running.service.db.knex;
  await knex('webhook_events').where({ id: old.event_id }).update({ created_at: new Date(Date.now() - 31 * 86_400_000) });
  await knex('webhook_deliveries').where({ id: stuck.id }).update({ status: 'pending', next_attempt_at: new Date(Date.now() - 4 * 86_400_000) });
  t.true((await running.service.sweepExpired()) >= 2);
  t.is((await knex('webhook_deliveries').where({ id: old.id })).length, 0, 'the old event’s delivery went with it');
  t.is((await knex('webhook_attempts').where({ delivery_id: old.id })).length, 0);
  t.like(await knex('webhook_deliveries').where({ id: stuck.id }).first(), { status: 'failed', next_attempt_at: null });
});

test('at most 16 endpoints a partner, also when registrations race', async (t) => {
  const partner = await checkoutPartner(running, 'Many Hooks Air');
  const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => webhooks(partner.apiKey, '', { body: { url: receiver.url(`/many/${index}`), events: ['booking.failed'] } })));
  const statuses = answers.map((answer) => answer.status);
  t.is(statuses.filter((status) => status === 201).length, 16, statuses.join(','));
  t.is(statuses.filter((status) => status === 422).length, 4);
  t.is((await running.service.db.knex('webhook_endpoints').where({ partner_id: partner.partnerId })).length, 16);
});

test('the OpenAPI document has the webhook operations', async (t) => {
  const document = await jsonOf(await fetch(`${running.url}/openapi.json`));
  const operations = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap((path) => Object.values(path).map((operation) => operation.operationId));
  for (const id of ['createWebhookEndpoint', 'listWebhookEndpoints', 'getWebhookEndpoint', 'deleteWebhookEndpoint', 'testWebhookEndpoint', 'listWebhookDeliveries', 'retryWebhookDelivery']) {
    t.true(operations.includes(id), id);
  }
  t.truthy(document.components.schemas.WebhookDelivery);
});

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('the condition did not come to hold in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
