/**
 * Saved passengers and identity documents over REST, with a partner's key and travelers' tokens from the
 * real authorization flow: every field rule, ownership (`me`, another traveler's id, another traveler's
 * passenger), soft deletes, traveler types by date, the single default under concurrent requests on
 * PostgreSQL, document numbers sealed at rest, known-traveler numbers promoted, and random bodies that
 * never get a 5xx.
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
let otherToken: string;
let otherUserId: string;
let readOnlyToken: string;

const day = (offsetDays: number, from = new Date()) => new Date(from.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const yearsAgo = (years: number, plusDays = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  return day(plusDays, date);
};

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  // The property test sends its bodies as fast as it can: a plan that lets it.
  await running.service.partners.setPlan({ id: 'passenger-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  const first = await partnerWithTraveler(running, 'Passenger Air', 'passengers.read passengers.write', 'passenger-tests');
  apiKey = first.apiKey;
  token = first.token;
  userId = userIdOf(token);
  const second = await partnerWithTraveler(running, 'Passenger Air Two', 'passengers.read passengers.write');
  otherToken = second.token;
  otherUserId = userIdOf(otherToken);
  otherKey = second.apiKey;
  const reader = await partnerWithTraveler(running, 'Passenger Reader', 'passengers.read');
  readOnlyToken = reader.token;
  readOnlyKey = reader.apiKey;
});
/** Each token goes with its own partner's key. */
let otherKey: string;
let readOnlyKey: string;
test.after.always(async () => {
  await running?.close();
});

