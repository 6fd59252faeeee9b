/**
 * POST /v1/identity/resolve over real HTTP: an airline (a partner's confidential client) resolves its
 * traveler by the svc_guid of the code exchange or by a recognition token into claims per the scopes the
 * traveler grants it now; every guid or token that does not resolve is the same 404; only the client's
 * own Basic credentials open the route.
 */
import test from 'ava';
import { systemClock } from '../core/clock.js';
import { PreferencesService } from '../core/preferences/service.js';
import { UserService } from '../core/users/service.js';
import { jsonOf } from './helpers/http.js';
import {
  basic,
  basicOf,
  connect,
  createAirline,
  disconnect,
  expiredToken,
  identityCall,
  keepScopes,
  mintToken,
  resolve,
  type ConnectedTraveler,
} from './helpers/identity.js';
import { oauth, registerPublicClient } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

const TRAVEL = {
  seat: { seat_type: 'aisle', seating_zone: 'front', extra_legroom: true, exit_row: false },
  bag: { check_bag: true },
  meal: { meal_types: ['vegan'], dietary_notes: 'No sesame.' },
  special_assistance: ['hearing_impairment'],
};

async function setProfile(traveler: ConnectedTraveler, fields: Record<string, unknown>) {
  await new UserService(running.service.db.knex, systemClock).updateUser(traveler.userId, fields);
}

function preferences() {
  return new PreferencesService({ db: running.service.db.knex, clock: systemClock });
}

/** The identical part of two 404 answers: everything but the request id. */
function sameButRequestId(a: { text: string; body: { request_id: string } }, b: { text: string; body: { request_id: string } }): [string, string] {
  return [a.text.replace(a.body.request_id, '<id>'), b.text.replace(b.body.request_id, '<id>')];
}

test('resolve by svc_guid: claims per scope, preferences nested, never-set fields left out, no user id', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read preferences.read');
  await setProfile(traveler, { first_name: 'Amelia', last_name: 'Hart' });
  await preferences().setTravel(traveler.userId, TRAVEL);

  const answer = await resolve(running, airline, { guid: traveler.guid });
  t.is(answer.status, 200, answer.text);
  t.is(answer.headers.get('cache-control'), 'no-store');
  t.deepEqual(answer.body, {
    guid: traveler.guid,
    status: 'active',
    granted_scopes: ['profile.read', 'preferences.read'],
    // middle_name, suffix and phone_number were never set: left out, not null.
    profile: { first_name: 'Amelia', last_name: 'Hart', email: traveler.email },
    // Locale was never set: no defaults passed off as the traveler's choice.
    preferences: {
      travel: {
        seat_type: 'aisle',
        seating_zone: 'front',
        extra_legroom: true,
        exit_row: false,
        check_bag: true,
        meal_types: ['vegan'],
        dietary_notes: 'No sesame.',
        special_assistance: ['hearing_impairment'],
      },
    },
  });
  t.false(answer.text.includes(traveler.userId), 'no user id anywhere in the body');
  t.is(answer.body.loyalty, undefined, 'no loyalty without loyalty.read and a link');

  await preferences().setLocale(traveler.userId, { language_code: 'fr', region_code: 'FR', currency_code: 'EUR' });
  const withLocale = await resolve(running, airline, { guid: traveler.guid.toUpperCase() });
  t.is(withLocale.status, 200, 'a guid is a UUID: its case does not matter');
  t.deepEqual(withLocale.body.preferences.locale, { language_code: 'fr', region_code: 'FR', currency_code: 'EUR' });
  t.is(withLocale.body.guid, traveler.guid);
});

test('a traveler who set nothing: the profile has the e-mail only, and no preferences group', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read preferences.read');
  const answer = await resolve(running, airline, { guid: traveler.guid });
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { guid: traveler.guid, status: 'active', granted_scopes: ['profile.read', 'preferences.read'], profile: { email: traveler.email } });
});

test('only the groups of granted scopes: profile.read alone discloses no preferences', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read bookings.read');
  await preferences().setTravel(traveler.userId, TRAVEL);
  const answer = await resolve(running, airline, { guid: traveler.guid });
  t.deepEqual(answer.body.granted_scopes, ['profile.read', 'bookings.read']);
  t.deepEqual(Object.keys(answer.body).sort(), ['granted_scopes', 'guid', 'profile', 'status']);
  t.false(/booking/i.test(JSON.stringify(Object.keys(answer.body))), 'no bookings, whatever the scopes');
});

