/**
 * createProviderOffer and getProviderOffer end to end: the native offer in, the normalized Offer out,
 * stored for the partner that sent it; malformed offers, unknown providers, expiry, other partners.
 */
import fs from 'node:fs';
import test from 'ava';
import type { Clock } from '../core/clock.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const native = JSON.parse(fs.readFileSync('providers/flights/provider-b/fixtures/lhr-jfk-gbp.json', 'utf8'));
const expected = JSON.parse(fs.readFileSync('providers/flights/provider-b/fixtures/lhr-jfk-gbp.offer.json', 'utf8'));
// The fixture's offer is valid from 09:00 to 09:30 on 20 May 2026.
let now = new Date('2026-05-20T09:10:00Z');
const clock: Clock = { now: () => now };
let running: RunningService;
let apiKey: string;
let otherKey: string;

test.before(async () => {
  running = await startService({}, { clock, rateLimitKeyPrefix: uniquePrefix() });
  apiKey = (await running.service.partners.createPartner({ name: 'Offer partner' })).api_key;
  otherKey = (await running.service.partners.createPartner({ name: 'Other partner' })).api_key;
});
test.after.always(async () => {
  await running?.close();
});

const create = (provider: string, body: unknown, key = apiKey) =>
  fetch(`${running.url}/v1/flights/providers/${provider}/offers`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const read = (provider: string, offerId: string, key = apiKey) =>
  fetch(`${running.url}/v1/flights/providers/${provider}/offers/${offerId}`, { headers: { 'x-api-key': key } });

test.serial('a provider_b offer is normalized, kept for its partner, and read back', async (t) => {
  now = new Date('2026-05-20T09:10:00Z');
  const created = await create('provider_b', native);
  t.is(created.status, 201);
  const { offer_id: offerId } = await jsonOf(created);
  t.regex(offerId, /^[0-9a-f-]{36}$/);

  const response = await read('provider_b', offerId);
  t.is(response.status, 200);
  // The stored JSON is sent as text: it must still say it is JSON.
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  const offer = await jsonOf(response);
  const { id, created_at: createdAt, updated_at: updatedAt, raw_offer: raw, ...rest } = offer;
  const { id: _nativeId, created_at: _c, updated_at: _u, ...expectedRest } = expected;
  t.is(id, offerId, 'the offer carries our id; the provider’s stays in raw_offer');
  t.deepEqual(rest, expectedRest);
  t.deepEqual(raw, native);
  t.is(createdAt, '2026-05-20T09:10:00.000Z');
  t.is(updatedAt, createdAt);

  const row = await running.service.db.knex('offers').where({ id: offerId }).first();
  t.is(row.provider_offer_id, native.id);
  t.deepEqual(row.raw_offer, native);

  t.is((await read('provider_b', offerId, otherKey)).status, 404, "another partner's offer is not found");
  t.is((await read('provider_a', offerId)).status, 404, 'nor under another provider');
  t.is((await fetch(`${running.url}/v1/flights/providers/provider_b/offers/${offerId}`)).status, 401);
});

test.serial('an offer kept while the stored offer still had the provider’s id and times inside reads the same', async (t) => {
  now = new Date('2026-05-20T09:10:00Z');
  const { offer_id: offerId } = await jsonOf(await create('provider_b', native));
  const fresh = await jsonOf(await read('provider_b', offerId));
  const offers = () => running.service.db.knex('offers').where({ id: offerId });
  const { offer } = await offers().first();
  t.false('id' in offer, 'what is ours is not stored in the offer');
  await offers().update({ offer: JSON.stringify({ ...offer, id: native.id, created_at: native.created_at, updated_at: native.updated_at }) });
  t.deepEqual(await jsonOf(await read('provider_b', offerId)), fresh);
});

test.serial('after expires_at the offer answers 410 offer_expired; an offer already expired is not taken', async (t) => {
  now = new Date('2026-05-20T09:10:00Z');
  const { offer_id: offerId } = await jsonOf(await create('provider_b', native));
  now = new Date('2026-05-20T09:30:00Z');
  const gone = await read('provider_b', offerId);
  t.is(gone.status, 410);
  const body = await jsonOf(gone);
  t.is(body.code, 'offer_expired');
  t.regex(body.message, /expired at 2026-05-20T09:30:00.000Z/);
  const late = await create('provider_b', native);
  t.is(late.status, 410);
});

test.serial('a provider_a offer has no expiry of its own: it lives 30 minutes from its arrival', async (t) => {
  now = new Date('2026-05-20T09:10:00Z');
  const amadeus = JSON.parse(fs.readFileSync('providers/flights/provider-a/fixtures/lhr-cdg-return-gbp.json', 'utf8'));
  const created = await create('provider_a', amadeus);
  t.is(created.status, 201);
  const { offer_id: offerId } = await jsonOf(created);
  const offer = await jsonOf(await read('provider_a', offerId));
  t.is(offer.expires_at, '2026-05-20T09:40:00.000Z');
  t.is(offer.total_amount, '96.40');
  t.is(offer.slices.length, 2);
  now = new Date('2026-05-20T09:41:00Z');
  t.is((await read('provider_a', offerId)).status, 410);
  const priced = await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}/pricing`, { method: 'POST', headers: { 'x-api-key': apiKey } });
  t.is(priced.status, 401, 'pricing acts for a traveler: it needs a token');
});

test.serial('a malformed offer is a validation error naming each path; nothing is stored', async (t) => {
  now = new Date('2026-05-20T09:10:00Z');
  const before = await running.service.db.knex('offers').count({ n: '*' }).first();
  const broken = structuredClone(native);
  broken.total_amount = 512.46;
  broken.slices[0].segments[0].departing_at = 'tomorrow';
  delete broken.owner;
  const response = await create('provider_b', broken);
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.truthy(body.fields.total_amount);
  t.truthy(body.fields['slices.0.segments.0.departing_at']);
  t.is(body.fields.owner.rule, 'required');
  const after = await running.service.db.knex('offers').count({ n: '*' }).first();
  t.deepEqual(after, before);
});

test.serial('an unknown provider is 404; an offer in another provider’s format is 400', async (t) => {
  const unknown = await create('provider_z', native);
  t.is(unknown.status, 404);
  t.is((await jsonOf(unknown)).code, 'provider_not_found');
  const wrongDialect = await create('provider_a', native);
  t.is(wrongDialect.status, 400, "provider_b's offer is not in provider_a's format");
  t.truthy((await jsonOf(wrongDialect)).fields.itineraries);
  t.is((await read('provider_b', 'not-a-uuid')).status, 404);
});

test.serial('prices that cannot be, NUL characters and malformed ids are refused clearly; nothing is stored', async (t) => {
  now = new Date('2026-05-20T09:10:00Z');
  const before = await running.service.db.knex('offers').count({ n: '*' }).first();
  const negative = await create('provider_b', { ...structuredClone(native), total_amount: '-512.46' });
  t.is(negative.status, 400);
  const parts = await create('provider_b', { ...structuredClone(native), base_amount: '400.00' });
  t.is(parts.status, 400);
  t.is((await jsonOf(parts)).fields.total_amount.rule, 'consistent');
  const mixed = await create('provider_b', { ...structuredClone(native), tax_currency: 'USD' });
  t.is((await jsonOf(mixed)).fields.total_currency.rule, 'one_currency');
  const precise = await create('provider_b', { ...structuredClone(native), total_amount: '512.465' });
  t.is((await jsonOf(precise)).fields.total_amount.rule, 'minor_units');
  const withNul = structuredClone(native);
  withNul.owner.name = 'Brit\u0000ish';
  const nul = await create('provider_b', withNul);
  t.is(nul.status, 400);
  t.is((await jsonOf(nul)).fields['owner.name'].rule, 'no_nul');
  const after = await running.service.db.knex('offers').count({ n: '*' }).first();
  t.deepEqual(after, before);
  for (const id of ['000000000000000000000000000000000000', '------------------------------------']) {
    t.is((await read('provider_b', id)).status, 404, id);
  }
});
