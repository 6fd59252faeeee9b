/**
 * Checkout sessions (decisions §12, issue 24 item 2) on a real service: createCheckoutSession with the
 * partner's key, the customer id header and the service's mode; the offer it may sell; getCheckoutSession
 * for the partner's own sessions only, `expired` past `expires_at`; the hosted checkout's way in (the
 * client secret, kept as a digest) and its transitions; the booking's `metadata.iata_code`; sessions
 * served by every instance; the sweep; the OpenAPI document.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import test from 'ava';
import { checkoutBookingMetadata, completedBookingOf } from '../core/checkout/booking.js';
import { WebhookEvents } from '../core/webhooks/events.js';
import { CheckoutSessionService, requireOpen } from '../core/checkout/service.js';
import { systemClock } from '../core/clock.js';
import type { DomainError } from '../core/errors.js';
import { SecretBox } from '../core/crypto/secret-box.js';
import { OfferService } from '../core/flights/offers.js';
import { ProviderCatalog } from '../core/flights/provider-catalog.js';
import { OFFER_NORMALIZERS } from '../modules/offers.js';
import { nativeOffer, REFUNDABLE_OFFER } from './booking-contract/provider-b.js';
import { book, booker, prepareBooking } from './helpers/bookings.js';
import { createTestDatabase } from './helpers/database.js';
import { jsonOf, type Json } from './helpers/http.js';
import { createPartnerClient, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const PAGE = 'https://www.example-airline.com';
const MINUTE = 60_000;

let running: RunningService;
let partner: PartnerClient;
let partnerKeyId: string;
let other: { apiKey: string; partnerId: string };

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  // The file's requests run at once: a plan roomy enough that the rate limit never answers them.
  await running.service.partners.setPlan({ id: 'checkout-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  partner = await createPartnerClient(running, 'Checkout Air', 'checkout-tests');
  partnerKeyId = (await running.service.db.knex('api_keys').where({ partner_id: partner.partnerId }).first()).id;
  const created = await running.service.partners.createPartner({ name: 'Other Checkout Air', plan_id: 'checkout-tests' });
  other = { apiKey: created.api_key, partnerId: created.partner_id };
});
test.after.always(async () => {
  await running?.close();
});

/** provider_b's offer as its API serves it now, with its expiry moved to `expiresInMs` from now. */
async function offerOf(apiKey: string, expiresInMs = 2 * 60 * MINUTE, native?: Json): Promise<string> {
  const raw = native ?? (await nativeOffer(running, REFUNDABLE_OFFER));
  raw.expires_at = new Date(Date.now() + expiresInMs).toISOString();
  const response = await fetch(`${running.url}/v1/flights/providers/provider_b/offers`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(raw),
  });
  const body = await jsonOf(response);
  if (response.status !== 201) throw new Error(`no offer: ${response.status} ${JSON.stringify(body)}`);
  return body.offer_id;
}

function createSession(body: Json, options: { key?: string; customerId?: string | null; origin?: string } = {}) {
  const headers: Record<string, string> = { 'x-api-key': options.key ?? partner.apiKey, 'content-type': 'application/json' };
  if (options.customerId !== null) headers['x-customer-id'] = options.customerId ?? 'BA';
  if (options.origin) headers.origin = options.origin;
  return fetch(`${running.url}/v1/checkout/sessions`, { method: 'POST', headers, body: JSON.stringify(body) });
}

function readSession(id: string, key = partner.apiKey, url = running.url) {
  return fetch(`${url}/v1/checkout/sessions/${id}`, { headers: { 'x-api-key': key } });
}

