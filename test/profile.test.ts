/**
 * The traveler's profile over REST: reading by `me` or one's own id, changing every field by its rules,
 * `email` and `phone_number` stripped, another traveler's id refused, scopes, and random bodies that
 * never get a 5xx.
 */
import test from 'ava';
import fc from 'fast-check';
import { jsonOf, type Json } from './helpers/http.js';
import { partnerWithTraveler } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let apiKey: string;
let token: string;
let userId: string;

const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString('utf8'));

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  await running.service.partners.setPlan({ id: 'profile-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  ({ apiKey, token } = await partnerWithTraveler(running, 'Profile Air', 'profile.read profile.write', 'profile-tests'));
  userId = claims(token)['custom:user_id'];
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

test('the profile by me or by one’s own id; every field changes by its rules; email and phone_number are stripped', async (t) => {
  const before = await jsonOf(await call('me'));
  t.deepEqual(await jsonOf(await call(userId)), before);
  const changed = await call('me', {
    body: {
      first_name: 'Ada',
      middle_name: 'Augusta',
      last_name: "King-Noel",
      suffix: 'III',
      date_of_birth: '1985-12-10',
      gender: 'female',
      known_traveler_number: 'KTN12345',
      profile_photo_url: 'https://cdn.example.com/ada.jpg',
      email: 'someone.else@example.com',
      phone_number: '+15555550100',
    },
  });
  t.is(changed.status, 200);
  const body = await jsonOf(changed);
  t.like(body, { first_name: 'Ada', middle_name: 'Augusta', last_name: 'King-Noel', suffix: 'III', known_traveler_number: 'KTN12345', email: before.email, phone_number: before.phone_number });
  const row = await running.service.db.knex('users').where({ id: userId }).first();
  t.is(row.email, before.email, 'the e-mail changes only through the contact change');
  t.is(row.first_name, 'Ada');
  t.like(await jsonOf(await call(userId, { body: { middle_name: null } })), { middle_name: null, first_name: 'Ada' });
});

test('field rules name each field; unknown fields are refused', async (t) => {
  const cases: [Json, string][] = [
    [{ first_name: 'A' }, 'first_name'],
    [{ first_name: 'R2D2' }, 'first_name'],
    [{ suffix: 'Jr.' }, 'suffix'],
    [{ suffix: 'Abcdefghijk' }, 'suffix'],
    [{ known_traveler_number: 'ab1' }, 'known_traveler_number'],
    [{ gender: 'x' }, 'gender'],
    [{ date_of_birth: '2999-01-01' }, 'date_of_birth'],
    [{ profile_photo_url: 'javascript:alert(1)' }, 'profile_photo_url'],
    [{ nickname: 'Ada' }, 'nickname'],
  ];
  for (const [body, field] of cases) {
    const response = await call('me', { body });
    t.is(response.status, 400, JSON.stringify(body));
    t.truthy((await jsonOf(response)).fields[field], `${field} is named`);
  }
});

test('another traveler’s id is 403; changing needs profile.write', async (t) => {
  const other = await partnerWithTraveler(running, 'Profile Reader', 'profile.read');
  t.is((await call(claims(other.token)['custom:user_id'])).status, 403);
  const refused = await call('me', { body: { first_name: 'Ada' }, bearer: other.token, key: other.apiKey });
  t.is(refused.status, 403);
  t.is((await jsonOf(refused)).scope, 'profile.write');
});

test('property: random and boundary bodies never get a 5xx', async (t) => {
  const own = await partnerWithTraveler(running, 'Profile Fuzz', 'profile.read profile.write', 'profile-tests');
  const value = fc.oneof(fc.string({ maxLength: 120 }), fc.constantFrom('', 'Ada', 'III', 'male', '1985-12-10', '2031-02-30', 'https://x.example/a.png', '\\u0000'), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
  const keys = fc.constantFrom('first_name', 'middle_name', 'last_name', 'suffix', 'date_of_birth', 'gender', 'known_traveler_number', 'profile_photo_url', 'email', 'phone_number', 'id', 'x');
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.dictionary(keys, value, { maxKeys: 6 }), value), async (body) => {
      const response = await call('me', { body, bearer: own.token, key: own.apiKey });
      await response.arrayBuffer();
      return response.status < 500;
    }),
    { numRuns: 150 },
  );
  t.pass();
});
