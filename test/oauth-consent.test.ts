/**
 * Consent as Scopes rules 1-9 and the Consent and grants table say: per client, incremental, one box per
 * scope, declines remembered, every scope declined is 400 invalid_scope, Deny goes back with
 * access_denied and the state, unknown scopes are 400, omitted scope depends on the kind of client.
 */
import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { decodeJwt } from 'jose';
import { SCOPE_NAMES } from '../core/scopes.js';
import { isPage, latestCode, TestBrowser } from './helpers/browser.js';
import {
  authorize,
  clientFor,
  createPartnerClient,
  oauth,
  PARTNER_REDIRECT,
  registerPublicClient,
  startAuthorization,
  travelerAuthorizes,
  uniqueEmail,
} from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

const REDIRECT = 'http://localhost:53682/callback';
let running: RunningService;

test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

const browserFor = () => new TestBrowser(new URL(running.config.authUrl).origin);

test('partial consent: the token carries requested ∩ granted, and the next request asks only for what is new', async (t) => {
  const agent = await registerPublicClient(running);
  const email = uniqueEmail();
  const browser = browserFor();
  const first = await authorize(running, agent, {
    redirectUri: REDIRECT,
    scope: 'openid profile.read passengers.read payments.read',
    browser,
    traveler: { email, allow: (offered) => offered.filter((scope) => scope !== 'payments.read') },
  });
  t.deepEqual(first.outcome.offered, ['profile.read', 'passengers.read', 'payments.read'], 'identity scopes never prompt');
  t.deepEqual(new Set(first.tokens.scope?.split(' ')), new Set(['openid', 'profile.read', 'passengers.read']));
  t.is(decodeJwt(first.tokens.access_token).scope, first.tokens.scope);

  // Same browser (signed in): only the new scope is offered; the declined one is not offered again.
  const second = await authorize(running, agent, {
    redirectUri: REDIRECT,
    scope: 'profile.read payments.read bookings.read',
    browser,
    traveler: { email },
  });
  t.is(second.outcome.codeDigits, undefined, 'the session is reused: no new code');
  t.deepEqual(second.outcome.offered, ['bookings.read']);
  t.deepEqual(new Set(second.tokens.scope?.split(' ')), new Set(['profile.read', 'bookings.read']), 'the remembered decline is left out silently');

  // Covered entirely by earlier decisions: no screen at all.
  const third = await authorize(running, agent, { redirectUri: REDIRECT, scope: 'profile.read payments.read', browser, traveler: { email } });
  t.is(third.outcome.offered, undefined);
  t.is(third.tokens.scope, 'profile.read');
});

test('declining every requested scope is 400 invalid_scope, and so is asking again for only declined ones', async (t) => {
  const agent = await registerPublicClient(running);
  const email = uniqueEmail();
  const browser = browserFor();
  const authorization = await startAuthorization(agent, REDIRECT, 'payments.read payments.write');
  const outcome = await travelerAuthorizes(running, browser, authorization.url, { email, allow: () => [] });
  t.is(outcome.stoppedAt?.status, 400);
  t.regex(outcome.stoppedAt?.html ?? '', /invalid_scope/);
  t.is(outcome.redirectedTo, undefined);

  const again = await startAuthorization(agent, REDIRECT, 'payments.read');
  const outcome2 = await travelerAuthorizes(running, browser, again.url, { email });
  t.is(outcome2.offered, undefined, 'a declined scope is not offered again');
  t.is(outcome2.stoppedAt?.status, 400);
  t.regex(outcome2.stoppedAt?.html ?? '', /invalid_scope/);
});

test('Deny goes back to the client with error=access_denied and the state', async (t) => {
  const agent = await registerPublicClient(running);
  const authorization = await startAuthorization(agent, REDIRECT, 'profile.read');
  const outcome = await travelerAuthorizes(running, browserFor(), authorization.url, { email: uniqueEmail(), deny: true });
  t.truthy(outcome.redirectedTo);
  t.is(outcome.redirectedTo?.origin + (outcome.redirectedTo?.pathname ?? ''), REDIRECT);
  t.is(outcome.redirectedTo?.searchParams.get('error'), 'access_denied');
  t.truthy(outcome.redirectedTo?.searchParams.get('error_description'));
  t.is(outcome.redirectedTo?.searchParams.get('state'), authorization.state);
  t.false(outcome.redirectedTo?.searchParams.has('code') ?? true);
});

test('an unknown scope value is 400 invalid_scope in the OAuth envelope, before any sign-in', async (t) => {
  const agent = await registerPublicClient(running);
  const authorization = await startAuthorization(agent, REDIRECT, 'profile.read flights.everything');
  const response = await fetch(authorization.url, { redirect: 'manual', headers: { accept: 'application/json' } });
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.is(body.error, 'invalid_scope');
  t.regex(body.error_description, /flights\.everything/);
  const page = await fetch(authorization.url, { redirect: 'manual', headers: { accept: 'text/html' } });
  t.is(page.status, 400);
  t.regex(await page.text(), /flights\.everything/);
});