async function openSession(offerId: string): Promise<Json> {
  const response = await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: PAGE });
  const body = await jsonOf(response);
  if (response.status !== 201) throw new Error(`no session: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

test('a secret key opens a session: 201 with its url, client secret and 30 minutes; the row keeps a digest of the secret', async (t) => {
  const offerId = await offerOf(partner.apiKey);
  const before = Date.now();
  const response = await createSession({ provider_id: 'provider_b', offer_id: offerId, is_prod: false, origin: PAGE }, { customerId: 'BA' });
  t.is(response.status, 201);
  const body = await jsonOf(response);
  t.deepEqual(Object.keys(body).sort(), ['client_secret', 'expires_at', 'id', 'url']);
  t.regex(body.id, /^[0-9a-f-]{36}$/);
  t.regex(body.client_secret, new RegExp(`^cs_${body.id.replaceAll('-', '')}_secret_[A-Za-z0-9_-]{43}$`));
  t.is(body.url, `${running.config.authUrl}/checkout/${body.id}#${body.client_secret}`);

  const row = await running.service.db.knex('checkout_sessions').where({ id: body.id }).first();
  t.is(new Date(body.expires_at).getTime(), row.created_at.getTime() + 30 * MINUTE, '30 minutes: the offer lives two hours');
  t.true(row.created_at.getTime() >= before - 1000);
  t.like(row, { partner_id: partner.partnerId, key_id: partnerKeyId, provider_id: 'provider_b', offer_id: offerId, origin: PAGE, customer_id: 'BA', is_prod: false, status: 'open', booking_id: null });
  t.deepEqual(row.client_secret_hash, createHash('sha256').update(body.client_secret).digest(), 'only the digest is kept');
  t.false(JSON.stringify(row).includes(body.client_secret.split('_secret_')[1]), 'the secret itself is nowhere in the row');
  const offer = await running.service.db.knex('offers').where({ id: offerId }).first();
  t.is(row.total_amount, offer.offer.total_amount);
  t.is(row.currency, offer.offer.total_currency);
});

test('a session ends with its offer when the offer expires first', async (t) => {
  const offerId = await offerOf(partner.apiKey, 10 * MINUTE);
  const session = await openSession(offerId);
  const offer = await running.service.db.knex('offers').where({ id: offerId }).first();
  t.is(session.expires_at, offer.expires_at.toISOString());
  t.true(new Date(session.expires_at).getTime() < Date.now() + 11 * MINUTE);
});

test('x-customer-id is required, 2 or 3 upper-case letters or digits', async (t) => {
  const offerId = await offerOf(partner.apiKey);
  const missing = await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: PAGE }, { customerId: null });
  t.is(missing.status, 400);
  t.like(await jsonOf(missing), { code: 'validation_error', fields: { 'x-customer-id': { field: 'x-customer-id', rule: 'required' } } });
  for (const wrong of ['ba', 'B', 'BAAA', 'B-A', 'B A']) {
    const response = await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: PAGE }, { customerId: wrong });
    t.is(response.status, 400, wrong);
    t.is((await jsonOf(response)).fields['x-customer-id'].rule, 'pattern', wrong);
  }
  for (const right of ['U2', '9W', 'XYZ']) {
    t.is((await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: PAGE }, { customerId: right })).status, 201, right);
  }
  t.is(await running.service.db.knex('checkout_sessions').where({ offer_id: offerId }).count({ n: '*' }).first().then((row) => Number(row?.n)), 3, 'nothing kept for a refusal');
});

