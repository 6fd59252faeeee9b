/**
 * The token endpoint and what follows the code exchange: refresh as form or JSON, with Basic or post
 * credentials; never rotated, never wider; revoke and per-scope toggles on the Connected apps page; and
 * the bearer challenges of /v1/users/me.
 */
import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { decodeJwt } from 'jose';
import { appsHeaders } from './helpers/apps-api.js';
import { isPage, TestBrowser, type Page } from './helpers/browser.js';
import {
  authorize,
  clientFor,
  createPartnerClient,
  oauth,
  PARTNER_REDIRECT,
  registerPublicClient,
  startAuthorization,
  travelerAuthorizes,
  type PartnerClient,
  uniqueEmail,
} from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

async function signedInPartner(scope = 'profile.read passengers.read') {
  const partner = await createPartnerClient(running);
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const { tokens } = await authorize(running, client, { redirectUri: PARTNER_REDIRECT, scope, browser, traveler: { email: uniqueEmail() } });
  return { partner, client, browser, tokens, refreshToken: tokens.refresh_token as string };
}

function tokenRequest(body: Record<string, string>, options: { json?: boolean; basic?: PartnerClient } = {}) {
  const headers: Record<string, string> = { 'content-type': options.json ? 'application/json' : 'application/x-www-form-urlencoded' };
  if (options.basic) headers.authorization = `Basic ${Buffer.from(`${options.basic.clientId}:${options.basic.clientSecret}`).toString('base64')}`;
  return fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers,
    body: options.json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
}

test('refresh works as a form and as JSON, with Basic and with post credentials; it returns a new access token only', async (t) => {
  const { partner, refreshToken, tokens } = await signedInPartner();
  const refresh = { grant_type: 'refresh_token', refresh_token: refreshToken };
  const post = { ...refresh, client_id: partner.clientId, client_secret: partner.clientSecret };
  const variants = [
    ['form + Basic', await tokenRequest(refresh, { basic: partner })],
    ['form + post', await tokenRequest(post)],
    ['JSON + Basic', await tokenRequest(refresh, { json: true, basic: partner })],
    ['JSON + post', await tokenRequest(post, { json: true })],
  ] as const;
  for (const [name, response] of variants) {
    t.is(response.status, 200, name);
    const body = await jsonOf(response);
    t.truthy(body.access_token, name);
    t.is(body.refresh_token, undefined, `${name}: the refresh token is not rotated nor echoed`);
    t.is(body.expires_in, 900, name);
    t.is(body.scope, tokens.scope, `${name}: the scopes are preserved`);
    t.not(body.access_token, tokens.access_token, name);
    t.is(decodeJwt(body.access_token)['custom:user_id'], decodeJwt(tokens.access_token)['custom:user_id']);
  }
  const again = await tokenRequest(refresh, { basic: partner });
  t.is(again.status, 200, 'the same refresh token keeps working');

  const wrongSecret = await tokenRequest({ ...refresh, client_id: partner.clientId, client_secret: 'nope' });
  t.is(wrongSecret.status, 401);
  t.is((await jsonOf(wrongSecret)).error, 'invalid_client');
});

test('the code exchange is form-encoded only; a JSON body gets a clear invalid_request', async (t) => {
  const response = await tokenRequest({ grant_type: 'authorization_code', code: 'x', code_verifier: 'y', redirect_uri: PARTNER_REDIRECT }, { json: true });
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.is(body.error, 'invalid_request');
  t.regex(body.error_description, /x-www-form-urlencoded/);
});

test('a refresh never widens the scopes, even after the traveler grants more to the client', async (t) => {
  const { partner, client, browser, refreshToken } = await signedInPartner('profile.read');
  const wider = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken, scope: 'profile.read bookings.read' }, { basic: partner });
  t.is(wider.status, 400);
  t.is((await jsonOf(wider)).error, 'invalid_scope');

  // The traveler grants bookings.read in a later authorization (same browser, same grant).
  const later = await authorize(running, client, { redirectUri: PARTNER_REDIRECT, scope: 'bookings.read', browser, traveler: { email: 'unused@example.com' } });
  t.is(later.tokens.scope, 'bookings.read');
  const refreshed = await oauth.refreshTokenGrant(client, refreshToken);
  t.is(refreshed.scope, 'profile.read', 'the old refresh token keeps its own scopes');
});

