/**
 * Every change made with the traveler's browser cookie is refused when another site's page sends it
 * (issue 22, item 3): by `Origin` (present and not one of the exact allowed origins, `null` included) or
 * by `Sec-Fetch-Site: cross-site`. The Connected apps JSON API (/v1/apps) also takes the session's CSRF
 * token in `x-csrf-token`, the same one the payment routes take; GET /v1/apps hands it out. The payment
 * routes a browser calls with the cookie stay open to the partner pages of COMPONENT_ORIGINS; the hosted
 * pages' forms (Connected apps, purchase confirmation, sign-in, the recognition frame's sign-out) answer
 * another site's post with the hosted error page, and change nothing.
 */
import test, { type ExecutionContext } from 'ava';
import { isCrossSiteRequest } from '../core/cross-site.js';
import { REFUNDABLE_OFFER } from './booking-contract/provider-b.js';
import { csrfOf, formActions, type Page, type TestBrowser } from './helpers/browser.js';
import { asBrowser, cardTraveler, saveCardInBrowser, tokenizationSession, vaultToken } from './helpers/cards.js';
import { jsonOf, type Json } from './helpers/http.js';
import { authorize, clientFor, createPartnerClient, oauth, openSignInPage, PARTNER_REDIRECT, uniqueEmail, type PartnerClient } from './helpers/oauth.js';
import { callTool, openConfirmation, partnerOffer, toolAgent } from './helpers/purchases.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const PARTNER_PAGE = 'https://shop.partner.example';
const EVIL = 'https://evil.example';

let running: RunningService;
let offers: PartnerClient;

test.before(async () => {
  running = await startService({ COMPONENT_ORIGINS: PARTNER_PAGE }, { rateLimitKeyPrefix: uniquePrefix() });
  offers = await createPartnerClient(running, 'Cross Site Offers');
});
test.after.always(async () => {
  await running?.close();
});

/** The service's own origin (API and hosted pages share it in these tests). */
const ours = () => new URL(running.config.authUrl).origin;

/** A traveler signed in on the hosted pages who connected a partner app with `scope`. */
async function connectedTraveler(scope = 'profile.read bookings.read') {
  const partner = await createPartnerClient(running, 'Cross Site Air');
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { browser } = await authorize(running, client, { redirectUri: PARTNER_REDIRECT, scope, traveler: { email: uniqueEmail('cross') } });
  return { partner, browser, cookie: browser.cookieHeader('/v1/apps') };
}

/** GET /v1/apps on the browser's session: the apps, and the response (its x-csrf-token header). */
async function listApps(cookie: string): Promise<{ response: Response; apps: Json[] }> {
  const response = await fetch(`${running.url}/v1/apps`, { headers: { cookie } });
  return { response, apps: response.status === 200 ? await jsonOf(response.clone()) : [] };
}

async function grantedOf(cookie: string, clientId: string): Promise<string[] | undefined> {
  return (await listApps(cookie)).apps.find((app) => app.client_id === clientId)?.granted;
}

function putScopes(clientId: string, scopes: string[], headers: Record<string, string>) {
  return fetch(`${running.url}/v1/apps/${encodeURIComponent(clientId)}/scopes`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ scopes }),
  });
}

function deleteApp(clientId: string, headers: Record<string, string>) {
  return fetch(`${running.url}/v1/apps/${encodeURIComponent(clientId)}`, { method: 'DELETE', headers });
}