test('a recognition token resolves to the same claims plus the guid, once; a replay, an expired token and garbage are 404 unknown_token', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read preferences.read');
  await setProfile(traveler, { first_name: 'Noor', suffix: 'III' });
  await preferences().setTravel(traveler.userId, TRAVEL);

  const byGuid = await resolve(running, airline, { guid: traveler.guid });
  const token = await mintToken(running, traveler.userId, airline.clientId);
  const byToken = await resolve(running, airline, { recognition_token: token });
  t.is(byToken.status, 200, byToken.text);
  t.deepEqual(byToken.body, byGuid.body);
  t.is(byToken.body.guid, traveler.guid);

  const replay = await resolve(running, airline, { recognition_token: token });
  const expired = await resolve(running, airline, { recognition_token: await expiredToken(running, traveler.userId, airline.clientId) });
  const unknown = await resolve(running, airline, { recognition_token: 'AAAAAAAAAAAAAAAAAAAAAA' });
  const malformed = await resolve(running, airline, { recognition_token: 'not a token at all' });
  for (const [name, answer] of Object.entries({ replay, expired, unknown, malformed })) {
    t.is(answer.status, 404, name);
    t.like(answer.body, { error: 'unknown_token', code: 'unknown_token' }, name);
    t.deepEqual(...sameButRequestId(replay, answer), name);
  }
  t.deepEqual(Object.keys(replay.body).sort(), ['code', 'doc_url', 'error', 'message', 'request_id']);
});

test('racing resolves of one token: exactly one gets the claims, every other the 404', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read');
  const token = await mintToken(running, traveler.userId, airline.clientId);
  const answers = await Promise.all(Array.from({ length: 8 }, () => resolve(running, airline, { recognition_token: token })));
  t.deepEqual(
    answers.map((answer) => answer.status).sort(),
    [200, 404, 404, 404, 404, 404, 404, 404],
  );
  t.is(answers.find((answer) => answer.status === 200)?.body.guid, traveler.guid);
  const row = await running.service.db.knex('recognition_tokens').where({ user_id: traveler.userId, client_id: airline.clientId }).first('used_at');
  t.truthy(row?.used_at, 'used up once');
});

test('another airline’s guid and token: 404 with the same body as an unknown one, and the token is not used up', async (t) => {
  const first = await createAirline(running, 'First Air');
  const second = await createAirline(running, 'Second Air');
  const traveler = await connect(running, first, 'profile.read');
  // The same traveler connects the second airline too (signed in already: consent only).
  const there = await connect(running, second, 'profile.read', { email: traveler.email, browser: traveler.browser });
  t.not(there.guid, traveler.guid, 'one pairwise GUID per airline');

  const foreignGuid = await resolve(running, second, { guid: traveler.guid });
  const unknownGuid = await resolve(running, second, { guid: '00000000-0000-4000-8000-000000000000' });
  const malformedGuid = await resolve(running, second, { guid: 'not-a-uuid' });
  for (const answer of [foreignGuid, unknownGuid, malformedGuid]) {
    t.is(answer.status, 404);
    t.deepEqual(...sameButRequestId(unknownGuid, answer));
  }
  t.is(unknownGuid.body.error, 'unknown_guid');

  const token = await mintToken(running, traveler.userId, first.clientId);
  const foreignToken = await resolve(running, second, { recognition_token: token });
  const unknownToken = await resolve(running, second, { recognition_token: 'BBBBBBBBBBBBBBBBBBBBBB' });
  t.is(foreignToken.status, 404);
  t.deepEqual(...sameButRequestId(unknownToken, foreignToken));
  t.is((await resolve(running, first, { recognition_token: token })).status, 200, 'the rightful airline can still use it');
});

test('two travelers of one airline each get their own claims', async (t) => {
  const airline = await createAirline(running);
  const [one, two] = await Promise.all([connect(running, airline, 'profile.read'), connect(running, airline, 'profile.read')]);
  await setProfile(one, { first_name: 'Ines' });
  await setProfile(two, { first_name: 'Kofi' });
  const [a, b] = await Promise.all([resolve(running, airline, { guid: one.guid }), resolve(running, airline, { guid: two.guid })]);
  t.like(a.body, { guid: one.guid, profile: { first_name: 'Ines', email: one.email } });
  t.like(b.body, { guid: two.guid, profile: { first_name: 'Kofi', email: two.email } });
});

