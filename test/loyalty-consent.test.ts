/**
 * `loyalty.read` in consent (decisions §5, Scopes rules 1, 8 and 9, the Consent and grants table): offered
 * like the ten and carried in the token's `scope`; a request naming it asks again after a decline, with a
 * note, and declining again ends in a code without it (no loop); a request that does not name it (or names
 * no scope) never asks again; "all ten" never includes it; the Connected apps page turns it off and on.
 */
import test from 'ava';
import { decodeJwt } from 'jose';
import { appsHeaders } from './helpers/apps-api.js';
import { isPage, latestCode, offeredScopes, TestBrowser, type Page } from './helpers/browser.js';
import { jsonOf, type Json } from './helpers/http.js';
import {
  clientFor,
  createPartnerClient,
  oauth,
  PARTNER_REDIRECT,
  registerPublicClient,
  startAuthorization,
  uniqueEmail,
  type Authorization,
  type PartnerClient,
} from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';
import { SCOPE_NAMES } from '../core/scopes.js';

const AGENT_REDIRECT = 'http://localhost:53682/callback';
const NOTE = (app: string) => `You turned this off for ${app} before; ${app} asks again. Leave it unticked to keep it off.`;

let running: RunningService;
test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

const browserFor = () => new TestBrowser(new URL(running.config.authUrl).origin);

/** A client the traveler authorizes (a partner airline, or a dynamic agent without credentials) and that traveler's browser. */
interface Airline {
  partner: PartnerClient;
  client: oauth.Configuration;
  redirectUri: string;
  name: string;
  browser: TestBrowser;
  email: string;
}

/** A partner airline (a confidential client) and a new traveler's browser, not yet signed in. */
async function partnerAirline(name: string): Promise<Airline> {
  const partner = await createPartnerClient(running, name, undefined, { airline: true });
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  return { partner, client, redirectUri: PARTNER_REDIRECT, name, browser: browserFor(), email: uniqueEmail() };
}

/** A dynamically registered (public) agent and a new traveler's browser. */
async function dynamicAgent(): Promise<Airline> {
  const client = await registerPublicClient(running, AGENT_REDIRECT);
  const partner = { partnerId: '', apiKey: '', clientId: client.clientMetadata().client_id, clientSecret: '' };
  return { partner, client, redirectUri: AGENT_REDIRECT, name: 'Test agent', browser: browserFor(), email: uniqueEmail() };
}

/** What one authorization request came to: the consent page it showed (if any), and the code exchange (if it went back to the client). */
interface Round {
  consent?: Page;
  stoppedAt?: Page;
  tokens?: Awaited<ReturnType<typeof oauth.authorizationCodeGrant>>;
}

/**
 * One authorization of `scope` (undefined: none sent): signs in when asked, keeps the consent page's HTML,
 * ticks what `tick` picks from the boxes offered (default: those the page ticked itself), and exchanges the code.
 */
async function round(air: Airline, scope: string | undefined, tick?: (offered: string[], page: Page) => string[]): Promise<Round> {
  const authorization: Authorization = await startAuthorization(air.client, air.redirectUri, scope);
  let step = await air.browser.open(authorization.url.href);
  if (isPage(step) && step.html.includes('name="email"')) step = await air.browser.submit(step, '/email', { email: air.email });
  if (isPage(step) && step.html.includes('name="code"')) step = await air.browser.submit(step, '/code', { code: await latestCode(running.url, air.email) });
  const result: Round = {};
  if (isPage(step) && step.status === 200 && step.html.includes('name="scope"')) {
    const consent: Page = step;
    result.consent = consent;
    const offered = offeredScopes(consent.html);
    const chosen = tick ? tick(offered, consent) : offered.filter((scope) => isTicked(consent.html, scope));
    step = await air.browser.submit(consent, '/consent', { scope: chosen });
  }
  if (isPage(step)) {
    result.stoppedAt = step;
    return result;
  }
  result.tokens = await oauth.authorizationCodeGrant(air.client, new URL(step.redirectedTo), {
    pkceCodeVerifier: authorization.verifier,
    expectedState: authorization.state,
  });
  return result;
}

