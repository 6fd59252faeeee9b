/**
 * The card-capture component over HTTP: its module's route (type, caching, loadable from any page), the
 * demo page (sign-in first, then its CSP), the return from the hosted sign-in to a path of ours only, and
 * the credentialed CORS of the session routes, which answers the origins of COMPONENT_ORIGINS and no other.
 */
import test from 'ava';
import { TestBrowser, type Page } from './helpers/browser.js';
import { travelerAuthorizes, uniqueEmail } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

const PARTNER = 'http://localhost:5173';
const STRANGER = 'http://localhost:6666';

let running: RunningService;

test.before(async () => {
  running = await startService({ COMPONENT_ORIGINS: `${PARTNER},https://www.example-airline.com` });
});
test.after.always(async () => {
  await running?.close();
});

/** A traveler who opened the demo page: signed in through the hosted pages on the way, and back on it. */
async function travelerOnDemoPage(): Promise<{ browser: TestBrowser; page: Page }> {
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const outcome = await travelerAuthorizes(running, browser, new URL(`${running.url}/demo/cards`), { email: uniqueEmail('demo') });
  if (!outcome.stoppedAt) throw new Error(`the sign-in left the site: ${outcome.redirectedTo}`);
  return { browser, page: outcome.stoppedAt };
}

const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