test('is_prod must match the service: true on the sandbox is 400 environment_mismatch', async (t) => {
  const offerId = await offerOf(partner.apiKey);
  const response = await createSession({ provider_id: 'provider_b', offer_id: offerId, is_prod: true, origin: PAGE });
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.like(body, { code: 'environment_mismatch', status_code: 400 });
  t.regex(body.message, /sandbox/);
  t.regex(body.doc_url, /#environment_mismatch$/);
});

test('in production mode is_prod must be true, and false is the mismatch', async (t) => {
  const knex = running.service.db.knex;
  const providers = await ProviderCatalog.load(knex);
  const offers = new OfferService({ db: knex, clock: systemClock, providers, normalizers: OFFER_NORMALIZERS, adapters: [], secrets: new SecretBox([randomBytes(32).toString('base64')]) });
  const jobs = running.service.jobs;
  const production = new CheckoutSessionService({ db: knex, clock: systemClock, events: new WebhookEvents(jobs), jobs, offers, providers, mode: 'production', authUrl: 'https://auth.example.com' });
  const offerId = await offerOf(partner.apiKey);
  const opener = { partnerId: partner.partnerId, keyId: partnerKeyId, keyKind: 'secret' as const };
  const request = { provider_id: 'provider_b' as const, offer_id: offerId, origin: PAGE };
  const error = await t.throwsAsync(production.create(opener, { request: { ...request, is_prod: false }, customerId: 'BA', requestOrigin: undefined }));
  t.like(error, { code: 'environment_mismatch', kind: 'validation' });
  t.regex(error?.message ?? '', /production/);
  const created = await production.create(opener, { request: { ...request, is_prod: true }, customerId: 'BA', requestOrigin: undefined });
  t.true(created.url.startsWith(`https://auth.example.com/checkout/${created.id}#cs_`));
  t.true((await knex('checkout_sessions').where({ id: created.id }).first()).is_prod);
});

test('a secret key must name the origin, exactly as a browser sends it', async (t) => {
  const offerId = await offerOf(partner.apiKey);
  const missing = await createSession({ provider_id: 'provider_b', offer_id: offerId });
  t.is(missing.status, 400);
  t.like(await jsonOf(missing), { code: 'validation_error', fields: { origin: { rule: 'required' } } });
  // The request's Origin does not stand in for it: a secret key is a backend's.
  t.is((await createSession({ provider_id: 'provider_b', offer_id: offerId }, { origin: PAGE })).status, 400);
  for (const wrong of [`${PAGE}/`, `${PAGE}/checkout`, 'https://WWW.example-airline.com', 'https://www.example-airline.com:443', 'ftp://example.com', '*']) {
    const response = await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: wrong });
    t.is(response.status, 400, wrong);
    t.is((await jsonOf(response)).fields.origin.rule, 'origin', wrong);
  }
  const local = await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: 'http://localhost:5173' });
  t.is(local.status, 201);
  t.is((await running.service.db.knex('checkout_sessions').where({ id: (await jsonOf(local)).id }).first()).origin, 'http://localhost:5173');
  const unknownField = await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: PAGE, success_url: 'https://x.example' });
  t.is((await jsonOf(unknownField)).fields.success_url.rule, 'unknown_field');
});

test('a publishable key opens a session for the page it is used from; it cannot read sessions', async (t) => {
  const publishable = await running.service.partners.createPublishableKey({ partner_id: partner.partnerId, allowed_origins: [PAGE] });
  const offerId = await offerOf(partner.apiKey);
  const fromPage = await createSession({ provider_id: 'provider_b', offer_id: offerId }, { key: publishable.api_key, origin: PAGE });
  t.is(fromPage.status, 201);
  const created = await jsonOf(fromPage);
  t.like(await running.service.db.knex('checkout_sessions').where({ id: created.id }).first(), { origin: PAGE, key_id: publishable.key_id, partner_id: partner.partnerId });
  t.is((await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: PAGE }, { key: publishable.api_key, origin: PAGE })).status, 201, 'the same origin may be named');
  const elsewhere = await createSession({ provider_id: 'provider_b', offer_id: offerId, origin: 'https://other.example' }, { key: publishable.api_key, origin: PAGE });
  t.is(elsewhere.status, 400);
  t.is((await jsonOf(elsewhere)).fields.origin.rule, 'matches_request_origin');
  const read = await readSession(created.id, publishable.api_key);
  t.is(read.status, 403, 'the backend confirms a sale with its secret key');
  t.is((await readSession(created.id)).status, 200);
});

test('an offer the checkout cannot sell is 422 offer_unavailable: expired, or its flight departed', async (t) => {
  const expiredId = await offerOf(partner.apiKey);
  await running.service.db.knex('offers').where({ id: expiredId }).update({ expires_at: new Date(Date.now() - MINUTE) });
  const expired = await createSession({ provider_id: 'provider_b', offer_id: expiredId, origin: PAGE });
  t.is(expired.status, 422);
  const body = await jsonOf(expired);
  t.like(body, { code: 'offer_unavailable', details: 'offer_expired', status_code: 422 });
  t.regex(body.message, /expired at/);

  // The fixture's flight left on 1 June 2026: the offer itself may still be valid.
  const fixture = JSON.parse(fs.readFileSync('providers/flights/provider-b/fixtures/lhr-jfk-gbp.json', 'utf8'));
  const departedId = await offerOf(partner.apiKey, 60 * MINUTE, fixture);
  const departed = await createSession({ provider_id: 'provider_b', offer_id: departedId, origin: PAGE });
  t.is(departed.status, 422);
  t.like(await jsonOf(departed), { code: 'offer_unavailable', details: 'flight_departed' });
  t.is((await running.service.db.knex('checkout_sessions').whereIn('offer_id', [expiredId, departedId])).length, 0);
});

