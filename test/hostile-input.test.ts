/**
 * Hostile input, as a security review sends it to the running service: oversized, compressed-garbage and
 * missing bodies on the hosted pages' forms; malformed, prototype-named and oversized JSON on /v1/apps;
 * lone UTF-16 surrogates and NULs in every text that would reach PostgreSQL; bodies nested thousands of
 * levels deep. Each is a 4xx in our envelopes, never a 5xx; and the log names such requests by their id
 * without holding anything they carried.
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { createLogger } from '../core/logger.js';
import { appsHeaders } from './helpers/apps-api.js';
import { isPage, TestBrowser } from './helpers/browser.js';
import { nestedJson } from './helpers/hostile.js';
import { jsonOf, type Json } from './helpers/http.js';
import { authorize, clientFor, createPartnerClient, oauth, openSignInPage, PARTNER_REDIRECT, uniqueEmail, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partner: PartnerClient;
let config: oauth.Configuration;
/** A traveler's REST token with every scope the routes below need. */
let token: string;
/** The same partner's agent token for the tool endpoint. */
let toolToken: string;
/** A browser signed in on the hosted pages (the Connected apps session). */
let browser: TestBrowser;

/** The service's log lines, as written. */
const logLines: string[] = [];
const LONE = '\ud800';
const SCOPES = 'profile.write preferences.write passengers.write bookings.write';

test.before(async () => {
  const log = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix(), logger: createLogger('info', log) });
  await running.service.partners.setPlan({ id: 'hostile-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  partner = await createPartnerClient(running, 'Hostile Air', 'hostile-tests');
  config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  browser = new TestBrowser(new URL(running.config.authUrl).origin);
  token = (await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: SCOPES, browser, traveler: { email: uniqueEmail() } })).tokens.access_token;
  toolToken = (
    await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'bookings.write', traveler: { email: uniqueEmail() }, extra: { resource: `${running.url}/v1/mcp` } })
  ).tokens.access_token;
});
test.after.always(async () => {
  await running?.close();
});

function api(method: string, path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${running.url}${path}`, {
    method,
    headers: { 'x-api-key': partner.apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body,
  });
}

/** The cookies of the signed-in browser, for requests that bypass its form handling. */
function sessionCookies(): string {
  return browser.cookieHeader('/account/apps');
}

/** The session cookies and the CSRF token the Connected apps API's changes carry. */
function appsSession(): Promise<Record<string, string>> {
  return appsHeaders(running.url, sessionCookies());
}

interface HostileBody {
  name: string;
  headers: Record<string, string>;
  body?: RequestInit['body'];
  status: number;
}

const HOSTILE_FORMS: HostileBody[] = [
  { name: 'a 20 kB field', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `csrf=x&email=${'a'.repeat(20_000)}`, status: 413 },
  { name: 'garbage gzip', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }, body: 'this is not gzip', status: 415 },
  { name: 'a gzip bomb of a form', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }, body: gzipSync(`csrf=${'a'.repeat(1_000_000)}`), status: 415 },
  { name: 'no body', headers: {}, status: 400 },
  { name: 'an empty form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', status: 400 },
  { name: 'JSON', headers: { 'content-type': 'application/json' }, body: '{"csrf":"x"}', status: 415 },
  { name: 'a NUL in a field', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrf=x&email=a%00b%40example.com', status: 400 },
];

test('hosted sign-in forms: oversized, compressed, missing or non-form bodies are 400/413/415 in the OAuth envelope', async (t) => {
  const { page, pageBrowser } = await openSignInPage(running, config, PARTNER_REDIRECT);
  const uid = /\/interaction\/([^/?]+)/.exec(page.html)?.[1];
  t.truthy(uid, 'the page names its attempt');
  for (const action of ['email', 'code', 'resend', 'consent', 'deny']) {
    for (const hostile of HOSTILE_FORMS) {
      const url = `${running.url}/interaction/${uid}/${action}`;
      const answer = await pageBrowser.open(url, { method: 'POST', headers: { ...hostile.headers, accept: 'application/json' }, body: hostile.body });
      t.true(isPage(answer), `${action}, ${hostile.name}: answered`);
      if (!isPage(answer)) continue;
      t.is(answer.status, hostile.status, `${action}, ${hostile.name}: ${answer.html.slice(0, 200)}`);
      t.like(JSON.parse(answer.html), { error: 'invalid_request' }, `${action}, ${hostile.name}`);
    }
  }
  // A browser gets the page, not JSON.
  const html = await pageBrowser.open(`${running.url}/interaction/${uid}/email`, { method: 'POST', headers: HOSTILE_FORMS[0]?.headers, body: HOSTILE_FORMS[0]?.body as string });
  t.true(isPage(html) && html.status === 413 && /We could not continue/.test(html.html));
});

test('Connected apps forms: oversized, compressed, missing or non-form bodies are 400/413/415 in the OAuth envelope', async (t) => {
  for (const action of ['revoke', 'scopes']) {
    for (const hostile of HOSTILE_FORMS) {
      const response = await fetch(`${running.url}/account/apps/${partner.clientId}/${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...hostile.headers, cookie: sessionCookies(), accept: 'application/json' },
        body: hostile.body,
      });
      t.is(response.status, hostile.status, `${action}, ${hostile.name}`);
      t.like(await jsonOf(response), { error: 'invalid_request' }, `${action}, ${hostile.name}`);
    }
  }
  // The app is still connected: nothing above reached it.
  const apps = await jsonOf(await fetch(`${running.url}/v1/apps`, { headers: { cookie: sessionCookies() } }));
  t.true(apps.some((app: Json) => app.client_id === partner.clientId));
});