function call(path: string, init: { method?: string; body?: unknown; bearer?: string; key?: string } = {}) {
  return fetch(`${running.url}/v1/users/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'x-api-key': init.key ?? apiKey, authorization: `Bearer ${init.bearer ?? token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

const ada = (extra: Json = {}) => ({ first_name: 'Ada', last_name: 'Lovelace', gender: 'female', date_of_birth: '1985-12-10', nationality: 'GB', ...extra });

async function createPassenger(body: Json, bearer = token, key = apiKey): Promise<string> {
  const response = await call('me/passengers', { body, bearer, key });
  if (response.status !== 201) throw new Error(`not created: ${response.status} ${JSON.stringify(await response.json())}`);
  return (await jsonOf(response)).id;
}

test('create, read, change and soft-delete a passenger; me and the own id are the same traveler', async (t) => {
  const created = await call('me/passengers', { body: ada({ email: 'ada@example.com', phone_number: '+447700900123', middle_name: 'Augusta' }) });
  t.is(created.status, 201);
  const { id } = await jsonOf(created);
  const read = await jsonOf(await call(`${userId}/passengers/${id}`));
  t.like(read, { id, user_id: userId, first_name: 'Ada', middle_name: 'Augusta', traveler_type: 'adult', is_default: false, known_traveler_number: null, nationality: 'GB' });
  const changed = await call(`me/passengers/${id}`, { method: 'PUT', body: { last_name: "King-Noel", middle_name: null } });
  t.is(changed.status, 200);
  t.like(await jsonOf(changed), { first_name: 'Ada', last_name: 'King-Noel', middle_name: null });

  t.is((await call(`me/passengers/${id}`, { method: 'DELETE' })).status, 204);
  t.false((await jsonOf(await call('me/passengers'))).some((passenger: Json) => passenger.id === id), 'left out of lists');
  t.is((await call(`me/passengers/${id}`)).status, 404);
  const row = await running.service.db.knex('user_passengers').where({ id }).first();
  t.truthy(row.deleted_at, 'the row is kept');
});

test('field rules: names, codes, phone, dates, and user_id never from the body', async (t) => {
  const cases: [Json, string][] = [
    [ada({ first_name: 'A' }), 'first_name'],
    [ada({ first_name: 'R2D2' }), 'first_name'],
    [ada({ nationality: 'XX' }), 'nationality'],
    [ada({ nationality: 'gb' }), 'nationality'],
    [ada({ phone_number: '07700 900123' }), 'phone_number'],
    [ada({ gender: 'other' }), 'gender'],
    [ada({ date_of_birth: day(3) }), 'date_of_birth'],
    [ada({ user_id: otherUserId }), 'user_id'],
    [ada({ traveler_type: 'senior' }), 'traveler_type'],
    [{ first_name: 'Ada' }, 'last_name'],
  ];
  for (const [body, field] of cases) {
    const response = await call('me/passengers', { body });
    t.is(response.status, 400, JSON.stringify(body));
    t.truthy((await jsonOf(response)).fields[field], `${field} is named`);
  }
  const { id } = await jsonOf(await call('me/passengers', { body: ada() }));
  const removed = await call(`me/passengers/${id}`, { method: 'PUT', body: { first_name: null } });
  t.is(removed.status, 400);
});

test('traveler_type comes from the date of birth at today, or at departure_date; a stated type is kept', async (t) => {
  // Twelve in ten days: a child today, an adult on a flight a month from now.
  const id = await createPassenger(ada({ first_name: 'Byron', date_of_birth: yearsAgo(12, 10) }));
  t.is((await jsonOf(await call(`me/passengers/${id}`))).traveler_type, 'child');
  const later = await jsonOf(await call(`me/passengers?departure_date=${day(30)}`));
  t.is(later.find((passenger: Json) => passenger.id === id).traveler_type, 'adult');
  const baby = await createPassenger(ada({ first_name: 'Annabella', date_of_birth: yearsAgo(1) }));
  t.is((await jsonOf(await call(`me/passengers/${baby}`))).traveler_type, 'infant');
  const stated = await createPassenger(ada({ first_name: 'Stated', traveler_type: 'adult', date_of_birth: yearsAgo(11) }));
  t.is((await jsonOf(await call(`me/passengers/${stated}`))).traveler_type, 'adult');
  t.is((await call('me/passengers?departure_date=tomorrow')).status, 400);
});

test('another traveler’s id in the path is 403; another traveler’s passenger through one’s own path is 404', async (t) => {
  const mine = await createPassenger(ada());
  const forbidden = await call(`${otherUserId}/passengers`, {});
  t.is(forbidden.status, 403);
  t.is((await jsonOf(forbidden)).code, 'not_your_user');
  t.is((await call(`me/passengers/${mine}`, { bearer: otherToken, key: otherKey })).status, 404);
  t.is((await call(`me/passengers/${mine}/documents`, { bearer: otherToken, key: otherKey })).status, 404);
  t.is((await call(`me/passengers/${mine}`, { method: 'DELETE', bearer: otherToken, key: otherKey })).status, 404);
  t.is((await call('me/passengers/not-a-uuid')).status, 404);
  t.is((await call('someone/passengers')).status, 400, 'neither me nor a uuid');
});

test('scopes: reading needs passengers.read, changing passengers.write', async (t) => {
  t.is((await call('me/passengers', { bearer: readOnlyToken, key: readOnlyKey })).status, 200);
  const refused = await call('me/passengers', { body: ada(), bearer: readOnlyToken, key: readOnlyKey });
  t.is(refused.status, 403);
  t.is((await jsonOf(refused)).scope, 'passengers.write');
});

test('at most one default passenger, also when two requests make one at the same time (PostgreSQL)', async (t) => {
  const fresh = await partnerWithTraveler(running, 'Default Air', 'passengers.read passengers.write');
  for (let round = 0; round < 5; round++) {
    await Promise.all([1, 2, 3].map((n) => createPassenger(ada({ first_name: `Default${'x'.repeat(n)}`, is_default: true }), fresh.token, fresh.apiKey)));
    const defaults = await running.service.db.knex('user_passengers').where({ user_id: userIdOf(fresh.token), is_default: true }).whereNull('deleted_at');
    t.is(defaults.length, 1, `round ${round}`);
  }
  const list = await jsonOf(await call('me/passengers', { bearer: fresh.token, key: fresh.apiKey }));
  t.true(list[0].is_default, 'the default comes first');
  const other = list[1].id;
  await call(`me/passengers/${other}`, { method: 'PUT', body: { is_default: true }, bearer: fresh.token, key: fresh.apiKey });
  const after = await jsonOf(await call('me/passengers', { bearer: fresh.token, key: fresh.apiKey }));
  t.deepEqual(after.filter((passenger: Json) => passenger.is_default).map((passenger: Json) => passenger.id), [other]);
});

test('identity documents: the type rules, the number sealed at rest, a primary known-traveler number promoted', async (t) => {
  const passenger = await createPassenger(ada());
  const documents = `me/passengers/${passenger}/documents`;
  const noExpiry = await call(documents, { body: { document_type: 'passport', document_number: '533401234', issuing_country_code: 'GB' } });
  t.is(noExpiry.status, 400);
  t.is((await jsonOf(noExpiry)).fields.expires_on.rule, 'required');
  const passport = await call(documents, { body: { document_type: 'passport', document_number: '533401234', issuing_country_code: 'GB', expires_on: '2031-04-30', nationality_on_document: 'GB' } });
  t.is(passport.status, 201);
  const passportId = (await jsonOf(passport)).id;
  const raw = await running.service.db.knex('identity_documents').where({ id: passportId }).first();
  t.false(JSON.stringify(raw).includes('533401234'), 'the number is nowhere in the row in plain text');
  t.like(await jsonOf(await call(`${documents}/${passportId}`)), { document_number: '533401234', document_type: 'passport', expires_on: '2031-04-30', is_primary: false });

  const ktn = await jsonOf(await call(documents, { body: { document_type: 'known_traveler_number', document_number: 'KTN12345', issuing_country_code: 'US', is_primary: true } }));
  t.is((await jsonOf(await call(`me/passengers/${passenger}`))).known_traveler_number, 'KTN12345');
  const newer = await jsonOf(await call(documents, { body: { document_type: 'known_traveler_number', document_number: 'KTN67890', issuing_country_code: 'US', is_primary: true } }));
  t.is((await jsonOf(await call(`me/passengers/${passenger}`))).known_traveler_number, 'KTN67890', 'one primary per type: the newer one');
  t.false((await jsonOf(await call(`${documents}/${ktn.id}`))).is_primary);

  const changed = await call(`${documents}/${passportId}`, { method: 'PUT', body: { document_number: '999888777', expires_on: null } });
  t.is(changed.status, 400, 'a passport cannot lose its expiry');
  const renumbered = await jsonOf(await call(`${documents}/${passportId}`, { method: 'PUT', body: { document_number: '999888777' } }));
  t.is(renumbered.document_number, '999888777');
  t.is((await jsonOf(await call(documents))).length, 3);
  t.is((await call(`${documents}/${newer.id}`, { method: 'DELETE' })).status, 204);
  t.is((await jsonOf(await call(`me/passengers/${passenger}`))).known_traveler_number, null);
  t.is((await call(`${documents}/${newer.id}`)).status, 404);
});

test('property: random, boundary and hostile bodies to every write route are answered in our envelope, never a 5xx', async (t) => {
  const passenger = await createPassenger(ada());
  const document = (await jsonOf(await call(`me/passengers/${passenger}/documents`, { body: { document_type: 'national_id', document_number: 'ID-123', issuing_country_code: 'FR' } }))).id;
  const text = fc.oneof(hostileText(120), fc.constantFrom('', ' ', 'A', 'Ada', "O'Brien-Lovelace", 'ÅSA', 'x'.repeat(101), 'GB', 'XX', '+447700900123', '2031-02-30', '1985-12-10'));
  const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(hostileText(5), hostileText(5), { maxKeys: 2 }), deeplyNested());
  const keys = fc.constantFrom(
    'first_name', 'middle_name', 'last_name', 'gender', 'date_of_birth', 'email', 'phone_number', 'nationality', 'traveler_type', 'is_default', 'user_id',
    'document_type', 'document_number', 'issuing_country_code', 'issuing_authority', 'issued_date', 'expires_on', 'nationality_on_document', 'birth_country', 'is_primary', 'x',
  );
  // Besides random shapes, valid documents whose free text is hostile: it must reach the check.
  const hostileDocument = fc
    .tuple(hostileText(40), hostileText(40))
    .map(([number, authority]) => ({ document_type: 'national_id', document_number: `ID-${number}`, issuing_country_code: 'FR', issuing_authority: `P${authority}` }));
  const body = fc.oneof(fc.dictionary(keys, value, { maxKeys: 8 }), value, hostileDocument);
  const routes = [
    ['POST', 'me/passengers'],
    ['PUT', `me/passengers/${passenger}`],
    ['POST', `me/passengers/${passenger}/documents`],
    ['PUT', `me/passengers/${passenger}/documents/${document}`],
  ] as const;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...routes), body, async ([method, path], sent) => {
      return answersInOurEnvelope(await call(path, { method, body: sent }));
    }),
    { numRuns: 150 },
  );
  t.pass();
});