test('the component is served as cacheable JavaScript that any page may load, and is not in the reference', async (t) => {
  const response = await fetch(`${running.url}/components/card-capture.js`, { headers: { origin: STRANGER } });
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'application/javascript; charset=utf-8');
  t.regex(response.headers.get('cache-control') ?? '', /^public, max-age=\d+$/);
  t.is(response.headers.get('access-control-allow-origin'), '*');
  t.is(response.headers.get('access-control-allow-credentials'), null);
  t.is(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
  const source = await response.text();
  t.true(source.includes("customElements.define('card-capture'"));
  const openapi = (await (await fetch(`${running.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
  t.false(Object.keys(openapi.paths).some((path) => path.startsWith('/components') || path.startsWith('/demo')));
});

test('the demo page sends a browser without a session through the hosted sign-in, and the sign-in comes back to it', async (t) => {
  const response = await fetch(`${running.url}/demo/cards`, { redirect: 'manual' });
  t.is(response.status, 303);
  const location = new URL(response.headers.get('location') ?? '');
  t.is(location.origin, running.config.authUrl);
  t.is(location.searchParams.get('client_id'), 'travel-partner-account');
  t.is(location.searchParams.get('redirect_uri'), `${running.config.authUrl}/account/signed-in`);
  t.regex(location.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]+\.\/demo\/cards$/);
  // After the sign-in, the account client's redirect goes on to the path in `state`.
  const back = await fetch(`${running.url}/account/signed-in?code=x&state=${encodeURIComponent(location.searchParams.get('state') ?? '')}`, { redirect: 'manual' });
  t.is(back.status, 303);
  t.is(back.headers.get('location'), '/demo/cards');
});

test('the return after sign-in goes to a path of ours only, never to another site', async (t) => {
  for (const path of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/demo/cards?x=//evil', '/demo/../x', '/DEMO', '']) {
    const response = await fetch(`${running.url}/account/signed-in?code=x&state=${encodeURIComponent(`abc.${path}`)}`, { redirect: 'manual' });
    t.is(response.headers.get('location'), '/account/apps', path);
  }
  const plain = await fetch(`${running.url}/account/signed-in?code=x&state=abc`, { redirect: 'manual' });
  t.is(plain.headers.get('location'), '/account/apps');
});

test('the demo page for a signed-in traveler: the component, the test cards, and a CSP for our scripts and the vault’s frame only', async (t) => {
  const { page } = await travelerOnDemoPage();
  t.is(page.status, 200);
  t.is(new URL(page.url).pathname, '/demo/cards');
  t.true(page.html.includes('<card-capture user-id="me">'));
  t.true(page.html.includes('4242 4242 4242 4242'));
  t.false(/<script(?![^>]*\bsrc=)[^>]*>/.test(page.html), 'no inline script');
  const csp = page.headers.get('content-security-policy') ?? '';
  const directives = Object.fromEntries(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(' ')]));
  t.is(directives['script-src'], "'self'");
  t.is(directives['connect-src'], "'self'");
  t.is(directives['frame-src'], new URL(running.config.vault?.url ?? '').origin);
  t.is(directives['default-src'], "'none'");
  t.is(page.headers.get('cache-control'), 'no-store');
});

test('a listed origin gets credentialed CORS on the session routes, echoed exactly, with Vary: Origin', async (t) => {
  const { browser } = await travelerOnDemoPage();
  const cookie = browser.cookieHeader('/v1/users');
  const response = await fetch(`${running.url}/v1/users/me/payment-methods`, { headers: { origin: PARTNER, cookie } });
  t.is(response.status, 200);
  t.is(response.headers.get('access-control-allow-origin'), PARTNER);
  t.is(response.headers.get('access-control-allow-credentials'), 'true');
  t.regex(response.headers.get('vary') ?? '', /\bOrigin\b/i);
  // An error answer carries them too, so that the component can read what went wrong.
  const signedOut = await fetch(`${running.url}/v1/payments/tokenization-session?origin=${encodeURIComponent(PARTNER)}`, { headers: { origin: PARTNER } });
  t.is(signedOut.status, 401);
  t.is(signedOut.headers.get('access-control-allow-origin'), PARTNER);
  const session = await fetch(`${running.url}/v1/payments/tokenization-session?origin=${encodeURIComponent(PARTNER)}`, { headers: { origin: PARTNER, cookie: browser.cookieHeader('/v1/payments') } });
  t.is(session.status, 200);
  t.is(session.headers.get('access-control-allow-origin'), PARTNER);
});

test('a preflight from a listed origin allows the component’s methods and headers; any other gets no CORS headers', async (t) => {
  const preflight = (origin: string, method = 'PUT') =>
    fetch(`${running.url}/v1/users/me/payment-methods/00000000-0000-4000-8000-000000000000`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type,x-csrf-token' },
    });
  const allowed = await preflight(PARTNER);
  t.is(allowed.status, 204);
  t.is(allowed.headers.get('access-control-allow-origin'), PARTNER);
  t.is(allowed.headers.get('access-control-allow-credentials'), 'true');
  t.deepEqual(allowed.headers.get('access-control-allow-methods')?.split(/,\s*/).sort(), ['DELETE', 'GET', 'POST', 'PUT']);
  t.deepEqual(allowed.headers.get('access-control-allow-headers')?.split(/,\s*/).sort(), ['content-type', 'x-csrf-token']);
  t.regex(allowed.headers.get('vary') ?? '', /\bOrigin\b/i);

  for (const origin of [STRANGER, 'null', `${PARTNER}/`, 'http://localhost:51730', new URL(running.url).origin]) {
    const refused = await preflight(origin);
    t.deepEqual(corsHeaders(refused), [], origin);
    t.deepEqual(refused.headers.get('allow')?.split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT']);
  }
  const tokenization = await fetch(`${running.url}/v1/payments/tokenization-session`, { method: 'OPTIONS', headers: { origin: PARTNER, 'access-control-request-method': 'GET' } });
  t.is(tokenization.headers.get('access-control-allow-origin'), PARTNER);
});

test('an origin not listed gets no CORS headers on the session routes, and other routes never have them', async (t) => {
  const { browser } = await travelerOnDemoPage();
  const cookie = browser.cookieHeader('/v1/users');
  const stranger = await fetch(`${running.url}/v1/users/me/payment-methods`, { headers: { origin: STRANGER, cookie } });
  t.deepEqual(corsHeaders(stranger), []);
  t.regex(stranger.headers.get('vary') ?? '', /\bOrigin\b/i);
  for (const path of ['/v1/users/me', '/health', '/v1/flights/providers']) {
    const response = await fetch(`${running.url}${path}`, { headers: { origin: PARTNER } });
    t.deepEqual(corsHeaders(response), [], path);
    const preflight = await fetch(`${running.url}${path}`, { method: 'OPTIONS', headers: { origin: PARTNER, 'access-control-request-method': 'GET' } });
    t.deepEqual(corsHeaders(preflight), [], `OPTIONS ${path}`);
  }
});

test('without COMPONENT_ORIGINS no origin gets CORS, and outside sandbox mode there is no demo page', async (t) => {
  const other = await startService({ SANDBOX: '0', SMTP_URL: 'smtp://127.0.0.1:1', VAULT_URL: 'http://127.0.0.1:1', VAULT_API_KEY: 'key_test_unused' });
  try {
    const preflight = await fetch(`${other.url}/v1/users/me/payment-methods`, { method: 'OPTIONS', headers: { origin: PARTNER, 'access-control-request-method': 'GET' } });
    t.deepEqual(corsHeaders(preflight), []);
    t.is((await fetch(`${other.url}/demo/cards`, { redirect: 'manual' })).status, 404);
    t.is((await fetch(`${other.url}/components/card-capture.js`)).status, 200);
  } finally {
    await other.close();
  }
});
