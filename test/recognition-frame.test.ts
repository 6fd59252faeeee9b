/**
 * The recognition frame over real HTTP (decisions §11, Identity surface rule 1): who may frame it, when
 * it recognizes the traveler (first-party session AND standing consent for that client) and mints a
 * fresh 120-second token bound to the client, when it stays anonymous (no session, no consent, consent
 * revoked, another airline), and its sign-out (CSRF-bound to the session).
 */
import test from 'ava';
import { systemClock } from '../core/clock.js';
import { RecognitionTokens } from '../core/identity/recognition-tokens.js';
import { recognitionFramePage } from '../authz/pages/recognition-frame.js';
import { appsHeaders } from './helpers/apps-api.js';
import { csrfOf, formActions, isPage, TestBrowser, type Page } from './helpers/browser.js';
import { createTestDatabase } from './helpers/database.js';
import { basic, identityCall } from './helpers/identity.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, uniqueEmail, userIdOf } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

function frameUrl(clientId: string, redirectUri = PARTNER_REDIRECT, extra: Record<string, string> = {}): string {
  return `${running.config.authUrl}/recognition/frame?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, ...extra })}`;
}

async function openFrame(browser: TestBrowser, url: string): Promise<Page> {
  const page = await browser.open(url);
  if (!isPage(page)) throw new Error(`the frame redirected to ${page.redirectedTo}`);
  return page;
}

function stateOf(page: Page): string | undefined {
  return /data-state="([a-z]+)"/.exec(page.html)?.[1];
}

function tokenOf(page: Page): string {
  return /data-token="([^"]*)"/.exec(page.html)?.[1] ?? '';
}

/** A partner airline, and a traveler who signed in and consented to it in `browser`. */
async function connectedTraveler(name: string, options: { firstName?: string; scope?: string } = {}) {
  const airline = await createPartnerClient(running, name, undefined, { airline: true });
  const config = await clientFor(running, airline.clientId, oauth.ClientSecretBasic(airline.clientSecret));
  const email = uniqueEmail();
  const { tokens, browser } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: options.scope ?? 'profile.read', traveler: { email } });
  const userId = userIdOf(tokens.access_token);
  if (options.firstName) await running.service.db.knex('users').where({ id: userId }).update({ first_name: options.firstName });
  return { airline, browser, userId, email };
}