test('revoked consent: the guid and an outstanding token are 404, alike with unknown ones', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read');
  const token = await mintToken(running, traveler.userId, airline.clientId);
  t.is((await resolve(running, airline, { guid: traveler.guid })).status, 200);

  await disconnect(running, traveler, airline.clientId);
  const guid = await resolve(running, airline, { guid: traveler.guid });
  const revokedToken = await resolve(running, airline, { recognition_token: token });
  t.is(guid.status, 404);
  t.deepEqual(...sameButRequestId(guid, await resolve(running, airline, { guid: '11111111-1111-4111-8111-111111111111' })));
  t.is(revokedToken.status, 404);
  t.deepEqual(...sameButRequestId(revokedToken, await resolve(running, airline, { recognition_token: 'CCCCCCCCCCCCCCCCCCCCCC' })));
  const left = await running.service.db.knex('recognition_tokens').where({ user_id: traveler.userId, client_id: airline.clientId }).count({ n: '*' });
  t.is(Number(left[0]?.n), 0, 'revocation forgot the outstanding tokens');
});

test('a scope turned off on the Connected apps page narrows the next resolve at once; all off leaves guid and status only', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read preferences.read');
  await preferences().setTravel(traveler.userId, TRAVEL);
  t.truthy((await resolve(running, airline, { guid: traveler.guid })).body.profile);

  await keepScopes(running, traveler, airline.clientId, ['preferences.read']);
  const narrowed = await resolve(running, airline, { guid: traveler.guid });
  t.deepEqual(narrowed.body.granted_scopes, ['preferences.read']);
  t.is(narrowed.body.profile, undefined);
  t.truthy(narrowed.body.preferences.travel);

  await keepScopes(running, traveler, airline.clientId, []);
  const none = await resolve(running, airline, { guid: traveler.guid });
  t.is(none.status, 200, 'the consent still stands');
  t.deepEqual(none.body, { guid: traveler.guid, status: 'active', granted_scopes: [] });

  await keepScopes(running, traveler, airline.clientId, ['profile.read']);
  t.deepEqual((await resolve(running, airline, { guid: traveler.guid })).body.profile, { email: traveler.email });
});

test('a self-registered confidential agent is an unknown client here (decisions §13): it resolves neither an airline’s guid nor its token', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read');
  const agent = await oauth.dynamicClientRegistration(
    new URL(running.config.authUrl),
    { redirect_uris: ['https://agent.example/callback'], token_endpoint_auth_method: 'client_secret_basic', client_name: 'Curious agent' },
    oauth.None(),
    { execute: [oauth.allowInsecureRequests] },
  );
  const metadata = agent.clientMetadata();
  const credentials = { clientId: metadata.client_id, clientSecret: metadata.client_secret as string };
  const byGuid = await resolve(running, credentials, { guid: traveler.guid });
  t.is(byGuid.status, 401);
  t.is(byGuid.body.error, 'invalid_client');
  const token = await mintToken(running, traveler.userId, airline.clientId);
  const byToken = await resolve(running, credentials, { recognition_token: token });
  t.is(byToken.status, 401);
  t.is(byToken.body.error, 'invalid_client');
  t.is((await resolve(running, airline, { recognition_token: token })).status, 200, 'the token was not used up');
});

test('Basic client credentials only: missing, malformed, wrong, bearer and x-api-key are 401 invalid_client with a Basic challenge', async (t) => {
  const airline = await createAirline(running);
  const traveler = await connect(running, airline, 'profile.read');
  const body = { guid: traveler.guid };
  const call = (authorization: string | null, headers: Record<string, string> = {}) => identityCall(running, 'POST', '/v1/identity/resolve', authorization, body, headers);
  const refusals = {
    missing: await call(null),
    malformed: await call('Basic %%%'),
    'no colon': await call(`Basic ${Buffer.from(airline.clientId).toString('base64')}`),
    'wrong secret': await call(basic(airline.clientId, 'not-the-secret')),
    'unknown client': await call(basic('6b0d5f0e-1111-4c2b-9a1e-3d3f1f1f1f1f', airline.clientSecret)),
    bearer: await call(`Bearer ${traveler.accessToken}`),
    'x-api-key only': await call(null, { 'x-api-key': airline.partner.apiKey }),
  };
  for (const [name, answer] of Object.entries(refusals)) {
    t.is(answer.status, 401, name);
    t.like(answer.body, { error: 'invalid_client', code: 'invalid_client' }, name);
    t.is(typeof answer.body.error_description, 'string', name);
    t.regex(answer.headers.get('www-authenticate') ?? '', /^Basic realm="[^"]+"/, name);
  }
  t.deepEqual(
    withoutId(refusals['wrong secret'].body),
    withoutId(refusals['unknown client'].body),
    'a wrong secret does not confirm that the client exists',
  );
  const keyBeside = await call(basicOf(airline), { 'x-api-key': 'whatever-key' });
  t.is(keyBeside.status, 200, 'an x-api-key beside valid Basic credentials is ignored');
});

