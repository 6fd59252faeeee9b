/**
 * Property tests of the hosted pages' forms (sign-in, consent, Connected apps) and of their JSON API
 * (/v1/apps): random, hostile and malformed bodies, content types, encodings and ids, with and without a
 * valid CSRF token, from our own pages, from other sites' and with nonsense in Origin and Sec-Fetch-Site,
 * are answered with one of our pages or envelopes, never a 5xx.
 */
import test from 'ava';
import fc from 'fast-check';
import { appsHeaders } from './helpers/apps-api.js';
import { csrfOf, isPage, TestBrowser } from './helpers/browser.js';
import { answersAsOurPages, answersInOurEnvelope, deeplyNested, hostileText, nestedJson } from './helpers/hostile.js';
import { authorize, clientFor, createPartnerClient, oauth, openSignInPage, PARTNER_REDIRECT, uniqueEmail, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partner: PartnerClient;
let config: oauth.Configuration;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  partner = await createPartnerClient(running, 'Fuzz Air');
  config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
});
test.after.always(async () => {
  await running?.close();
});

/** What goes into a form field: hostile text, sometimes a lot of it, sometimes the field twice. */
const fieldValue = fc.oneof(hostileText(), fc.constant('x'.repeat(20_000)), fc.array(hostileText(20), { maxLength: 3 }));
const FIELD_NAMES = ['csrf', 'email', 'code', 'scope', '__proto__', 'constructor', 'x'];
/** The spending limit form's fields (decisions §10). */
const LIMIT_FIELDS = ['currency', 'per_booking', 'per_30_days'];

/** A request body as a client could send it: a form (maybe with the page's CSRF token), JSON, bytes or nothing. */
function hostileBody(names: string[]) {
  const form = fc.tuple(fc.dictionary(fc.constantFrom(...names), fieldValue, { maxKeys: 4 }), fc.boolean()).map(([fields, withCsrf]) => ({ fields, withCsrf }));
  return fc.oneof(
    { weight: 4, arbitrary: form.map((body) => ({ kind: 'form' as const, ...body })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ kind: 'bytes' as const, bytes })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
}
type HostileBody = ReturnType<typeof hostileBody> extends fc.Arbitrary<infer T> ? T : never;

const contentType = fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=latin1', 'application/json', 'text/plain', undefined);
const contentEncoding = fc.constantFrom(undefined, undefined, undefined, 'gzip', 'br');
const accept = fc.constantFrom('text/html', 'application/json', '*/*');

/**
 * Where a request says it comes from (Origin, Sec-Fetch-Site): mostly nothing (not a browser) or our own
 * page, so that bodies reach the handlers; sometimes another site's page, an opaque origin, or nonsense.
 */
function site(): fc.Arbitrary<Record<string, string>> {
  const ours = new URL(running.config.authUrl).origin;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant<Record<string, string>>({}) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Record<string, string>>({ origin: ours, 'sec-fetch-site': 'same-origin' }, { origin: 'null', 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'same-origin' }),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom<Record<string, string>>(
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
        { origin: 'not an origin', 'sec-fetch-site': 'whatever' },
        { origin: `${ours}, https://evil.example` },
        { origin: 'x'.repeat(5000) },
        { 'sec-fetch-site': 'x'.repeat(5000) },
      ),
    },
  );
}

function requestInit(body: HostileBody, csrf: string, headers: Record<string, string | undefined>): RequestInit {
  const sent: Record<string, string> = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  if (body.kind === 'none') return { method: 'POST', headers: sent, redirect: 'manual' };
  if (body.kind === 'bytes') return { method: 'POST', headers: sent, body: body.bytes, redirect: 'manual' };
  const form = new URLSearchParams();
  if (body.withCsrf) form.append('csrf', csrf);
  for (const [name, value] of Object.entries(body.fields)) for (const item of [value].flat()) form.append(name, item);
  return { method: 'POST', headers: sent, body: form.toString(), redirect: 'manual' };
}

