/**
 * A traveler's preferences over REST, with a partner's key and the traveler's token from the real flow:
 * locale defaults and codes checked against ISO data, travel preferences (404 until set), SMS sign-in
 * only with a verified phone, scopes and ownership, and random and hostile bodies answered in our
 * envelope, never a 5xx.
 */
import test from 'ava';
import fc from 'fast-check';
import { answersInOurEnvelope, deeplyNested, hostileText } from './helpers/hostile.js';
import { jsonOf, type Json } from './helpers/http.js';
import { partnerWithTraveler, userIdOf } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let apiKey: string;
let token: string;
let userId: string;
let reader: { apiKey: string; token: string };


test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  await running.service.partners.setPlan({ id: 'preference-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  ({ apiKey, token } = await partnerWithTraveler(running, 'Preference Air', 'preferences.read preferences.write', 'preference-tests'));
  userId = userIdOf(token);
  reader = await partnerWithTraveler(running, 'Preference Reader', 'preferences.read');
});
test.after.always(async () => {
  await running?.close();
});

function call(path: string, init: { body?: unknown; bearer?: string; key?: string } = {}) {
  return fetch(`${running.url}/v1/users/${path}`, {
    method: init.body === undefined ? 'GET' : 'PUT',
    headers: { 'x-api-key': init.key ?? apiKey, authorization: `Bearer ${init.bearer ?? token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

const travel = {
  seat: { seat_type: 'aisle', seating_zone: 'front', extra_legroom: true, exit_row: false },
  bag: { check_bag: true },
  meal: { meal_types: ['vegetarian'], dietary_notes: 'no nuts' },
  special_assistance: [],
};

test('locale: defaults until set; codes are checked against ISO data', async (t) => {
  t.deepEqual(await jsonOf(await call('me/preferences/locale')), { user_id: userId, language_code: 'en', region_code: 'US', currency_code: 'USD', updated_at: null });
  const set = await call(`${userId}/preferences/locale`, { body: { language_code: 'fr', region_code: 'FR', currency_code: 'EUR' } });
  t.is(set.status, 200);
  const body = await jsonOf(set);
  t.like(body, { language_code: 'fr', region_code: 'FR', currency_code: 'EUR' });
  t.truthy(body.updated_at);
  t.like(await jsonOf(await call('me/preferences/locale')), { language_code: 'fr' });
  const wrong = await call('me/preferences/locale', { body: { language_code: 'xx', region_code: 'XX', currency_code: 'ABC' } });
  t.is(wrong.status, 400);
  t.deepEqual(Object.keys((await jsonOf(wrong)).fields).sort(), ['currency_code', 'language_code', 'region_code']);
  t.is((await call('me/preferences/locale', { body: { language_code: 'EN', region_code: 'gb', currency_code: 'gbp' } })).status, 400, 'codes in their own case');
  t.is((await call('me/preferences/locale', { body: { language_code: 'en' } })).status, 400, 'all three are required');
});

test('travel: 404 until set, then as set; every field checked', async (t) => {
  const before = await call('me/preferences/travel');
  t.is(before.status, 404);
  t.is((await jsonOf(before)).code, 'preferences_not_set');
  const set = await call('me/preferences/travel', { body: travel });
  t.is(set.status, 200);
  t.like(await jsonOf(set), { user_id: userId, ...travel });
  t.like(await jsonOf(await call('me/preferences/travel')), { seat: { seat_type: 'aisle' }, meal: { meal_types: ['vegetarian'] } });
  const wrong = await call('me/preferences/travel', { body: { ...travel, seat: { ...travel.seat, seat_type: 'wing' }, special_assistance: ['jetpack'] } });
  t.is(wrong.status, 400);
  t.truthy((await jsonOf(wrong)).fields['seat.seat_type']);
});

test('security: SMS sign-in only with a verified phone', async (t) => {
  t.deepEqual(await jsonOf(await call('me/preferences/security')), { sms_sign_in: false, phone_verified: false, updated_at: null });
  const refused = await call('me/preferences/security', { body: { sms_sign_in: true } });
  t.is(refused.status, 400);
  t.is((await jsonOf(refused)).fields.sms_sign_in.rule, 'verified_phone');
  await running.service.db.knex('users').where({ id: userId }).update({ phone_number: '+447700900123', phone_verified: true });
  const on = await jsonOf(await call('me/preferences/security', { body: { sms_sign_in: true } }));
  t.like(on, { sms_sign_in: true, phone_verified: true });
  t.truthy(on.updated_at);
  t.true((await running.service.db.knex('users').where({ id: userId }).first()).sms_sign_in, 'sign-in reads it from the user');
});

test('scopes and ownership: reading needs preferences.read, setting preferences.write; another traveler is 403', async (t) => {
  t.is((await call('me/preferences/locale', { bearer: reader.token, key: reader.apiKey })).status, 200);
  const refused = await call('me/preferences/locale', { body: { language_code: 'en', region_code: 'GB', currency_code: 'GBP' }, bearer: reader.token, key: reader.apiKey });
  t.is(refused.status, 403);
  t.is((await jsonOf(refused)).scope, 'preferences.write');
  t.is((await call(`${userIdOf(reader.token)}/preferences/locale`)).status, 403);
});

test('property: random, boundary and hostile bodies to every preference route are answered in our envelope, never a 5xx', async (t) => {
  // A traveler of its own: its random bodies must not change what the other tests read.
  const own = await partnerWithTraveler(running, 'Preference Fuzz', 'preferences.read preferences.write', 'preference-tests');
  const leaf = fc.oneof(hostileText(40), fc.constantFrom('en', 'GB', 'USD', 'aisle', 'front', 'vegan', ''), fc.integer(), fc.boolean(), fc.constant(null), deeplyNested());
  const value: fc.Arbitrary<Json> = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('seat', 'bag', 'meal', 'special_assistance', 'seat_type', 'check_bag', 'meal_types', 'dietary_notes', 'language_code', 'region_code', 'currency_code', 'sms_sign_in', 'x'), tie('node'), { maxKeys: 5 })),
  })).node;
  await fc.assert(
    // Besides random shapes, valid travel preferences whose free text is hostile: it must reach the check.
    fc.asyncProperty(fc.constantFrom('locale', 'travel', 'security'), fc.oneof(value, hostileText(40).map((notes) => ({ ...travel, meal: { ...travel.meal, dietary_notes: notes } }))), async (kind, body) => {
      return answersInOurEnvelope(await call(`me/preferences/${kind}`, { body, bearer: own.token, key: own.apiKey }));
    }),
    { numRuns: 150 },
  );
  t.pass();
});