function isTicked(html: string, scope: string): boolean {
  const input = new RegExp(`<input[^>]*value="${scope.replace('.', '\\.')}"[^>]*>`).exec(html)?.[0] ?? '';
  return /\bchecked\b/.test(input);
}

const scopesOf = (tokens: Round['tokens']) => new Set(tokens?.scope?.split(' '));

function sessionOf(browser: TestBrowser): Record<string, string> {
  return { cookie: ['_session', '_session.sig'].map((name) => `${name}=${browser.cookie(name)}`).join('; ') };
}

async function setScopes(browser: TestBrowser, clientId: string, scopes: string[]): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${running.url}/v1/apps/${clientId}/scopes`, {
    method: 'PUT',
    headers: { ...(await appsHeaders(running.url, sessionOf(browser).cookie as string)), 'content-type': 'application/json' },
    body: JSON.stringify({ scopes }),
  });
  return { status: response.status, body: await jsonOf(response) };
}

async function refresh(air: Airline, refreshToken: string): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${air.partner.clientId}:${air.partner.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
  });
  return { status: response.status, body: await jsonOf(response) };
}

test('a partner asking for profile.read and loyalty.read: consent shows both, and the token response scope carries loyalty.read', async (t) => {
  const air = await partnerAirline('Loyal Air');
  const first = await round(air, 'openid profile.read loyalty.read');
  const html = first.consent?.html ?? '';
  t.deepEqual(offeredScopes(html), ['profile.read', 'loyalty.read']);
  t.true(html.includes('Share the loyalty programs this airline linked to your account'));
  t.true(isTicked(html, 'loyalty.read') && isTicked(html, 'profile.read'), 'a first decision starts ticked, like every box');
  t.false(html.includes('asks again'), 'no re-ask note on a first decision');
  t.deepEqual(scopesOf(first.tokens), new Set(['openid', 'profile.read', 'loyalty.read']));
  const claims = decodeJwt(first.tokens?.access_token as string);
  t.is(claims.scope, first.tokens?.scope);
  t.is(claims.legacy, undefined);

  const refreshed = await refresh(air, first.tokens?.refresh_token as string);
  t.is(refreshed.status, 200);
  t.deepEqual(new Set(String(refreshed.body.scope).split(' ')), new Set(['openid', 'profile.read', 'loyalty.read']), 'kept on refresh');

  // Fully covered now: no screen.
  const covered = await round(air, 'profile.read loyalty.read');
  t.is(covered.consent, undefined);
  t.deepEqual(scopesOf(covered.tokens), new Set(['profile.read', 'loyalty.read']));
});

test('loyalty.read alone: a scoped request (not legacy), and its token carries it', async (t) => {
  const air = await partnerAirline('Only Loyalty Air');
  const first = await round(air, 'loyalty.read');
  t.deepEqual(offeredScopes(first.consent?.html ?? ''), ['loyalty.read']);
  t.is(first.tokens?.scope, 'loyalty.read');
  t.is(decodeJwt(first.tokens?.access_token as string).legacy, undefined, 'a scoped token: the traveler decided on loyalty.read');
  // And no REST route takes it: loyalty.read opens none of the ten's routes.
  const me = await fetch(`${running.url}/v1/users/me`, { headers: { 'x-api-key': air.partner.apiKey, authorization: `Bearer ${first.tokens?.access_token}` } });
  t.is(me.status, 403);
  t.is((await jsonOf(me)).error, 'insufficient_scope');
});

test('a partner’s legacy authorization survives loyalty.read: the old refresh still works and scope-less requests stay legacy', async (t) => {
  const air = await partnerAirline('Legacy Loyal Air');
  const legacy = await round(air, undefined);
  t.is(legacy.consent, undefined, 'legacy: no consent screen');
  t.is(decodeJwt(legacy.tokens?.access_token as string).legacy, true);

  const loyal = await round(air, 'loyalty.read');
  t.deepEqual(offeredScopes(loyal.consent?.html ?? ''), ['loyalty.read']);
  t.is(loyal.tokens?.scope, 'loyalty.read');

  // loyalty.read opens no route of the API: deciding on it does not end the legacy grant (rule 8).
  const refreshed = await refresh(air, legacy.tokens?.refresh_token as string);
  t.is(refreshed.status, 200, JSON.stringify(refreshed.body));
  t.is(decodeJwt(String(refreshed.body.access_token)).legacy, true);
  const again = await round(air, undefined);
  t.truthy(again.tokens, JSON.stringify(again.stoppedAt?.html.slice(0, 300)));
  t.is(decodeJwt(again.tokens?.access_token as string).legacy, true);
});

test('declined loyalty.read: a request naming it asks again with the note; declining again issues the code without it, with no loop', async (t) => {
  const air = await partnerAirline('Reask Air');
  const first = await round(air, 'profile.read loyalty.read', (offered) => offered.filter((scope) => scope !== 'loyalty.read'));
  t.deepEqual(scopesOf(first.tokens), new Set(['profile.read']));

  const second = await round(air, 'profile.read loyalty.read', () => []);
  const html = second.consent?.html ?? '';
  t.deepEqual(offeredScopes(html), ['loyalty.read'], 'only the re-asked scope: profile.read is granted already');
  t.true(html.includes(NOTE('Reask Air')), 'the note says it was turned off and is asked again');
  t.false(isTicked(html, 'loyalty.read'), 're-asked unticked: leaving it so keeps it off');
  t.regex(html, /aria-describedby="scope-loyalty\.read-note"/);
  t.truthy(second.tokens, 'the code came back: no second consent page');
  t.deepEqual(scopesOf(second.tokens), new Set(['profile.read']));

  const grant = await setScopes(air.browser, air.partner.clientId, ['profile.read']);
  t.deepEqual(grant.body.declined, ['loyalty.read'], 'still declined');

  // Asked again once more, and ticked this time: granted.
  const third = await round(air, 'profile.read loyalty.read', (offered) => offered);
  t.true(third.consent?.html.includes(NOTE('Reask Air')));
  t.deepEqual(scopesOf(third.tokens), new Set(['profile.read', 'loyalty.read']));
  const fourth = await round(air, 'profile.read loyalty.read');
  t.is(fourth.consent, undefined, 'granted now: nothing to ask');
});

test('declined loyalty.read, requested alone: asked again (not refused at once); declining again is 400 invalid_scope', async (t) => {
  const air = await partnerAirline('Alone Air');
  await round(air, 'profile.read loyalty.read', (offered) => offered.filter((scope) => scope !== 'loyalty.read'));
  const again = await round(air, 'loyalty.read', () => []);
  t.true(again.consent?.html.includes(NOTE('Alone Air')));
  t.is(again.stoppedAt?.status, 400);
  t.regex(again.stoppedAt?.html ?? '', /invalid_scope/);
  t.is(again.tokens, undefined);
});

test('a request that does not name loyalty.read never asks for it again; a scope-less request never re-prompts', async (t) => {
  const air = await partnerAirline('Quiet Air');
  await round(air, 'profile.read loyalty.read', (offered) => offered.filter((scope) => scope !== 'loyalty.read'));
  const other = await round(air, 'profile.read bookings.read');
  t.deepEqual(offeredScopes(other.consent?.html ?? ''), ['bookings.read']);
  t.false(other.consent?.html.includes('loyalty.read'));
  t.deepEqual(scopesOf(other.tokens), new Set(['profile.read', 'bookings.read']));
  const covered = await round(air, 'profile.read');
  t.is(covered.consent, undefined);

  // A dynamic agent: without scope it asks for the ten (never loyalty.read), and that never re-asks a declined loyalty.read.
  const agent = await dynamicAgent();
  const named = await round(agent, 'profile.read loyalty.read', (offered) => offered.filter((scope) => scope !== 'loyalty.read'));
  t.deepEqual(offeredScopes(named.consent?.html ?? ''), ['profile.read', 'loyalty.read']);
  const scopeless = await round(agent, undefined);
  t.deepEqual(offeredScopes(scopeless.consent?.html ?? ''), SCOPE_NAMES.filter((scope) => scope !== 'profile.read'));
  t.false(scopeless.consent?.html.includes('asks again'));
  t.deepEqual(scopesOf(scopeless.tokens), new Set(SCOPE_NAMES));
});

test('a dynamic agent without scope gets the ten, never loyalty.read', async (t) => {
  const agent = await dynamicAgent();
  const first = await round(agent, undefined);
  t.deepEqual(offeredScopes(first.consent?.html ?? ''), [...SCOPE_NAMES]);
  t.deepEqual(scopesOf(first.tokens), new Set(SCOPE_NAMES));
});

test('Connected apps: loyalty.read is listed, turned off and on (PUT /v1/apps/{client_id}/scopes), effective at the next refresh; a later request naming it re-asks', async (t) => {
  const air = await partnerAirline('Toggle Air');
  const first = await round(air, 'profile.read loyalty.read');
  const refreshToken = first.tokens?.refresh_token as string;

  const page = await air.browser.open(`${running.url}/account/apps`);
  t.true(isPage(page) && isTicked(page.html, 'loyalty.read') && page.html.includes('Share the loyalty programs this airline linked to your account'));

  const off = await setScopes(air.browser, air.partner.clientId, ['profile.read']);
  t.is(off.status, 200);
  t.like(off.body, { granted: ['profile.read'], declined: ['loyalty.read'] });
  t.is((await refresh(air, refreshToken)).body.scope, 'profile.read');

  const on = await setScopes(air.browser, air.partner.clientId, ['profile.read', 'loyalty.read']);
  t.like(on.body, { granted: ['profile.read', 'loyalty.read'], declined: [] });
  t.deepEqual(new Set(String((await refresh(air, refreshToken)).body.scope).split(' ')), new Set(['profile.read', 'loyalty.read']));

  // Only loyalty.read left on: the refresh still works (a scoped grant, not "everything off").
  await setScopes(air.browser, air.partner.clientId, ['loyalty.read']);
  t.is((await refresh(air, refreshToken)).body.scope, 'loyalty.read');

  // Turned off on the page, then named again by the airline: asked again with the note.
  await setScopes(air.browser, air.partner.clientId, ['profile.read']);
  const reasked = await round(air, 'profile.read loyalty.read', () => []);
  t.true(reasked.consent?.html.includes(NOTE('Toggle Air')));
  t.deepEqual(scopesOf(reasked.tokens), new Set(['profile.read']));
});

test('Connected apps: loyalty.read cannot be turned on for an app that never asked for it; an unknown scope names the valid ones', async (t) => {
  const air = await partnerAirline('Plain Air');
  await round(air, 'profile.read');
  const notAsked = await setScopes(air.browser, air.partner.clientId, ['profile.read', 'loyalty.read']);
  t.is(notAsked.status, 400);
  t.regex(JSON.stringify(notAsked.body), /loyalty\.read: this app never asked for it/);
  const unknown = await setScopes(air.browser, air.partner.clientId, ['loyalty.write']);
  t.is(unknown.status, 400);
  t.regex(JSON.stringify(unknown.body), /the scopes are .*bookings\.write, loyalty\.read/);
  const page = await air.browser.open(`${running.url}/account/apps`);
  t.true(isPage(page) && !page.html.includes('value="loyalty.read"'), 'not listed for an app that never asked');
});

test('prompt=none naming a declined loyalty.read: consent_required, not a silent code', async (t) => {
  const air = await partnerAirline('Silent Air');
  await round(air, 'profile.read loyalty.read', (offered) => offered.filter((scope) => scope !== 'loyalty.read'));
  const authorization = await startAuthorization(air.client, air.redirectUri, 'profile.read loyalty.read', { prompt: 'none' });
  const step = await air.browser.open(authorization.url.href);
  t.false(isPage(step));
  const back = new URL((step as { redirectedTo: string }).redirectedTo);
  t.is(back.searchParams.get('error'), 'consent_required');
  t.false(back.searchParams.has('code'));
});