test('Connected apps: a toggle takes effect at the next refresh; every scope off makes it invalid_scope; revoke makes it invalid_grant', async (t) => {
  const { partner, client, browser, refreshToken, tokens } = await signedInPartner('profile.read passengers.read');
  const apps = await openApps(browser);
  t.regex(apps.html, /Test Air/);
  t.regex(apps.html, /value="passengers\.read" checked/);

  const toggled = await browser.submit(apps, `/apps/${partner.clientId}/scopes`, { scope: ['profile.read'] });
  t.true(isPage(toggled) && /Your choices were saved/.test(toggled.html));
  const narrowed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, { basic: partner });
  t.is(narrowed.status, 200);
  t.is((await jsonOf(narrowed)).scope, 'profile.read');

  // Turned back on: restored at the next refresh (the Consent and grants table).
  await browser.submit(await openApps(browser), `/apps/${partner.clientId}/scopes`, { scope: ['profile.read', 'passengers.read'] });
  const restored = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, { basic: partner });
  t.deepEqual(new Set((await jsonOf(restored)).scope.split(' ')), new Set(['profile.read', 'passengers.read']));

  await browser.submit(await openApps(browser), `/apps/${partner.clientId}/scopes`, {});
  const none = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, { basic: partner });
  t.is(none.status, 400);
  t.is((await jsonOf(none)).error, 'invalid_scope');

  const revoked = await browser.submit(await openApps(browser), `/apps/${partner.clientId}/revoke`, {});
  t.true(isPage(revoked) && /The app was disconnected/.test(revoked.html) && !revoked.html.includes('Test Air'));
  const afterRevoke = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, { basic: partner });
  t.is(afterRevoke.status, 400);
  t.is((await jsonOf(afterRevoke)).error, 'invalid_grant');
  const rows = await running.service.db.knex('oidc_models').where({ client_id: partner.clientId }).whereNot({ kind: 'Client' }).whereIn('kind', ['Grant', 'RefreshToken']);
  t.is(rows.length, 0, 'the grant and its refresh tokens are gone');

  // Connecting again starts from scratch: consent is asked again, and the pairwise id is a new one.
  const again = await authorize(running, client, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', browser, traveler: { email: 'unused@example.com' } });
  t.deepEqual(again.outcome.offered, ['profile.read']);
  t.truthy(again.tokens.svc_guid);
  t.not(again.tokens.svc_guid, tokens.svc_guid);
});

test('the Connected apps API: list, toggle and revoke on the first-party session and its CSRF token; nothing without it', async (t) => {
  const { partner, browser } = await signedInPartner('profile.read bookings.read');
  const cookie = ['_session', '_session.sig'].map((name) => `${name}=${browser.cookie(name)}`).join('; ');
  const list = await fetch(`${running.url}/v1/apps`, { headers: { cookie } });
  t.is(list.status, 200);
  t.truthy(list.headers.get('x-csrf-token'), 'the token its changes carry');
  const session = await appsHeaders(running.url, cookie);
  const [app] = await jsonOf(list);
  t.like(app, { client_id: partner.clientId, client_name: 'Test Air', granted: ['profile.read', 'bookings.read'], declined: [] });

  const toggled = await fetch(`${running.url}/v1/apps/${partner.clientId}/scopes`, {
    method: 'PUT',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ scopes: ['bookings.read'] }),
  });
  t.is(toggled.status, 200);
  t.like(await jsonOf(toggled), { granted: ['bookings.read'], declined: ['profile.read'] });

  const notAsked = await fetch(`${running.url}/v1/apps/${partner.clientId}/scopes`, {
    method: 'PUT',
    headers: { ...session, 'content-type': 'application/json' },
    body: JSON.stringify({ scopes: ['payments.write'] }),
  });
  t.is(notAsked.status, 400);
  t.truthy((await jsonOf(notAsked)).fields.scopes);

  t.is((await fetch(`${running.url}/v1/apps`)).status, 401);
  t.is((await fetch(`${running.url}/v1/apps/${partner.clientId}`, { method: 'DELETE', headers: { cookie } })).status, 403, 'not without the CSRF token');
  t.is((await fetch(`${running.url}/v1/apps/${partner.clientId}`, { method: 'DELETE', headers: session })).status, 204);
  t.is((await fetch(`${running.url}/v1/apps/${partner.clientId}`, { method: 'DELETE', headers: session })).status, 404);
});