test('property: hostile forms to the sign-in and consent pages are answered with our page or the OAuth envelope, never a 5xx', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('email', 'code', 'resend', 'consent', 'deny'), hostileBody([...FIELD_NAMES, ...LIMIT_FIELDS]), contentType, contentEncoding, accept, site(), async (action, body, type, encoding, acceptType, from) => {
      // A sign-in of its own for each run: a Deny or a used-up code would end a shared one.
      const { page, pageBrowser } = await openSignInPage(running, config, PARTNER_REDIRECT);
      const uid = /\/interaction\/([^/?"]+)\//.exec(page.html)?.[1] as string;
      const cookie = pageBrowser.cookieHeader(`/interaction/${uid}/${action}`);
      const init = requestInit(body, csrfOf(page.html), { 'content-type': type, 'content-encoding': encoding, accept: acceptType, cookie, ...from });
      return answersAsOurPages(await fetch(`${running.url}/interaction/${uid}/${action}`, init));
    }),
    { numRuns: 40 },
  );
  t.pass();
});

test('property: hostile forms to the Connected apps page are answered with our page or an envelope, never a 5xx', async (t) => {
  const { cookie, csrf } = await connectedAppsSession();
  const clientId = fc.constantFrom(partner.clientId, 'x%00y', '%ED%A0%80', 'a'.repeat(300), '%25', 'account');
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('revoke', 'scopes', 'spending-limit', 'spending-limit/remove'), clientId, hostileBody([...FIELD_NAMES, ...LIMIT_FIELDS]), contentType, contentEncoding, site(), async (action, id, body, type, encoding, from) => {
      const init = requestInit(body, csrf, { 'content-type': type, 'content-encoding': encoding, accept: 'application/json', cookie, ...from });
      return answersAsOurPages(await fetch(`${running.url}/account/apps/${id}/${action}`, init));
    }),
    { numRuns: 80 },
  );
  t.pass();
});

test('property: hostile JSON to /v1/apps is answered in our envelope, never a 5xx', async (t) => {
  const { cookie } = await connectedAppsSession();
  const token = (await appsHeaders(running.url, cookie))['x-csrf-token'];
  const value = fc.oneof(hostileText(), fc.array(hostileText(), { maxLength: 3 }), fc.integer(), fc.constant(null), deeplyNested());
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.oneof(fc.dictionary(fc.constantFrom('scopes', '__proto__', 'constructor', 'x'), value, { maxKeys: 3 }), value).map((sent) => JSON.stringify(sent)) },
    { weight: 1, arbitrary: fc.constantFrom('{"scopes": [', '{"__proto__": {"scopes": []}}', nestedJson(5000, 'array'), JSON.stringify({ scopes: ['x'.repeat(20_000)] }), '', '"\\ud800"') },
  );
  const clientId = fc.constantFrom(partner.clientId, 'x%00y', '%ED%A0%80', 'a'.repeat(300));
  const type = fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain', undefined);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('PUT', 'DELETE', 'GET'), clientId, body, type, contentEncoding, fc.constantFrom(token, token, token, undefined, 'forged'), site(), async (method, id, sent, contentTypeHeader, encoding, csrf, from) => {
      const headers = Object.fromEntries(
        Object.entries({ cookie, 'content-type': contentTypeHeader, 'content-encoding': encoding, 'x-csrf-token': csrf, ...from }).filter(([, item]) => item !== undefined),
      ) as Record<string, string>;
      const path = method === 'PUT' ? `/v1/apps/${id}/scopes` : method === 'DELETE' ? `/v1/apps/${id}` : '/v1/apps';
      return answersInOurEnvelope(await fetch(`${running.url}${path}`, { method, headers, ...(method === 'GET' ? {} : { body: sent }) }));
    }),
    { numRuns: 80 },
  );
  t.pass();
});

/** A traveler signed in on the hosted pages with the partner's app connected: their session cookie and the page's CSRF token. */
async function connectedAppsSession(): Promise<{ cookie: string; csrf: string }> {
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  // bookings.write: the app has a spending limit form, whose fields the property fills with hostile text too.
  await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read passengers.read bookings.write', browser, traveler: { email: uniqueEmail() } });
  const apps = await browser.open(`${running.url}/account/apps`);
  if (!isPage(apps) || apps.status !== 200) throw new Error('the Connected apps page did not open');
  return { cookie: browser.cookieHeader('/account/apps'), csrf: csrfOf(apps.html) };
}