test("another partner's offer, an unknown one or one under another provider is 404 offer_not_found", async (t) => {
  const theirs = await offerOf(other.apiKey);
  for (const [providerId, offerId] of [
    ['provider_b', theirs],
    ['provider_b', '00000000-0000-4000-8000-000000000000'],
    ['provider_b', 'not-an-id'],
    ['provider_a', await offerOf(partner.apiKey)],
  ] as const) {
    const response = await createSession({ provider_id: providerId, offer_id: offerId, origin: PAGE });
    t.is(response.status, 404, `${providerId} ${offerId}`);
    t.is((await jsonOf(response)).code, 'offer_not_found');
  }
  const unknownProvider = await createSession({ provider_id: 'provider_x', offer_id: theirs, origin: PAGE });
  t.is(unknownProvider.status, 400);
});

test('getCheckoutSession: open for its partner; another partner, an unknown id and a malformed one are the same 404', async (t) => {
  const offerId = await offerOf(partner.apiKey);
  const created = await openSession(offerId);
  const response = await readSession(created.id);
  t.is(response.status, 200);
  const session = await jsonOf(response);
  const row = await running.service.db.knex('checkout_sessions').where({ id: created.id }).first();
  t.deepEqual(session, {
    id: created.id,
    status: 'open',
    provider_id: 'provider_b',
    offer_id: offerId,
    customer_id: 'BA',
    origin: PAGE,
    booking_id: null,
    airline_pnr: null,
    total_amount: row.total_amount,
    currency: row.currency,
    failure_reason: null,
    expires_at: created.expires_at,
    created_at: row.created_at.toISOString(),
  });
  t.false(JSON.stringify(session).includes('secret'), 'the client secret is never read back');

  const answers = await Promise.all([readSession(created.id, other.apiKey), readSession('00000000-0000-4000-8000-000000000000'), readSession('nope')]);
  const bodies = await Promise.all(answers.map(jsonOf));
  t.deepEqual(answers.map((answer) => answer.status), [404, 404, 404]);
  t.deepEqual(bodies.map((body) => body.code), ['checkout_session_not_found', 'checkout_session_not_found', 'checkout_session_not_found']);
  t.is(bodies[0].message.replace(created.id, 'ID'), bodies[1].message.replace('00000000-0000-4000-8000-000000000000', 'ID'), 'nothing tells another partner the session exists');
  t.is((await fetch(`${running.url}/v1/checkout/sessions/${created.id}`)).status, 401);
});

test('past expires_at an open session reads expired, and the hosted checkout may not book it', async (t) => {
  const created = await openSession(await offerOf(partner.apiKey));
  await running.service.db.knex('checkout_sessions').where({ id: created.id }).update({ expires_at: new Date(Date.now() - 1000) });
  const session = await jsonOf(await readSession(created.id));
  t.is(session.status, 'expired');
  const opened = await running.service.checkoutSessions.openWithSecret(created.id, created.client_secret);
  t.is(opened.status, 'expired');
  t.like(t.throws(() => requireOpen(opened)), { code: 'checkout_session_expired', kind: 'gone' });
});