/** A form post as another site's page (or a script without our page) sends it, with the browser's cookies. */
function postForm(browser: TestBrowser, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', cookie: browser.cookieHeader(new URL(url).pathname), ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** What a browser sends with a request another site's page makes, each way it can be told. */
const CROSS_SITE: Record<string, Record<string, string>> = {
  'Origin of another site': { origin: EVIL },
  'Sec-Fetch-Site: cross-site': { 'sec-fetch-site': 'cross-site' },
  'Origin: null (a sandboxed frame, a data: URL)': { origin: 'null' },
  'Origin: null, Sec-Fetch-Site: cross-site': { origin: 'null', 'sec-fetch-site': 'cross-site' },
  'another site that is same-site': { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' },
};

async function refusedAsPage(t: ExecutionContext, response: Response, label: string): Promise<void> {
  t.is(response.status, 403, label);
  t.regex(response.headers.get('content-type') ?? '', /text\/html/, label);
  const html = await response.text();
  t.true(html.includes('cross_site_request'), `${label}: the page names the error code`);
  t.regex(html, /another site/, `${label}: the page says why`);
}

test('the rule: an Origin decides by the exact list; Origin: null only with Sec-Fetch-Site same-origin or none; without Origin, cross-site is refused', (t) => {
  const allowed = new Set(['https://auth.example', 'https://shop.partner.example']);
  const crossSite = (origin: string, fetchSite = '') => isCrossSiteRequest({ origin, fetchSite }, allowed);
  t.false(crossSite('https://auth.example', 'same-origin'));
  t.false(crossSite('https://shop.partner.example', 'same-site'));
  t.false(crossSite('https://shop.partner.example', 'cross-site'), 'a listed origin on another site');
  t.false(crossSite('https://shop.partner.example'));
  t.true(crossSite('https://evil.example'));
  t.true(crossSite('https://evil.example', 'same-origin'), 'an Origin not listed, whatever else is said');
  t.true(crossSite('https://auth.example:443'), 'exact origins: no normalizing');
  t.true(crossSite('https://AUTH.example'));
  t.true(crossSite('https://auth.example/'));
  t.true(crossSite('https://auth.example, https://evil.example'), 'two Origin headers joined');
  t.true(crossSite('null'));
  t.true(crossSite('null', 'cross-site'));
  t.true(crossSite('null', 'same-site'));
  t.false(crossSite('null', 'same-origin'), 'a same-origin form of a no-referrer page, in Chromium');
  t.false(crossSite('null', 'none'));
  t.true(crossSite('', 'cross-site'));
  t.true(crossSite('', 'CROSS-SITE'));
  t.false(crossSite('', 'same-site'));
  t.false(crossSite('', 'same-origin'));
  t.false(crossSite(''), 'not a browser: the CSRF token decides');
  t.true(isCrossSiteRequest({ origin: 'https://auth.example', fetchSite: '' }, new Set()), 'no list: every origin is refused');
});

test('PUT and DELETE /v1/apps need the session’s CSRF token, which GET /v1/apps hands out; without it nothing changes', async (t) => {
  const { partner, browser, cookie } = await connectedTraveler();
  const { response } = await listApps(cookie);
  t.is(response.status, 200);
  const token = response.headers.get('x-csrf-token');
  if (!token) return t.fail('GET /v1/apps gives no x-csrf-token');
  t.is(response.headers.get('cache-control'), 'no-store', 'the token is this browser’s');
  t.is((await tokenizationSession(running, browser)).csrfToken, token, 'the same token as the payment routes’');

  const pageToken = csrfOf(((await browser.open(`${running.url}/account/apps`)) as Page).html);
  for (const [label, headers] of [
    ['no token', { cookie }],
    ['a forged token', { cookie, 'x-csrf-token': 'forged' }],
    ['the Connected apps page’s form token', { cookie, 'x-csrf-token': pageToken }],
  ] as const) {
    const put = await putScopes(partner.clientId, ['bookings.read'], headers);
    t.is(put.status, 403, `PUT, ${label}`);
    t.like(await jsonOf(put), { code: 'csrf_token_invalid' }, `PUT, ${label}`);
    const removed = await deleteApp(partner.clientId, headers);
    t.is(removed.status, 403, `DELETE, ${label}`);
    t.like(await jsonOf(removed), { code: 'csrf_token_invalid' }, `DELETE, ${label}`);
  }
  t.deepEqual(await grantedOf(cookie, partner.clientId), ['profile.read', 'bookings.read'], 'the app is connected, its scopes as before');

  // Another traveler's token does not open this session.
  const other = await connectedTraveler();
  const othersToken = (await listApps(other.cookie)).response.headers.get('x-csrf-token') as string;
  t.is((await putScopes(partner.clientId, ['bookings.read'], { cookie, 'x-csrf-token': othersToken })).status, 403);

  const put = await putScopes(partner.clientId, ['bookings.read'], { cookie, 'x-csrf-token': token });
  t.is(put.status, 200);
  t.like(await jsonOf(put), { granted: ['bookings.read'], declined: ['profile.read'] });
  t.is((await deleteApp(partner.clientId, { cookie, 'x-csrf-token': token })).status, 204);
  t.is(await grantedOf(cookie, partner.clientId), undefined, 'disconnected');
});

test('/v1/apps changes sent from another site’s page are refused even with the token; our own pages’ are served', async (t) => {
  const { partner, cookie } = await connectedTraveler();
  const token = (await listApps(cookie)).response.headers.get('x-csrf-token') as string;
  const refused = { ...CROSS_SITE, 'a partner page of COMPONENT_ORIGINS (not for this API)': { origin: PARTNER_PAGE, 'sec-fetch-site': 'same-site' } };
  for (const [label, site] of Object.entries(refused)) {
    const put = await putScopes(partner.clientId, ['bookings.read'], { cookie, 'x-csrf-token': token, ...site });
    t.is(put.status, 403, `PUT, ${label}`);
    const body = await jsonOf(put);
    t.like(body, { code: 'cross_site_request' }, `PUT, ${label}`);
    t.regex(body.message, /another site/, `PUT, ${label}: the message says why`);
    t.truthy(body.request_id, `PUT, ${label}: the error envelope`);
    const removed = await deleteApp(partner.clientId, { cookie, 'x-csrf-token': token, ...site });
    t.is(removed.status, 403, `DELETE, ${label}`);
    t.like(await jsonOf(removed), { code: 'cross_site_request' }, `DELETE, ${label}`);
  }
  t.deepEqual(await grantedOf(cookie, partner.clientId), ['profile.read', 'bookings.read'], 'nothing changed');

  const fromOurPage = { origin: ours(), 'sec-fetch-site': 'same-origin' };
  const put = await putScopes(partner.clientId, ['profile.read'], { cookie, 'x-csrf-token': token, ...fromOurPage });
  t.is(put.status, 200);
  t.deepEqual(await grantedOf(cookie, partner.clientId), ['profile.read']);
  t.is((await deleteApp(partner.clientId, { cookie, 'x-csrf-token': token, ...fromOurPage })).status, 204);
});

test('the payment routes on the browser session: another site’s page is refused, a COMPONENT_ORIGINS page and our own are served', async (t) => {
  const traveler = await cardTraveler(running, 'payments.read payments.write');
  const { csrfToken } = await tokenizationSession(running, traveler.browser);
  const save = async (headers: Record<string, string>) =>
    asBrowser(running, traveler.browser, '/v1/users/me/payment-methods/from-token', { method: 'POST', body: { vaultToken: await vaultToken(running, traveler.browser) }, csrf: csrfToken, headers });
  const cards = async () => (await jsonOf(await asBrowser(running, traveler.browser, '/v1/users/me/payment-methods'))).length;

  for (const [label, site] of Object.entries(CROSS_SITE)) {
    const refused = await save(site);
    t.is(refused.status, 403, label);
    const body = await jsonOf(refused);
    t.like(body, { code: 'cross_site_request' }, label);
    t.regex(body.message, /COMPONENT_ORIGINS/, `${label}: the message says which pages may`);
  }
  t.is(await cards(), 0, 'no card was saved');

  t.is((await save({ origin: PARTNER_PAGE, 'sec-fetch-site': 'same-site' })).status, 201, 'a partner page of COMPONENT_ORIGINS on the same site');
  const partnerElsewhere = await save({ origin: PARTNER_PAGE, 'sec-fetch-site': 'cross-site' });
  t.is(partnerElsewhere.status, 201, 'a partner page of COMPONENT_ORIGINS on another site (the exact origin is listed)');
  t.is(partnerElsewhere.headers.get('access-control-allow-origin'), PARTNER_PAGE);
  const saved = await save({ origin: ours(), 'sec-fetch-site': 'same-origin' });
  t.is(saved.status, 201, 'our own page');
  t.is(await cards(), 3);

  // A change without Origin or Sec-Fetch-Site (not a browser) still needs the CSRF token.
  const { id } = await jsonOf(saved);
  t.is((await asBrowser(running, traveler.browser, `/v1/users/me/payment-methods/${id}`, { method: 'DELETE' })).status, 403);
  const evilDelete = await asBrowser(running, traveler.browser, `/v1/users/me/payment-methods/${id}`, { method: 'DELETE', csrf: csrfToken, headers: { origin: EVIL } });
  t.is(evilDelete.status, 403);
  t.is((await asBrowser(running, traveler.browser, `/v1/users/me/payment-methods/${id}`, { method: 'DELETE', csrf: csrfToken })).status, 204);
  // Reads are not changes: another site's page may not read the answer (no CORS for it), but is not refused here.
  t.is((await asBrowser(running, traveler.browser, '/v1/users/me/payment-methods', { headers: { origin: EVIL } })).status, 200);
});

test('the Connected apps page’s forms posted from another site are refused with the error page, and change nothing', async (t) => {
  const { partner, browser, cookie } = await connectedTraveler();
  const page = (await browser.open(`${running.url}/account/apps`)) as Page;
  t.is(page.status, 200);
  const csrf = csrfOf(page.html);
  const revoke = `${running.url}/account/apps/${encodeURIComponent(partner.clientId)}/revoke`;
  const scopes = `${running.url}/account/apps/${encodeURIComponent(partner.clientId)}/scopes`;
  const signOut = `${running.url}/account/sign-out`;

  for (const [label, site] of Object.entries(CROSS_SITE)) {
    await refusedAsPage(t, await postForm(browser, revoke, { csrf }, site), `revoke, ${label}`);
    await refusedAsPage(t, await postForm(browser, scopes, { csrf, scope: 'bookings.read' }, site), `scopes, ${label}`);
    await refusedAsPage(t, await postForm(browser, signOut, { csrf }, site), `sign-out, ${label}`);
  }
  t.deepEqual(await grantedOf(cookie, partner.clientId), ['profile.read', 'bookings.read'], 'still connected, scopes as before, still signed in');

  // Chromium posts a no-referrer page's forms with Origin: null (our pages were so until they became
  // same-origin: a tab opened before still is), and says Sec-Fetch-Site: same-origin, which no page can forge.
  const fromOurPage = await postForm(browser, scopes, { csrf, scope: 'bookings.read' }, { origin: 'null', 'sec-fetch-site': 'same-origin' });
  t.is(fromOurPage.status, 303);
  t.deepEqual(await grantedOf(cookie, partner.clientId), ['bookings.read']);
  const revoked = await postForm(browser, revoke, { csrf }, { origin: ours(), 'sec-fetch-site': 'same-origin' });
  t.is(revoked.status, 303);
  t.is(await grantedOf(cookie, partner.clientId), undefined, 'disconnected from our own page');
});

test('the purchase confirmation page’s Confirm and Decline posted from another site are refused; the confirmation stays pending', async (t) => {
  const agent = await toolAgent(running);
  await saveCardInBrowser(running, agent.browser, {}, true);
  const offerId = await partnerOffer(running, offers.apiKey, REFUNDABLE_OFFER);
  const details = (await callTool(agent.client, 'get_offer_details', { provider_id: 'provider_b', offer_id: offerId })).ok;
  const passengers = details.passengers.map((item: Json, index: number) => ({
    provider_passenger_id: item.id,
    first_name: ['Ada', 'Augusta'][index] ?? `Ada${index}`,
    last_name: 'Lovelace',
    born_on: '1985-12-10',
    gender: 'female',
    identity_documents: [{ type: 'passport', unique_identifier: `P88800${index}1`, issuing_country_code: 'GB', expires_on: '2034-06-30' }],
  }));
  const asked = await callTool(agent.client, 'create_booking', {
    provider_id: 'provider_b',
    offer_id: offerId,
    passengers,
    contact: { email: 'ada@example.com', phone_number: '+447700900123', first_name: 'Ada', last_name: 'Lovelace' },
  });
  t.is(asked.error?.code, 'confirmation_required');
  const id = asked.error.confirmation_id as string;
  const page = await openConfirmation(agent.browser, asked.error.confirmation_url);
  t.is(page.status, 200);
  const csrf = csrfOf(page.html);
  const status = async () => ((await running.service.db.knex('purchase_confirmations').where({ id }).first('status')) as { status: string }).status;

  for (const [label, site] of Object.entries(CROSS_SITE)) {
    for (const decision of ['confirm', 'decline']) {
      await refusedAsPage(t, await postForm(agent.browser, `${running.config.authUrl}/confirm/${id}/${decision}`, { csrf }, site), `${decision}, ${label}`);
    }
  }
  t.is(await status(), 'pending');

  const confirmed = await postForm(agent.browser, `${running.config.authUrl}/confirm/${id}/confirm`, { csrf }, { origin: ours(), 'sec-fetch-site': 'same-origin' });
  t.is(confirmed.status, 303);
  t.is(await status(), 'confirmed');
});

test('the sign-in page’s form and the recognition frame’s sign-out posted from another site are refused', async (t) => {
  const partner = await createPartnerClient(running, 'Cross Site Sign-in Air');
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { page, pageBrowser } = await openSignInPage(running, client, PARTNER_REDIRECT);
  const action = new URL(formActions(page.html).find((candidate) => candidate.endsWith('/email')) as string, page.url).href;
  const email = uniqueEmail('cross-sign-in');
  const inbox = async () => (await jsonOf(await fetch(`${running.url}/sandbox/mail/messages?to=${encodeURIComponent(email)}`))).length;
  for (const [label, site] of Object.entries(CROSS_SITE)) {
    await refusedAsPage(t, await postForm(pageBrowser, action, { csrf: csrfOf(page.html), email }, site), `sign-in, ${label}`);
  }
  t.is(await inbox(), 0, 'no code was mailed');
  const sent = await postForm(pageBrowser, action, { csrf: csrfOf(page.html), email }, { origin: ours(), 'sec-fetch-site': 'same-origin' });
  t.is(sent.status, 200);
  t.is(await inbox(), 1);

  // The recognition frame's sign-out ends the first-party session: not from another site.
  const { cookie, browser } = await connectedTraveler();
  const signOut = `${running.url}/recognition/sign-out?${new URLSearchParams({ client_id: partner.clientId, redirect_uri: PARTNER_REDIRECT })}`;
  for (const [label, site] of Object.entries(CROSS_SITE)) {
    await refusedAsPage(t, await postForm(browser, signOut, { csrf: 'whatever' }, site), `recognition sign-out, ${label}`);
  }
  t.is((await listApps(cookie)).response.status, 200, 'still signed in');
});