test('a form streamed past 16 KiB without a declared length is 413, and that connection is closed', async (t) => {
  const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.request(`${running.url}/account/apps/${partner.clientId}/revoke`, {
      method: 'POST',
      headers: { cookie: sessionCookies(), 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked', accept: 'application/json' },
    });
    request.on('response', resolve).on('error', reject);
    request.end(`csrf=${'a'.repeat(20_000)}`);
  });
  answer.resume();
  t.is(answer.statusCode, 413);
  t.is(answer.headers.connection, 'close');
});

test('PUT /v1/apps/{client_id}/scopes: malformed, prototype-named, oversized, deep or ill-formed JSON is a 4xx in our envelope', async (t) => {
  const session = await appsSession();
  const put = (body: RequestInit['body'], headers: Record<string, string> = {}) =>
    fetch(`${running.url}/v1/apps/${partner.clientId}/scopes`, { method: 'PUT', headers: { ...session, 'content-type': 'application/json', ...headers }, body });

  const malformed = await put('{"scopes": [');
  t.is(malformed.status, 400);
  t.like(await jsonOf(malformed), { status_code: 400, code: 'invalid_json' });

  const prototype = await put('{"__proto__": {"scopes": []}, "scopes": ["profile.read"]}');
  t.is(prototype.status, 400);
  t.is((await jsonOf(prototype)).fields.__proto__?.rule, 'unknown_field');

  const large = await put(JSON.stringify({ scopes: ['x'.repeat(16 * 1024)] }));
  t.is(large.status, 413);
  t.like(await jsonOf(large), { status_code: 413, code: 'payload_too_large' });

  const deep = await put(nestedJson(5000, 'array'));
  t.is(deep.status, 400);
  t.is((await jsonOf(deep)).fields['(body)']?.rule, 'max_depth');

  const lone = await put(JSON.stringify({ scopes: [`profile.read${LONE}`] }));
  t.is(lone.status, 400);
  t.is((await jsonOf(lone)).fields['scopes.0']?.rule, 'well_formed_text');

  const text = await put('{"scopes": []}', { 'content-type': 'text/plain' });
  t.is(text.status, 415);
  t.like(await jsonOf(text), { status_code: 415, code: 'unsupported_media_type' });

  const gzip = await put('not gzip', { 'content-encoding': 'gzip' });
  t.is(gzip.status, 415);

  const none = await fetch(`${running.url}/v1/apps/${partner.clientId}/scopes`, { method: 'PUT', headers: session });
  t.is(none.status, 400);
  t.is((await jsonOf(none)).code, 'validation_error');
});