test('openWithSecret: the right secret opens its session; a wrong one, another session’s and an unknown id are the same 404', async (t) => {
  const offerId = await offerOf(partner.apiKey);
  const first = await openSession(offerId);
  const second = await openSession(offerId);
  const checkout = running.service.checkoutSessions;
  const opened = await checkout.openWithSecret(first.id, first.client_secret);
  t.like(opened, { id: first.id, status: 'open', partner_id: partner.partnerId, is_prod: false, origin: PAGE, customer_id: 'BA', offer_id: offerId });
  t.notThrows(() => requireOpen(opened));
  const refusals = await Promise.all([
    t.throwsAsync(checkout.openWithSecret(first.id, second.client_secret)),
    t.throwsAsync(checkout.openWithSecret(first.id, `${first.client_secret}x`)),
    t.throwsAsync(checkout.openWithSecret(first.id, '')),
    t.throwsAsync(checkout.openWithSecret('00000000-0000-4000-8000-000000000000', first.client_secret)),
    t.throwsAsync(checkout.openWithSecret('not-an-id', first.client_secret)),
  ]);
  t.deepEqual(refusals.map((error) => (error as DomainError | undefined)?.code), Array(5).fill('checkout_session_not_found'));
});

test('a booking through the checkout carries metadata.iata_code; the session completes once, with it', async (t) => {
  const traveler = await booker(running, partner);
  const prepared = await prepareBooking(running, traveler, 'provider_b');
  const created = await openSession(prepared.offerId);
  const checkout = running.service.checkoutSessions;
  const session = await checkout.openWithSecret(created.id, created.client_secret);

  const response = await book(running, traveler, 'provider_b', { ...prepared.body, metadata: checkoutBookingMetadata(session) });
  const booked = await jsonOf(response);
  t.is(response.status, 201, JSON.stringify(booked));
  t.deepEqual(booked.metadata, { iata_code: 'BA', checkout_session_id: created.id });
  t.deepEqual((await running.service.db.knex('bookings').where({ id: booked.booking.id }).first()).metadata, { iata_code: 'BA', checkout_session_id: created.id });

  const completed = await checkout.complete(created.id, completedBookingOf(booked));
  t.like(completed, { status: 'complete', booking_id: booked.booking.id, airline_pnr: booked.booking.airline_pnr, currency: booked.booking.currency });
  t.truthy(completed.airline_pnr);
  t.is(Number(completed.total_amount), booked.booking.total_amount);
  t.like(await jsonOf(await readSession(created.id)), { status: 'complete', booking_id: booked.booking.id, airline_pnr: booked.booking.airline_pnr });

  // Once: the same booking again answers the same; anything else is refused.
  t.deepEqual(await checkout.complete(created.id, completedBookingOf(booked)), completed);
  const another = { ...completedBookingOf(booked), booking_id: '00000000-0000-4000-8000-000000000000' };
  t.like(await t.throwsAsync(checkout.complete(created.id, another)), { code: 'checkout_session_closed', kind: 'conflict' });
  t.like(await t.throwsAsync(checkout.fail(created.id, 'search_again')), { code: 'checkout_session_closed' });
  t.like(t.throws(() => requireOpen(completed)), { code: 'checkout_session_closed' });
  // Past its expiry a complete session stays complete, and the sweep keeps it: the record of a sale.
  await running.service.db.knex('checkout_sessions').where({ id: created.id }).update({ expires_at: new Date(Date.now() - 2 * 24 * 60 * MINUTE) });
  await running.service.sweepExpired();
  t.is((await jsonOf(await readSession(created.id))).status, 'complete');
});

test('a session fails once, from open only, with its reason', async (t) => {
  const created = await openSession(await offerOf(partner.apiKey));
  const checkout = running.service.checkoutSessions;
  const failed = await checkout.fail(created.id, 'offer_unavailable');
  t.like(failed, { status: 'failed', failure_reason: 'offer_unavailable', booking_id: null });
  t.like(await jsonOf(await readSession(created.id)), { status: 'failed', failure_reason: 'offer_unavailable' });
  t.like(await checkout.fail(created.id, 'offer_unavailable'), { status: 'failed' });
  const late = { booking_id: '00000000-0000-4000-8000-000000000000', airline_pnr: null, total_amount: '1.00', currency: 'GBP' };
  t.like(await t.throwsAsync(checkout.complete(created.id, late)), { code: 'checkout_session_closed' });
  t.like(await t.throwsAsync(checkout.fail('00000000-0000-4000-8000-000000000000', 'search_again')), { code: 'checkout_session_not_found' });
});