test('an unknown client or a redirect_uri that is not registered exactly gets a 400 page that says so and cannot be framed', async (t) => {
  const airline = await createPartnerClient(running, 'Frame Air', undefined, { airline: true });
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  for (const [url, words] of [
    [frameUrl('no-such-client'), 'No airline client no-such-client is registered'],
    [frameUrl(airline.clientId, `${PARTNER_REDIRECT}/`), 'is not a redirect URI registered'],
    [frameUrl(airline.clientId, 'https://partner.example/'), 'is not a redirect URI registered'],
    [`${running.config.authUrl}/recognition/frame?client_id=${airline.clientId}`, 'redirect_uri is missing'],
    [frameUrl('travel-partner-account', `${running.config.authUrl}/account/signed-in`), 'is registered'],
  ] as const) {
    const page = await openFrame(browser, url);
    t.is(page.status, 400, url);
    t.true(page.html.includes(words), `${url}: ${page.html}`);
    t.regex(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    t.is(page.headers.get('x-frame-options'), 'DENY');
  }
});

test('the frame may be framed by the client’s registered redirect origins only, is never cached and sends its referrer to our own origin only', async (t) => {
  const airline = await createPartnerClient(running, 'Origins Air', undefined, { airline: true });
  await running.service.db
    .knex('oidc_models')
    .where({ kind: 'Client', id: airline.clientId })
    .update({
      payload: running.service.db.knex.raw(`jsonb_set(payload::jsonb, '{redirect_uris}', ?::jsonb)::text`, [
        JSON.stringify([PARTNER_REDIRECT, 'https://partner.example/other', 'https://www.partner.example/back']),
      ]),
    });
  const page = await openFrame(new TestBrowser(new URL(running.config.authUrl).origin), frameUrl(airline.clientId));
  t.is(page.status, 200);
  const csp = page.headers.get('content-security-policy') ?? '';
  t.is(/frame-ancestors ([^;]+)/.exec(csp)?.[1], 'https://partner.example https://www.partner.example');
  t.is(page.headers.get('x-frame-options'), null);
  t.is(page.headers.get('cache-control'), 'no-store');
  t.is(page.headers.get('referrer-policy'), 'same-origin');
  t.regex(csp, /script-src 'self'/);
  t.regex(page.html, /data-target-origin="https:\/\/partner\.example"/);
});

test('without a first-party session the frame is anonymous, offers sign-in and mints nothing', async (t) => {
  const airline = await createPartnerClient(running, 'Anonymous Air', undefined, { airline: true });
  const page = await openFrame(new TestBrowser(new URL(running.config.authUrl).origin), frameUrl(airline.clientId));
  t.is(stateOf(page), 'anonymous');
  t.is(tokenOf(page), '');
  t.true(page.html.includes('Sign in with Travel Partner'));
  t.is(await tokenRows(airline.clientId), 0);
});

test('signed in and connected: recognized, with a fresh 120-second token bound to the client on every load', async (t) => {
  const { airline, browser, userId } = await connectedTraveler('Recognizing Air', { firstName: 'Amelia' });
  const first = await openFrame(browser, frameUrl(airline.clientId, PARTNER_REDIRECT, { airline_name: 'Recognizing Air' }));
  t.is(first.status, 200);
  t.is(stateOf(first), 'recognized');
  t.true(first.html.includes('Recognized by Travel Partner as <strong>Amelia</strong>'), first.html);
  t.true(first.html.includes('Recognizing Air receives from us: your name, e-mail and phone number.'), first.html);
  const token = tokenOf(first);
  t.regex(token, /^[A-Za-z0-9_-]{22}$/, '128 random bits, base64url');
  const rows: { user_id: string; client_id: string; expires_at: Date; created_at: Date; used_at: Date | null }[] = await running.service.db
    .knex('recognition_tokens')
    .where({ client_id: airline.clientId });
  t.is(rows.length, 1);
  t.is(rows[0]?.user_id, userId);
  t.is(rows[0]?.used_at, null);
  t.is((rows[0] as { expires_at: Date }).expires_at.getTime() - (rows[0] as { created_at: Date }).created_at.getTime(), 120_000);

  const second = await openFrame(browser, frameUrl(airline.clientId));
  t.not(tokenOf(second), token, 'each load mints a fresh token');
  t.is(await tokenRows(airline.clientId), 2);
  const tokens = new RecognitionTokens({ db: running.service.db.knex, clock: systemClock });
  t.deepEqual(await tokens.redeem(token, airline.clientId), { userId }, 'the token is live and the traveler’s');
  t.is(await tokens.redeem(token, airline.clientId), undefined, 'single use');

  // Loaded as anything but a frame (a top-level visit, an image another site points at): no token.
  for (const dest of ['document', 'image']) {
    const page = await browser.open(frameUrl(airline.clientId), { headers: { 'sec-fetch-dest': dest } });
    t.is(isPage(page) ? stateOf(page) : undefined, 'anonymous', dest);
  }
  t.is(await tokenRows(airline.clientId), 2, 'nothing minted for loads that are not frames');
  const framedLoad = await browser.open(frameUrl(airline.clientId), { headers: { 'sec-fetch-dest': 'iframe' } });
  t.is(isPage(framedLoad) ? stateOf(framedLoad) : undefined, 'recognized');

  const minimal = await openFrame(browser, frameUrl(airline.clientId, PARTNER_REDIRECT, { transparency: 'minimal' }));
  t.is(stateOf(minimal), 'recognized');
  t.true(minimal.html.includes('✓ Travel Partner'));
  t.false(minimal.html.includes('receives from us'));
});

test('the full chip names what the airline receives, per scope the traveler granted it: the claim groups resolve discloses', async (t) => {
  const profileOnly = await connectedTraveler('Profile Air', { firstName: 'Amelia' });
  const page = await openFrame(profileOnly.browser, frameUrl(profileOnly.airline.clientId, PARTNER_REDIRECT, { airline_name: 'Profile Air' }));
  t.is(stateOf(page), 'recognized');
  t.true(page.html.includes('Profile Air receives from us: your name, e-mail and phone number.'), page.html);
  t.false(page.html.includes('preferences'), 'preferences.read was not granted');
  t.false(page.html.includes('loyalty'), 'loyalty.read was not granted');
  t.false(page.html.includes('returning traveler'), 'never that the airline learns only that the traveler returns');
  t.false(page.html.includes('only that you'));

  const everything = await connectedTraveler('Everything Air', { firstName: 'Amelia', scope: 'profile.read preferences.read loyalty.read' });
  const full = await openFrame(everything.browser, frameUrl(everything.airline.clientId, PARTNER_REDIRECT, { airline_name: 'Everything Air' }));
  t.true(
    full.html.includes(
      'Everything Air receives from us: your name, e-mail and phone number; your travel preferences (seat, bags, meals, assistance needs) and your language, region and currency; the loyalty memberships it linked to you.',
    ),
    full.html,
  );
  t.false(full.html.includes('only that you'));

  // None of the three, but another permission (its API tokens use it): not "only", and where to see it.
  const other = await connectedTraveler('Other Air', { firstName: 'Amelia', scope: 'bookings.read' });
  const otherPage = await openFrame(other.browser, frameUrl(other.airline.clientId, PARTNER_REDIRECT, { airline_name: 'Other Air' }));
  t.is(stateOf(otherPage), 'recognized');
  t.false(otherPage.html.includes('only that you'), otherPage.html);
  t.false(otherPage.html.includes('receives from us'));
  t.true(otherPage.html.includes('Other Air recognizes you, and holds other permissions you gave it'), otherPage.html);
  t.regex(otherPage.html, /<a href="\/account\/apps" target="_blank" rel="noopener">Connected apps<\/a>/);

  // A standing consent with no scope left (the traveler turned each off): nothing but the connection.
  const bare = recognitionFramePage({
    targetOrigin: 'https://www.bare.example',
    transparency: 'full',
    airlineName: 'Bare Air',
    recognition: { state: 'recognized', token: 'x', displayName: 'Amelia', scopes: [], signOut: { action: '/recognition/sign-out', csrf: 'c' } },
  });
  t.true(bare.includes('Bare Air learns only that you are connected to it.'), bare);
  t.false(bare.includes('receives from us'));
});

test('without a first name the chip greets the traveler by their e-mail’s local part', async (t) => {
  const { airline, browser, email } = await connectedTraveler('Local Part Air');
  const page = await openFrame(browser, frameUrl(airline.clientId));
  t.true(page.html.includes(`as <strong>${email.split('@')[0]}</strong>`));
});

test('signed in but not connected to this airline (another airline’s traveler, or consent revoked): anonymous', async (t) => {
  const { airline, browser } = await connectedTraveler('Connected Air');
  const other = await createPartnerClient(running, 'Other Air', undefined, { airline: true });
  const elsewhere = await openFrame(browser, frameUrl(other.clientId));
  t.is(stateOf(elsewhere), 'anonymous', 'another airline’s frame does not recognize the traveler');
  t.is(await tokenRows(other.clientId), 0);

  // Connected, then disconnected on the Connected apps API: the grant is gone, so is recognition.
  t.is(stateOf(await openFrame(browser, frameUrl(airline.clientId))), 'recognized');
  const revoked = await fetch(`${running.config.authUrl}/v1/apps/${airline.clientId}`, {
    method: 'DELETE',
    headers: await appsHeaders(running.config.authUrl, browser.cookieHeader('/v1/apps')),
  });
  t.is(revoked.status, 204);
  const after = await openFrame(browser, frameUrl(airline.clientId));
  t.is(stateOf(after), 'anonymous', 'consent revoked');
});

test('sign-out without the form’s CSRF token is refused; with it the session ends and the frame comes back anonymous', async (t) => {
  const { airline, browser } = await connectedTraveler('Sign Out Air');
  const url = frameUrl(airline.clientId, PARTNER_REDIRECT, { transparency: 'full', chip_position: 'right' });
  const page = await openFrame(browser, url);
  t.is(stateOf(page), 'recognized');
  const action = new URL(formActions(page.html).find((candidate) => candidate.startsWith('/recognition/sign-out?')) as string, page.url).href;
  const post = (fields: Record<string, string>) =>
    browser.open(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  const forged = await post({ csrf: 'forged' });
  t.true(isPage(forged) && forged.status === 403);
  const missing = await post({ other: 'x' });
  t.true(isPage(missing) && missing.status === 403);
  t.is(stateOf(await openFrame(browser, url)), 'recognized', 'the session stands');

  const fresh = await openFrame(browser, url);
  const done = await post({ csrf: csrfOf(fresh.html) });
  if (!isPage(done)) return t.fail('the sign-out left our origin');
  t.is(new URL(done.url).pathname, '/recognition/frame', 'back to the same frame');
  t.is(new URL(done.url).searchParams.get('chip_position'), 'right');
  t.is(stateOf(done), 'anonymous');
  t.is(stateOf(await openFrame(browser, url)), 'anonymous', 'the first-party session is over');
  const apps = await fetch(`${running.config.authUrl}/v1/apps`, { headers: { cookie: browser.cookieHeader('/v1/apps') } });
  t.is(apps.status, 401, 'signed out of the account pages too');
});

test('the component is served from the authorization server, to any page, told that this server is a sandbox', async (t) => {
  const response = await fetch(`${running.config.authUrl}/components/recognition.js`);
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /javascript/);
  t.is(response.headers.get('access-control-allow-origin'), '*');
  const source = await response.text();
  t.true(source.includes('const SERVER_IS_SANDBOX = true;'));
  t.true(source.includes("customElements.define('travel-partner-recognition'"));
});

async function tokenRows(clientId: string): Promise<number> {
  const [row] = await running.service.db.knex('recognition_tokens').where({ client_id: clientId }).count<{ count: string }[]>('* as count');
  return Number(row?.count);
}

test('registration cannot claim to be the sandbox demo client (its loopback redirect is the sandbox’s own exception)', async (t) => {
  const response = await fetch(`${running.config.authUrl}/v1/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Fake Demo', redirect_uris: ['https://fake-demo.example/'], token_endpoint_auth_method: 'client_secret_basic', sandbox_demo: true }),
  });
  t.is(response.status, 400);
  t.is(((await response.json()) as { error: string }).error, 'invalid_client_metadata');
  const demo = await openFrame(new TestBrowser(new URL(running.config.authUrl).origin), frameUrl('sandbox-demo-airline', `${running.config.demoAirline?.url}/`));
  t.is(demo.status, 200, 'the demo client itself loads, loopback redirect and all');
  t.is(/frame-ancestors ([^;]+)/.exec(demo.headers.get('content-security-policy') ?? '')?.[1], running.config.demoAirline?.url);
});

test('outside sandbox mode the demo client’s loopback redirect is not honoured: its frame is unknown, its Basic credentials fail', async (t) => {
  // The demo client a sandbox run wrote stays in a shared database; an instance with SANDBOX=0 reads it.
  const database = await createTestDatabase();
  const sandboxed = await startService({}, { database, rateLimitKeyPrefix: uniquePrefix() });
  const plain = await startService({ SANDBOX: '0', SMTP_URL: 'smtp://127.0.0.1:2525' }, { database, rateLimitKeyPrefix: uniquePrefix() });
  try {
    const demoRedirect = `${sandboxed.config.demoAirline?.url}/`;
    const frame = await new TestBrowser(new URL(plain.config.authUrl).origin).open(
      `${plain.config.authUrl}/recognition/frame?${new URLSearchParams({ client_id: 'sandbox-demo-airline', redirect_uri: demoRedirect })}`,
    );
    t.is(isPage(frame) ? frame.status : 0, 400);
    t.true(isPage(frame) && frame.html.includes('No airline client sandbox-demo-airline is registered'));
    const resolved = await identityCall(plain, 'POST', '/v1/identity/resolve', basic('sandbox-demo-airline', 'any-secret'), { guid: '00000000-0000-4000-8000-000000000000' });
    t.is(resolved.status, 401, resolved.text);
    t.like(resolved.body, { error: 'invalid_client' });
  } finally {
    await plain.close();
    await sandboxed.close();
    await database.drop();
  }
});