test('a lone surrogate in any text bound for PostgreSQL is 400 well_formed_text naming the field', async (t) => {
  const expectRefused = async (response: Response, field: string, what: string) => {
    t.is(response.status, 400, what);
    const body = await jsonOf(response);
    t.is(body.code, 'validation_error', what);
    t.is(body.fields[field]?.rule, 'well_formed_text', `${what}: ${JSON.stringify(body)}`);
  };
  const travel = {
    seat: { seat_type: 'aisle', seating_zone: 'front', extra_legroom: true, exit_row: false },
    bag: { check_bag: true },
    meal: { meal_types: [], dietary_notes: `no nuts${LONE}` },
    special_assistance: [],
  };
  await expectRefused(await api('PUT', '/v1/users/me/preferences/travel', JSON.stringify(travel)), 'meal.dietary_notes', 'travel preferences');
  await expectRefused(await api('PUT', '/v1/users/me', JSON.stringify({ first_name: `Ada${LONE}` })), 'first_name', 'profile');
  await expectRefused(
    await api('POST', '/v1/users/me/passengers', JSON.stringify({ first_name: 'Ada', last_name: `Lovelace${LONE}`, gender: 'female', date_of_birth: '1985-12-10' })),
    'last_name',
    'saved passenger',
  );
  await expectRefused(
    await api('POST', '/v1/users/me/contact/initiate', JSON.stringify({ contact_type: 'email', new_value: `ada${LONE}@example.com` })),
    'new_value',
    'contact change',
  );
  // A key can be ill-formed too.
  await expectRefused(await api('PUT', '/v1/users/me', JSON.stringify({ [`x${LONE}`]: 1 })), 'x\ufffd', 'a key');

  const native = await nativeOffer();
  const withLone = structuredClone(native);
  withLone.owner.name = `British Airways${LONE}`;
  await expectRefused(await api('POST', '/v1/flights/providers/provider_b/offers', JSON.stringify(withLone)), 'owner.name', 'createProviderOffer');
  const before = await running.service.db.knex('offers').count({ n: '*' }).first();

  const offerId = (await jsonOf(await api('POST', '/v1/flights/providers/provider_b/offers', JSON.stringify(native)))).offer_id;
  const passengerId = native.passengers[0].id;
  await expectRefused(
    await api('PUT', `/v1/flights/providers/provider_b/offers/${offerId}/passengers/${passengerId}`, JSON.stringify({ first_name: `Ada${LONE}` })),
    'first_name',
    'offer passenger',
  );
  await expectRefused(
    await api('PUT', `/v1/flights/providers/provider_b/offers/${offerId}/passengers/${passengerId}`, JSON.stringify({ loyalty_programme_accounts: [{ airline_iata_code: 'BA', account_number: `12345678${LONE}` }] })),
    'loyalty_programme_accounts.0.account_number',
    'offer passenger loyalty account',
  );
  const after = await running.service.db.knex('offers').count({ n: '*' }).first();
  t.is(Number(after?.n), Number(before?.n) + 1, 'only the well-formed offer was stored');
});

test('a NUL in a path parameter bound for PostgreSQL is a 4xx, not a 5xx', async (t) => {
  const native = await nativeOffer();
  const offerId = (await jsonOf(await api('POST', '/v1/flights/providers/provider_b/offers', JSON.stringify(native)))).offer_id;
  const passenger = await api('PUT', `/v1/flights/providers/provider_b/offers/${offerId}/passengers/pas%00x`, '{}');
  t.is(passenger.status, 400);
  t.is((await jsonOf(passenger)).fields.passenger_id?.rule, 'no_nul');
  const revoke = await fetch(`${running.url}/v1/apps/x%00y`, { method: 'DELETE', headers: await appsSession() });
  t.true(revoke.status >= 400 && revoke.status < 500, `DELETE /v1/apps/x%00y: ${revoke.status}`);
});