test('scope omitted: a dynamically registered client asks for all ten; identity scopes alone count as omitted', async (t) => {
  const agent = await registerPublicClient(running);
  const { outcome, tokens } = await authorize(running, agent, { redirectUri: REDIRECT, traveler: { email: uniqueEmail() } });
  t.deepEqual(outcome.offered, [...SCOPE_NAMES]);
  t.deepEqual(new Set(tokens.scope?.split(' ')), new Set(SCOPE_NAMES));

  const other = await registerPublicClient(running);
  const identityOnly = await authorize(running, other, { redirectUri: REDIRECT, scope: 'openid email', traveler: { email: uniqueEmail() } });
  t.deepEqual(identityOnly.outcome.offered, [...SCOPE_NAMES]);
  t.deepEqual(new Set(identityOnly.tokens.scope?.split(' ')), new Set(['openid', 'email', ...SCOPE_NAMES]));
});

test('scope omitted: a pre-registered partner client keeps the legacy behaviour (no screen, no scope set, legacy token)', async (t) => {
  const partner = await createPartnerClient(running, 'Legacy Air');
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretPost(partner.clientSecret));
  const { outcome, tokens } = await authorize(running, client, { redirectUri: PARTNER_REDIRECT, traveler: { email: uniqueEmail() } });
  t.is(outcome.offered, undefined, 'no consent screen');
  const claims = decodeJwt(tokens.access_token);
  t.is(claims.legacy, true);
  t.false(String(claims.scope ?? '').split(' ').some((scope) => (SCOPE_NAMES as readonly string[]).includes(scope)));
  // Authorized by the traveler's own rights: the profile route takes it.
  const me = await fetch(`${running.url}/v1/users/me`, { headers: { 'x-api-key': partner.apiKey, authorization: `Bearer ${tokens.access_token}` } });
  t.is(me.status, 200);
});

test('a partner asking for no scope after the traveler chose scopes for it: 400 invalid_scope, no legacy rights', async (t) => {
  const partner = await createPartnerClient(running, 'Scoped Air');
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const browser = browserFor();
  await authorize(running, client, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', browser, traveler: { email: uniqueEmail() } });
  const legacy = await startAuthorization(client, PARTNER_REDIRECT);
  const outcome = await travelerAuthorizes(running, browser, legacy.url, { email: 'unused@example.com' });
  t.is(outcome.redirectedTo, undefined);
  t.is(outcome.stoppedAt?.status, 400);
  t.regex(outcome.stoppedAt?.html ?? '', /must name the scopes/);
});

test('response modes other than query are refused', async (t) => {
  const agent = await registerPublicClient(running);
  const authorization = await startAuthorization(agent, REDIRECT, 'profile.read', { response_mode: 'form_post' });
  const response = await fetch(authorization.url, { redirect: 'manual', headers: { accept: 'application/json' } });
  t.is(response.status, 400);
  t.is((await jsonOf(response)).error, 'invalid_request');
});

// The database refuses a second grant for a pair (test/oidc-adapter.test.ts); this is the traveler's view.
test('two consents at once (two tabs) both go back to the client, and leave one grant', async (t) => {
  const agent = await registerPublicClient(running);
  const browser = browserFor();
  const email = uniqueEmail();
  const first = await startAuthorization(agent, REDIRECT, 'profile.read');
  const page = await browser.open(first.url.href);
  if (!isPage(page)) return t.fail();
  const codePage = await browser.submit(page, '/email', { email });
  if (!isPage(codePage)) return t.fail();
  const consentA = await browser.submit(codePage, '/code', { code: await latestCode(running.url, email) });
  const second = await startAuthorization(agent, REDIRECT, 'profile.read bookings.read');
  const consentB = await browser.open(second.url.href);
  if (!isPage(consentA) || !isPage(consentB)) return t.fail();
  const [a, b] = await Promise.all([
    browser.submit(consentA, '/consent', { scope: ['profile.read'] }),
    browser.submit(consentB, '/consent', { scope: ['profile.read', 'bookings.read'] }),
  ]);
  t.false(isPage(a), 'the first tab went back to the client');
  t.false(isPage(b), 'the second tab went back to the client');
  const user = await running.service.db.knex('users').where({ email }).first('id');
  const grants = await running.service.db.knex('oidc_models').where({ kind: 'Grant', account_id: user.id, client_id: agent.clientMetadata().client_id });
  t.is(grants.length, 1);
});