test('after review: odd dates and NULs are 400s; one primary per type also when a type changes; unknown query parameters are ignored; one’s id in capitals is one’s own', async (t) => {
  t.is((await call('me/passengers', { body: ada({ date_of_birth: '0000-06-15' }) })).status, 400);
  const passenger = await createPassenger(ada());
  const documents = `me/passengers/${passenger}/documents`;
  t.is((await call(documents, { body: { document_type: 'national_id', document_number: 'ID-1', issuing_country_code: 'FR', issuing_authority: 'Pr\u0000fecture' } })).status, 400);
  t.is((await call(documents, { body: { document_type: 'passport', document_number: 'P123', issuing_country_code: 'FR', expires_on: '0000-01-01' } })).status, 400);
  const badKtn = await call(documents, { body: { document_type: 'known_traveler_number', document_number: 'ab-1', issuing_country_code: 'US' } });
  t.is((await jsonOf(badKtn)).fields.document_number.rule, 'known_traveler_number');

  await call(documents, { body: { document_type: 'passport', document_number: 'P1234567', issuing_country_code: 'FR', expires_on: '2031-01-01', is_primary: true } });
  const ktn = await jsonOf(await call(documents, { body: { document_type: 'known_traveler_number', document_number: 'KTN55555', issuing_country_code: 'US', is_primary: true } }));
  const retyped = await call(`${documents}/${ktn.id}`, { method: 'PUT', body: { document_type: 'passport', expires_on: '2030-01-01' } });
  t.is(retyped.status, 200);
  const primaries = await running.service.db.knex('identity_documents').where({ user_passenger_id: passenger, document_type: 'passport', is_primary: true });
  t.deepEqual(primaries.map((row: Json) => row.id), [ktn.id], 'the retyped primary is now the only primary passport');

  t.is((await call('me/passengers?limit=10&_=123')).status, 200);
  t.is((await call(`${userId.toUpperCase()}/passengers`)).status, 200);
});