test('OAuth endpoints: a NUL in a token, a code or a client id finds nothing (4xx) instead of reaching PostgreSQL', async (t) => {
  const basic = `Basic ${Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString('base64')}`;
  const post = (path: string, body: string, headers: Record<string, string> = { authorization: basic }) =>
    fetch(`${running.config.authUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  const refresh = await post('/v1/oauth/token', 'grant_type=refresh_token&refresh_token=a%00b');
  t.is(refresh.status, 400);
  t.is((await jsonOf(refresh)).error, 'invalid_grant');
  const code = await post('/v1/oauth/token', `grant_type=authorization_code&code=a%00b&redirect_uri=${encodeURIComponent(PARTNER_REDIRECT)}&code_verifier=${'a'.repeat(43)}`);
  t.is((await jsonOf(code)).error, 'invalid_grant');
  const client = await post('/v1/oauth/token', 'grant_type=refresh_token&refresh_token=x&client_id=a%00b', {});
  t.is(client.status, 401);
  t.is((await post('/v1/oauth/revoke', 'token=a%00b')).status, 200, 'revoking an unknown token is no error (RFC 7009)');
  const authorization = await fetch(`${running.config.authUrl}/?response_type=code&client_id=a%00b&redirect_uri=${encodeURIComponent(PARTNER_REDIRECT)}&scope=openid`, { redirect: 'manual' });
  t.is(authorization.status, 400);
  t.is((await jsonOf(authorization)).error, 'invalid_client');
});

test('the tool endpoint refuses ill-formed text and deep nesting with a JSON-RPC error and HTTP 400', async (t) => {
  const rpc = (body: string) =>
    fetch(`${running.url}/v1/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${toolToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
  const native = await nativeOffer();
  const created = await jsonOf(await api('POST', '/v1/flights/providers/provider_b/offers', JSON.stringify(native)));
  const args = { provider_id: 'provider_b', offer_id: created.offer_id, passenger_id: native.passengers[0].id, first_name: `Ada${LONE}` };
  const lone = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'update_passenger', arguments: args } }));
  t.is(lone.status, 400);
  const loneBody = await jsonOf(lone);
  t.like(loneBody, { jsonrpc: '2.0', id: null, error: { code: -32602 } });
  t.regex(loneBody.error.message, /params\.arguments\.first_name/);
  t.is(loneBody.error.data?.fields?.['params.arguments.first_name']?.rule, 'well_formed_text');

  const deep = await rpc(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_passenger","arguments":${nestedJson(5000, 'object')}}}`);
  t.is(deep.status, 400);
  t.like(await jsonOf(deep), { jsonrpc: '2.0', id: null, error: { code: -32600 } });
});

test('a body nested 5,000 levels deep is 400 before anything walks it', async (t) => {
  const offer = await api('POST', '/v1/flights/providers/provider_b/offers', nestedJson(5000, 'object'));
  t.is(offer.status, 400);
  t.is((await jsonOf(offer)).fields['(body)']?.rule, 'max_depth');
  const arrays = await api('PUT', '/v1/users/me/preferences/travel', nestedJson(5000, 'array'));
  t.is(arrays.status, 400);
  t.is((await jsonOf(arrays)).fields['(body)']?.rule, 'max_depth');
  // 64 levels are fine as JSON (the schema then says what is wrong).
  const shallow = await api('PUT', '/v1/users/me/preferences/travel', nestedJson(63, 'object'));
  t.is(shallow.status, 400);
  t.is((await jsonOf(shallow)).fields['(body)'], undefined);
});

test('the log of hostile requests names them by request id and holds none of what they carried', async (t) => {
  const personal = 'Zelda Quartermain QX98765432';
  const native = await nativeOffer();
  const session = await appsSession();
  const requests: [string, Promise<Response>][] = [
    ['hostile-json', fetch(`${running.url}/v1/apps/${partner.clientId}/scopes`, {
      method: 'PUT',
      headers: { ...session, 'content-type': 'application/json', 'x-request-id': 'hostile-json' },
      body: `{"scopes": ["${personal}"`,
    })],
    ['hostile-travel', api('PUT', '/v1/users/me/preferences/travel', JSON.stringify({
      seat: { seat_type: 'aisle', seating_zone: 'front', extra_legroom: true, exit_row: false },
      bag: { check_bag: true },
      meal: { meal_types: [], dietary_notes: `${personal}${LONE}` },
      special_assistance: [],
    }), { 'x-request-id': 'hostile-travel' })],
    ['hostile-offer', api('POST', '/v1/flights/providers/provider_b/offers', JSON.stringify({ ...native, owner: { ...native.owner, name: `${personal}${LONE}` } }), { 'x-request-id': 'hostile-offer' })],
  ];
  for (const [id, request] of requests) {
    const response = await request;
    t.true(response.status >= 400 && response.status < 500, `${id}: ${response.status}`);
    t.true(logLines.some((line) => JSON.parse(line).req_id === id), `${id} is in the log`);
  }
  const leaks = logLines.filter((line) => line.includes('Zelda') || line.includes('QX98765432'));
  t.deepEqual(leaks, []);
});

/** provider_b's LHR–JFK offer as its sandbox serves it now (valid for 30 minutes). */
async function nativeOffer(): Promise<Json> {
  const response = await fetch(`${running.config.sandboxUrl}/flights/provider_b/air/offers/off_0000AuPyAJY1KPrmYbBxIm`, {
    headers: { authorization: 'Bearer duffel_test_hostile', 'duffel-version': 'v2' },
  });
  return (await jsonOf(response)).data;
}
