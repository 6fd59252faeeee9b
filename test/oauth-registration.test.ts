/**
 * Clients: open dynamic registration (RFC 7591) with UUID ids and a sliding 30-day lifetime, the redirect
 * rules of confidential and public clients (registration and the admin command line alike), discovery,
 * and CORS for browser-based clients.
 */
import test from 'ava';
import { jsonOf } from './helpers/http.js';
import type { Clock } from '../core/clock.js';
import { authorize, oauth, registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

const DAY = 24 * 3600 * 1000;
let now = Date.now();
const clock: Clock = { now: () => new Date(now) };
let running: RunningService;

test.before(async () => {
  running = await startService({}, { clock });
});
test.after.always(async () => {
  await running?.close();
});

function register(metadata: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${running.config.authUrl}/v1/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(metadata),
  });
}

test.serial('registration assigns a UUID client id; a confidential client gets a secret, a public one none', async (t) => {
  const confidential = await register({ redirect_uris: ['https://agent.example/cb'], client_name: 'Agent' });
  t.is(confidential.status, 201);
  const body = await jsonOf(confidential);
  t.regex(body.client_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.truthy(body.client_secret);
  const stored = await running.service.db.knex('oidc_models').where({ kind: 'Client', id: body.client_id }).first();
  t.false(stored.payload.includes(body.client_secret), 'the secret is sealed at rest');

  const publicClient = await register({ redirect_uris: ['http://127.0.0.1:4000/cb'], token_endpoint_auth_method: 'none' });
  t.is(publicClient.status, 201);
  t.is((await jsonOf(publicClient)).client_secret, undefined);

  const claimsPartner = await register({ redirect_uris: ['https://agent.example/cb'], partner_id: 'x' });
  t.is(claimsPartner.status, 400);
  t.is((await jsonOf(claimsPartner)).error, 'invalid_client_metadata');
});

test.serial('confidential clients redirect to public https only; public clients may use http on localhost and 127.0.0.1', async (t) => {
  for (const uri of ['http://agent.example/cb', 'https://localhost/cb', 'https://127.0.0.1:8443/cb', 'http://localhost:3000/cb']) {
    const response = await register({ redirect_uris: [uri] });
    t.is(response.status, 400, uri);
    const body = await jsonOf(response);
    t.is(body.error, 'invalid_redirect_uri', uri);
    t.regex(body.error_description, /https|localhost|loopback/, uri);
    if (new URL(uri).hostname !== 'agent.example') {
      t.regex(body.error_description, /"token_endpoint_auth_method": ?"none"/, `${uri}: says how to register a public client instead`);
    }
  }
  for (const uri of ['http://localhost:3000/cb', 'http://127.0.0.1:9/cb', 'https://app.example/cb']) {
    t.is((await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' })).status, 201, uri);
  }
  const plainHttp = await register({ redirect_uris: ['http://app.example/cb'], token_endpoint_auth_method: 'none' });
  t.is(plainHttp.status, 400);
  t.is((await jsonOf(plainHttp)).error, 'invalid_redirect_uri');

  const partner = await running.service.partners.createPartner({ name: 'Rules Air', plan_id: undefined, allowed_operations: null });
  await t.throwsAsync(
    running.service.partnerClients.create({ partner_id: partner.partner_id, name: 'Rules Air', redirect_uris: ['http://rules.example/cb'] }),
    { message: /invalid_redirect_uri.*https/ },
  );
  for (const uri of ['http://localhost:7000/cb', 'http://127.0.0.1:7000/cb', 'https://localhost/cb']) {
    const loopback = await t.throwsAsync(running.service.partnerClients.create({ partner_id: partner.partner_id, name: 'Rules Air', redirect_uris: [uri] }));
    t.regex(loopback.message, /invalid_redirect_uri.*--public/, `${uri}: the admin command line names --public`);
    t.regex(loopback.message, /http:\/\/localhost:<port>/);
  }
  const publicPartner = await running.service.partnerClients.create({
    partner_id: partner.partner_id,
    name: 'Rules Air app',
    redirect_uris: ['http://localhost:7000/cb'],
    public: true,
  });
  t.is(publicPartner.client_secret, undefined);
  t.is(publicPartner.token_endpoint_auth_method, 'none');
});

test('registration refuses a client_name that could disguise itself (controls, bidi overrides) and caps names and redirect URIs', async (t) => {
  const agent = { redirect_uris: ['http://127.0.0.1:4000/cb'], token_endpoint_auth_method: 'none' };
  const unsafe = ['\u0000', '\u0007', '\n', '\u001b', '\u007f', '\u0085', '\u009b', '\u061c', '\u200e', '\u200f', '\u202a', '\u202d', '\u202e', '\u2066', '\u2069'];
  for (const character of unsafe) {
    const response = await register({ ...agent, client_name: `Trusted${character}Bank` });
    const label = `U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
    t.is(response.status, 400, label);
    const body = await jsonOf(response);
    // RFC 7591's error answer, nothing more.
    t.deepEqual(Object.keys(body).sort(), ['error', 'error_description'], label);
    t.is(body.error, 'invalid_client_metadata', label);
    t.regex(body.error_description, /^client_name /, label);
    t.true(body.error_description.includes(label), `${label}: the description names the character`);
  }
  t.is((await register({ ...agent, client_name: 'Agent – Ünïcode 名前 ✈' })).status, 201, 'other text is welcome');
  t.is((await register({ ...agent, client_name: 'x'.repeat(100) })).status, 201);
  const long = await jsonOf(await register({ ...agent, client_name: 'x'.repeat(101) }));
  t.is(long.error, 'invalid_client_metadata');
  t.regex(long.error_description, /client_name .*100/);
  t.is((await register({ ...agent, client_name: '   ' })).status, 400, 'a blank name');

  const uris = (count: number) => Array.from({ length: count }, (_, index) => `http://127.0.0.1:${4000 + index}/cb`);
  t.is((await register({ ...agent, redirect_uris: uris(10) })).status, 201);
  const many = await jsonOf(await register({ ...agent, redirect_uris: uris(11) }));
  t.is(many.error, 'invalid_client_metadata');
  t.regex(many.error_description, /at most 10 redirect_uris/);
  const longUri = `http://127.0.0.1:4000/${'a'.repeat(2001 - 'http://127.0.0.1:4000/'.length)}`;
  t.is((await register({ ...agent, redirect_uris: [longUri.slice(0, 2000)] })).status, 201);
  const tooLong = await jsonOf(await register({ ...agent, redirect_uris: [longUri] }));
  t.is(tooLong.error, 'invalid_redirect_uri');
  t.regex(tooLong.error_description, /2,?000 characters/);
  t.true(tooLong.error_description.length < 400, 'the description does not echo the whole URI');

  // The admin command line applies the same rules.
  const partner = await running.service.partners.createPartner({ name: 'Names Air', plan_id: undefined, allowed_operations: null });
  const admin = (input: { name?: string; redirect_uris?: string[] }) =>
    running.service.partnerClients.create({ partner_id: partner.partner_id, name: 'Names Air', redirect_uris: ['https://names.example/cb'], ...input });
  const disguised = await t.throwsAsync(admin({ name: 'Names\u202eriA' }));
  t.regex(disguised.message + JSON.stringify((disguised as unknown as { fields: unknown }).fields), /U\+202E/);
  await t.throwsAsync(admin({ redirect_uris: Array.from({ length: 11 }, (_, index) => `https://names.example/cb${index}`) }));
  await t.throwsAsync(admin({ redirect_uris: [`https://names.example/${'a'.repeat(2000)}`] }));
});

test.serial('a dynamically registered public client on a localhost redirect completes the flow with PKCE alone', async (t) => {
  const agent = await registerPublicClient(running, 'http://localhost:61999/oauth/callback');
  const { tokens, outcome } = await authorize(running, agent, {
    redirectUri: 'http://localhost:61999/oauth/callback',
    scope: 'bookings.read',
    traveler: { email: uniqueEmail() },
  });
  t.is(outcome.redirectedTo?.origin, 'http://localhost:61999');
  t.is(tokens.scope, 'bookings.read');
  t.truthy(tokens.refresh_token);
});

test.serial('the registration lives 30 days after its last token exchange; then it and its refresh tokens stop working', async (t) => {
  now = Date.now();
  const agent = await registerPublicClient(running);
  const idle = await registerPublicClient(running);
  const { tokens } = await authorize(running, agent, { redirectUri: 'http://localhost:53682/callback', scope: 'profile.read', traveler: { email: uniqueEmail() } });
  const refreshToken = tokens.refresh_token as string;

  now += 25 * DAY;
  t.truthy((await oauth.refreshTokenGrant(agent, refreshToken)).access_token, 'day 25: works, and extends the registration to day 55');

  now += 6 * DAY; // day 31
  const idleAttempt = await startAuthorization(idle, 'http://localhost:53682/callback', 'profile.read');
  const idleResponse = await fetch(idleAttempt.url, { redirect: 'manual', headers: { accept: 'application/json' } });
  t.is(idleResponse.status, 400, 'a registration never used expired on day 30');
  t.is((await jsonOf(idleResponse)).error, 'invalid_client');
  const usedAttempt = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
  const usedResponse = await fetch(usedAttempt.url, { redirect: 'manual' });
  t.is(usedResponse.status, 303, 'day 31: the registration used on day 25 is alive');

  now += 25 * DAY; // day 56: 31 days after the last exchange
  const error = await t.throwsAsync(oauth.refreshTokenGrant(agent, refreshToken));
  t.is((error as { error?: string }).error, 'invalid_client');
  await running.service.sweepExpired();
  const left = await running.service.db.knex('oidc_models').where({ client_id: agent.clientMetadata().client_id });
  t.is(left.length, 0, 'the sweep removes the registration and everything issued to it');
});

test('discovery: RFC 8414 and OpenID documents with scopes_supported; CORS for browser clients on metadata, registration and token', async (t) => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const response = await fetch(`${running.config.authUrl}${path}`, { headers: { origin: 'https://agent.example' } });
    t.is(response.status, 200);
    t.true(['*', 'https://agent.example'].includes(response.headers.get('access-control-allow-origin') ?? ''), 'readable from any origin');
    const document = await jsonOf(response);
    t.is(document.issuer, running.config.authUrl);
    t.is(document.authorization_endpoint, `${running.config.authUrl}/`);
    t.is(document.token_endpoint, `${running.config.authUrl}/v1/oauth/token`);
    t.is(document.registration_endpoint, `${running.config.authUrl}/v1/oauth/register`);
    t.truthy(document.revocation_endpoint);
    t.truthy(document.jwks_uri);
    t.deepEqual(document.code_challenge_methods_supported, ['S256']);
    t.true(document.scopes_supported.includes('bookings.write'));
    t.true(document.token_endpoint_auth_methods_supported.includes('none'));
  }
  const jwks = await jsonOf(await fetch(`${running.config.authUrl}/.well-known/jwks.json`));
  t.is(jwks.keys[0].kty, 'RSA');
  t.is(jwks.keys[0].d, undefined, 'only public keys');

  const preflight = await fetch(`${running.config.authUrl}/v1/oauth/register`, {
    method: 'OPTIONS',
    headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), '*');
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);

  const browserClient = await registerPublicClient(running, 'http://localhost:5173/cb');
  const tokenPreflight = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
  });
  t.is(tokenPreflight.status, 204);
  const exchange = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { origin: 'http://localhost:5173', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'unknown', client_id: browserClient.clientMetadata().client_id }),
  });
  t.is(exchange.headers.get('access-control-allow-origin'), 'http://localhost:5173', "the client's own origin may call the token endpoint");
  t.is((await jsonOf(exchange)).error, 'invalid_grant');
});

test('only real authorization requests reach the authorization server: other paths are ours', async (t) => {
  const landing = await fetch(`${running.url}/`);
  t.is(landing.status, 200);
  t.regex(await landing.text(), /docs/i);
  const unknown = await fetch(`${running.url}/AbCdEfGhIjKlMnOp`);
  t.is(unknown.status, 404);
  t.is((await jsonOf(unknown)).code, 'route_not_found');
  const docs = await fetch(`${running.url}/docs`);
  t.is(docs.status, 200);

  const noClient = await fetch(`${running.url}/?response_type=code&client_id=00000000-0000-4000-8000-000000000000`, {
    headers: { accept: 'application/json' },
  });
  t.is(noClient.status, 400);
  t.is((await jsonOf(noClient)).error, 'invalid_client');
});