test('Basic credentials of a public airline client: 400 invalid_client; of an agent (public, client_secret_post, a metadata document): unknown, 401', async (t) => {
  const partner = await running.service.partners.createPartner({ name: 'Public Air', allowed_operations: null });
  const publicAirline = await running.service.partnerClients.create({ partner_id: partner.partner_id, name: 'Public Air', redirect_uris: ['http://localhost:53682/callback'], public: true, airline: true });
  const publicClient = await identityCall(running, 'POST', '/v1/identity/resolve', basic(publicAirline.client_id, 'anything'), { guid: '00000000-0000-4000-8000-000000000000' });
  t.is(publicClient.status, 400);
  t.like(publicClient.body, { error: 'invalid_client', code: 'invalid_client' });
  t.is(publicClient.headers.get('www-authenticate'), null);

  const agent = await registerPublicClient(running);
  const publicAgent = await identityCall(running, 'POST', '/v1/identity/resolve', basic(agent.clientMetadata().client_id, 'anything'), { guid: '00000000-0000-4000-8000-000000000000' });
  t.is(publicAgent.status, 401, 'an agent is unknown here');

  const post = await oauth.dynamicClientRegistration(
    new URL(running.config.authUrl),
    { redirect_uris: ['https://post.example/callback'], token_endpoint_auth_method: 'client_secret_post', client_name: 'Post client' },
    oauth.None(),
    { execute: [oauth.allowInsecureRequests] },
  );
  const metadata = post.clientMetadata();
  const answer = await identityCall(running, 'POST', '/v1/identity/resolve', basic(metadata.client_id, metadata.client_secret as string), { guid: '00000000-0000-4000-8000-000000000000' });
  t.is(answer.status, 401);
  t.like(answer.body, { error: 'invalid_client' });

  const urlClient = await identityCall(running, 'POST', '/v1/identity/resolve', basic('https://agent.example/client.json', 'x'), { guid: '00000000-0000-4000-8000-000000000000' });
  t.is(urlClient.status, 401, 'a metadata-document client is an agent: unknown here');
});

test('the body: both, neither or another field is the validation envelope; a non-string is too', async (t) => {
  const airline = await createAirline(running);
  const both = await resolve(running, airline, { guid: '00000000-0000-4000-8000-000000000000', recognition_token: 'AAAAAAAAAAAAAAAAAAAAAA' });
  t.is(both.status, 400);
  t.like(both.body, { code: 'validation_error', fields: { recognition_token: { field: 'recognition_token' } } });
  t.regex(both.body.fields.recognition_token.message, /exactly one of guid or recognition_token/);

  const neither = await resolve(running, airline, {});
  t.is(neither.status, 400);
  t.regex(JSON.stringify(neither.body.fields), /exactly one of guid/);

  const extra = await resolve(running, airline, { guid: '00000000-0000-4000-8000-000000000000', user_id: 'x' });
  t.is(extra.status, 400);
  t.like(extra.body.fields, { user_id: { rule: 'unknown_field' } });

  const number = await resolve(running, airline, { guid: 42 });
  t.is(number.status, 400);
  t.like(number.body.fields, { guid: { rule: 'type' } });

  const long = await resolve(running, airline, { guid: 'a'.repeat(201) });
  t.is(long.status, 400);

  const empty = await identityCall(running, 'POST', '/v1/identity/resolve', basicOf(airline), '');
  t.is(empty.status, 400, 'no body');
});

test('the OpenAPI document lists the identity routes with Basic auth and the identity 404', async (t) => {
  const document = await jsonOf(await fetch(`${running.url}/openapi.json`));
  const resolveOperation = document.paths['/v1/identity/resolve'].post;
  t.deepEqual(resolveOperation.security, [{ ClientBasic: [] }]);
  t.regex(resolveOperation.description, /delete it, re-recognize the traveler, and retry once; never retry a 404 without deleting first/i);
  const examplesOf = (operation: { responses: Record<string, { content: Record<string, { examples: object }> }> }) =>
    Object.keys(operation.responses['404']?.content['application/json']?.examples ?? {}).sort();
  t.deepEqual(examplesOf(resolveOperation), ['unknown_guid', 'unknown_token'], 'resolve takes tokens too');
  t.deepEqual(examplesOf(document.paths['/v1/identity/loyalty-link'].post), ['unknown_guid'], 'loyalty-link takes a guid only');
  t.is(resolveOperation.responses['403'], undefined);
  t.truthy(document.paths['/v1/identity/loyalty-link'].post.responses['201']);
  t.truthy(document.paths['/v1/identity/loyalty-link'].delete.responses['200']);
  t.like(document.components.securitySchemes.ClientBasic, { type: 'http', scheme: 'basic' });
});

function withoutId(body: Record<string, unknown>) {
  const { request_id: _id, ...rest } = body;
  return rest;
}