test('/v1/users/me: 401 invalid_token with a Bearer challenge; 403 insufficient_scope naming the scope; another audience refused', async (t) => {
  const { partner, tokens } = await signedInPartner('passengers.read');
  const call = (token?: string) =>
    fetch(`${running.url}/v1/users/me`, { headers: { 'x-api-key': partner.apiKey, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  const missing = await call();
  t.is(missing.status, 401);
  t.regex(missing.headers.get('www-authenticate') ?? '', /^Bearer /);

  const garbage = await call('not.a.jwt');
  t.is(garbage.status, 401);
  t.regex(garbage.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  t.is((await jsonOf(garbage)).error, 'invalid_token');

  const insufficient = await call(tokens.access_token);
  t.is(insufficient.status, 403);
  const body = await jsonOf(insufficient);
  t.is(body.error, 'insufficient_scope');
  t.is(body.scope, 'profile.read');
  t.regex(insufficient.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="profile\.read"/);

  // A token for the tool endpoint (RFC 8707 resource) is not a token for the REST API.
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const forTools = await authorize(running, client, {
    redirectUri: PARTNER_REDIRECT,
    scope: 'profile.read',
    traveler: { email: uniqueEmail() },
    extra: { resource: `${running.config.baseUrl}/v1/mcp` },
  });
  t.is(decodeJwt(forTools.tokens.access_token).aud, `${running.config.baseUrl}/v1/mcp`);
  const wrongAudience = await call(forTools.tokens.access_token);
  t.is(wrongAudience.status, 401);
  t.is((await jsonOf(wrongAudience)).error, 'invalid_token');
});

async function openApps(browser: TestBrowser): Promise<Page> {
  const page = await browser.open(`${running.url}/account/apps`);
  if (!isPage(page) || page.status !== 200) throw new Error(`the Connected apps page did not open: ${JSON.stringify(page)}`);
  return page;
}

test('the token endpoint under another spelling of its path still applies every rule', async (t) => {
  const { partner, browser, refreshToken } = await signedInPartner('profile.read');
  for (const path of ['/v1/oauth/token/', '/v1/oauth/TOKEN']) {
    const response = await fetch(`${running.config.authUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
    });
    t.is(response.status, 200, path);
    t.is((await jsonOf(response)).refresh_token, undefined, path);
  }
  await browser.submit(await openApps(browser), `/apps/${partner.clientId}/scopes`, {});
  const refused = await fetch(`${running.config.authUrl}/v1/oauth/token/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  t.is(refused.status, 400);
  t.is((await jsonOf(refused)).error, 'invalid_scope');
  t.is((await fetch(`${running.config.authUrl}/v1/oauth/anything`, { method: 'POST' })).status, 404);
});

test('a code whose every scope was turned off before the exchange gives no token', async (t) => {
  const { partner, client, browser } = await signedInPartner('profile.read');
  const authorization = await startAuthorization(client, PARTNER_REDIRECT, 'profile.read');
  const outcome = await travelerAuthorizes(running, browser, authorization.url, { email: 'unused@example.com' });
  t.truthy(outcome.redirectedTo?.searchParams.get('code'));
  await browser.submit(await openApps(browser), `/apps/${partner.clientId}/scopes`, {});
  const error = await t.throwsAsync(
    oauth.authorizationCodeGrant(client, outcome.redirectedTo as URL, { pkceCodeVerifier: authorization.verifier, expectedState: authorization.state }),
  );
  t.is((error as { error?: string }).error, 'invalid_scope');
});

test('Basic credentials on a public client: 400 invalid_client; JSON errors are readable cross-origin', async (t) => {
  const publicClient = await registerPublicClient(running);
  const response = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${publicClient.clientMetadata().client_id}:whatever`).toString('base64')}`,
    },
    body: 'grant_type=refresh_token&refresh_token=unknown',
  });
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.is(body.error, 'invalid_client');
  t.regex(body.error_description, /public/);

  const badJson = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' },
    body: '{"grant_type":',
  });
  t.is(badJson.status, 400);
  t.is(badJson.headers.get('access-control-allow-origin'), '*');
});