test('the sweep deletes sessions a day after they expired unsold', async (t) => {
  const offerId = await offerOf(partner.apiKey);
  const [failed, open, recent] = [await openSession(offerId), await openSession(offerId), await openSession(offerId)];
  const knex = running.service.db.knex;
  const dayAgo = new Date(Date.now() - 25 * 60 * MINUTE);
  await running.service.checkoutSessions.fail(failed.id, 'search_again');
  await knex('checkout_sessions').whereIn('id', [failed.id, open.id]).update({ expires_at: dayAgo });
  await knex('checkout_sessions').where({ id: recent.id }).update({ expires_at: new Date(Date.now() - 60 * MINUTE) });
  t.true((await running.service.sweepExpired()) >= 2);
  t.is((await readSession(failed.id)).status, 404);
  t.is((await readSession(open.id)).status, 404, 'an open session a day past its expiry was never sold');
  t.like(await jsonOf(await readSession(recent.id)), { status: 'expired' }, 'an hour after its expiry it still reads expired');
});

test('every instance serves every session: one opened on one instance is read and opened on another', async (t) => {
  const database = await createTestDatabase();
  const first = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix() });
  const second = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix() });
  try {
    const key = (await first.service.partners.createPartner({ name: 'Two Instances Air' })).api_key;
    const raw = await nativeOffer(first, REFUNDABLE_OFFER);
    const offer = await jsonOf(
      await fetch(`${first.url}/v1/flights/providers/provider_b/offers`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(raw) }),
    );
    const response = await fetch(`${first.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'x-customer-id': 'VS', 'content-type': 'application/json' },
      body: JSON.stringify({ provider_id: 'provider_b', offer_id: offer.offer_id, origin: PAGE }),
    });
    t.is(response.status, 201);
    const created = await jsonOf(response);
    const elsewhere = await readSession(created.id, key, second.url);
    t.is(elsewhere.status, 200);
    t.like(await jsonOf(elsewhere), { id: created.id, status: 'open', customer_id: 'VS' });
    t.like(await second.service.checkoutSessions.openWithSecret(created.id, created.client_secret), { id: created.id, status: 'open' });
  } finally {
    await second.close();
    await first.close();
    await database.drop();
  }
});

test('the OpenAPI document has both operations, the header, the examples and the errors', async (t) => {
  const doc = await jsonOf(await fetch(`${running.url}/openapi.json`));
  const create = doc.paths['/v1/checkout/sessions'].post;
  t.is(create.operationId, 'createCheckoutSession');
  t.deepEqual(create.tags, ['Checkout']);
  t.regex(create.description, /environment_mismatch/);
  const header = create.parameters.find((parameter: Json) => parameter.in === 'header');
  t.like(header, { name: 'x-customer-id', required: true, example: 'BA' });
  t.is(header.schema.pattern, '^[A-Z0-9]{2,3}$');
  t.deepEqual(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreateCheckoutSessionRequest' });
  t.truthy(create.requestBody.content['application/json'].example.origin);
  t.truthy(create.responses['201'].content['application/json'].example.client_secret);
  const example = (operation: Json, status: number, code: string) => {
    const ref = operation.responses[String(status)].content['application/json'].examples[code].$ref;
    return ref.replace(/^#\//, '').split('/').reduce((node: Json, key: string) => node[key], doc).value;
  };
  t.like(example(create, 400, 'environment_mismatch'), { status_code: 400, code: 'environment_mismatch' });
  t.like(example(create, 400, 'validation'), { code: 'validation_error' });
  t.like(example(create, 404, 'offer_not_found'), { status_code: 404 });
  t.like(example(create, 422, 'offer_unavailable'), { status_code: 422, details: 'offer_expired' });
  const get = doc.paths['/v1/checkout/sessions/{id}'].get;
  t.is(get.operationId, 'getCheckoutSession');
  t.like(example(get, 404, 'checkout_session_not_found'), { status_code: 404 });
  t.deepEqual(doc.components.schemas.CheckoutSession.properties.status.enum, ['open', 'complete', 'expired', 'failed']);
  t.true(doc.tags.some((tag: Json) => tag.name === 'Checkout'));
});
