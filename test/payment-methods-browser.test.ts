/**
 * The payment routes as the card-capture component calls them: the traveler's own browser session (the
 * hosted pages' cookie), no API key or token, and the session's CSRF token on every change. The
 * tokenization session for the hosted fields: only for a signed-in browser, only for an allowed origin,
 * never cached. And random bodies to every write route, partner or browser, never get a 5xx.
 */
import test from 'ava';
import fc from 'fast-check';
import { asBrowser, asPartner, cardTraveler, saveCard, tokenizationSession, vaultToken, type CardTraveler } from './helpers/cards.js';
import { answersInOurEnvelope, deeplyNested, hostileText } from './helpers/hostile.js';
import { jsonOf, type Json } from './helpers/http.js';
import { createPartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let ada: CardTraveler;
let grace: CardTraveler;

test.before(async () => {
  running = await startService({ COMPONENT_ORIGINS: 'https://shop.partner.example' }, { rateLimitKeyPrefix: uniquePrefix() });
  // The property tests send their bodies as fast as they can: a plan that lets them.
  await running.service.partners.setPlan({ id: 'card-tests', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  const partner = await createPartnerClient(running, 'Card Fuzz Air', 'card-tests');
  ada = await cardTraveler(running, 'payments.read payments.write', partner);
  grace = await cardTraveler(running, 'payments.read payments.write', partner);
});
test.after.always(async () => {
  await running?.close();
});

test('the browser session alone lists, saves, changes and deletes the traveler’s cards; changes need the CSRF token', async (t) => {
  const session = await tokenizationSession(running, ada.browser);
  t.truthy(session.csrfToken);
  const token = await vaultToken(running, ada.browser);

  const withoutCsrf = await asBrowser(running, ada.browser, '/v1/users/me/payment-methods/from-token', { method: 'POST', body: { vaultToken: token } });
  t.is(withoutCsrf.status, 403);
  t.is((await jsonOf(withoutCsrf)).code, 'csrf_token_invalid');
  const wrongCsrf = await asBrowser(running, ada.browser, '/v1/users/me/payment-methods/from-token', { method: 'POST', body: { vaultToken: token }, csrf: 'forged' });
  t.is(wrongCsrf.status, 403);
  const gracesCsrf = (await tokenizationSession(running, grace.browser)).csrfToken;
  t.is((await asBrowser(running, ada.browser, '/v1/users/me/payment-methods/from-token', { method: 'POST', body: { vaultToken: token }, csrf: gracesCsrf })).status, 403, 'another session’s token does not do');

  const saved = await asBrowser(running, ada.browser, '/v1/users/me/payment-methods/from-token', { method: 'POST', body: { vaultToken: token }, csrf: session.csrfToken });
  t.is(saved.status, 201);
  const { id } = await jsonOf(saved);
  const list = await asBrowser(running, ada.browser, '/v1/users/me/payment-methods');
  t.is(list.status, 200, 'reads need no CSRF token');
  t.true((await jsonOf(list)).some((card: Json) => card.id === id));
  t.is((await asBrowser(running, ada.browser, `/v1/users/${ada.userId}/payment-methods/${id}`)).status, 200);

  t.is((await asBrowser(running, ada.browser, `/v1/users/me/payment-methods/${id}`, { method: 'PUT', body: { cardholderName: 'Ada Lovelace' } })).status, 403);
  const changed = await asBrowser(running, ada.browser, `/v1/users/me/payment-methods/${id}`, { method: 'PUT', body: { cardholderName: 'Ada Lovelace' }, csrf: session.csrfToken });
  t.is(changed.status, 200);
  t.is((await asBrowser(running, ada.browser, `/v1/users/me/payment-methods/${id}`, { method: 'DELETE' })).status, 403);
  t.is((await asBrowser(running, grace.browser, `/v1/users/me/payment-methods/${id}`, { method: 'DELETE', csrf: gracesCsrf })).status, 404, 'another traveler’s session');
  t.is((await asBrowser(running, grace.browser, `/v1/users/${ada.userId}/payment-methods`)).status, 403);
  t.is((await asBrowser(running, ada.browser, `/v1/users/me/payment-methods/${id}`, { method: 'DELETE', csrf: session.csrfToken })).status, 204);
});

test('without a session, key or token: 401; a partner’s credentials do not open the tokenization session', async (t) => {
  const anonymous = await fetch(`${running.url}/v1/users/me/payment-methods`);
  t.is(anonymous.status, 401);
  t.is((await jsonOf(anonymous)).code, 'session_required');
  const origin = encodeURIComponent(running.url);
  t.is((await fetch(`${running.url}/v1/payments/tokenization-session?origin=${origin}`)).status, 401);
  const partner = await asPartner(running, ada, `/v1/payments/tokenization-session?origin=${origin}`);
  t.is(partner.status, 401, 'the route is the browser’s only');
});

test('the tokenization session: the vault’s URL and a session key for an allowed origin, never cached; a foreign origin is 400', async (t) => {
  const response = await asBrowser(running, ada.browser, `/v1/payments/tokenization-session?origin=${encodeURIComponent(running.url)}`);
  t.is(response.status, 200);
  t.is(response.headers.get('cache-control'), 'no-store');
  const body = await jsonOf(response);
  t.deepEqual(Object.keys(body).sort(), ['csrfToken', 'expiresAt', 'sessionKey', 'vaultUrl']);
  t.is(body.vaultUrl, running.config.vault?.url);
  t.true(new Date(body.expiresAt).getTime() > Date.now());
  t.is((await asBrowser(running, ada.browser, `/v1/payments/tokenization-session?origin=${encodeURIComponent('https://shop.partner.example')}`)).status, 200, 'COMPONENT_ORIGINS');
  for (const origin of ['https://elsewhere.example', `${running.url}/`, `${running.url}/page`, 'null', '']) {
    const refused = await asBrowser(running, ada.browser, `/v1/payments/tokenization-session?origin=${encodeURIComponent(origin)}`);
    t.is(refused.status, 400, origin);
    const fields = (await jsonOf(refused)).fields;
    t.truthy(fields.origin);
  }
  const named = await jsonOf(await asBrowser(running, ada.browser, '/v1/payments/tokenization-session?origin=https%3A%2F%2Felsewhere.example'));
  t.regex(named.fields.origin.message, /COMPONENT_ORIGINS/);
  t.is((await asBrowser(running, ada.browser, '/v1/payments/tokenization-session')).status, 400, 'origin is required');
});

test('the tokenization session is not in the partners’ reference; the payment routes are', async (t) => {
  const document = await jsonOf(await fetch(`${running.url}/openapi.json`));
  t.falsy(document.paths['/v1/payments/tokenization-session']);
  t.truthy(document.paths['/v1/users/{userid}/payment-methods/from-token']?.post);
  t.deepEqual(Object.keys(document.paths['/v1/users/{userid}/payment-methods/{methodid}']).sort(), ['delete', 'get', 'put']);
});

/** A body a client could send: random JSON, near misses of the real fields, boundaries, nesting. */
function hostileBody(): fc.Arbitrary<Json> {
  const value = fc.oneof(
    hostileText(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(0, 1, 12, 13, 2023, 2024, 2050, 2051, -1, 1e308, '12', 'x'.repeat(101)),
    fc.uuid(),
  );
  const keys = fc.constantFrom('vaultToken', 'isDefault', 'expMonth', 'expYear', 'cardholderName', 'zip', 'brand', 'last4', '__proto__', 'constructor', 'x');
  return fc.oneof(
    { weight: 5, arbitrary: fc.dictionary(keys, value, { maxKeys: 5 }) },
    { weight: 1, arbitrary: fc.anything() },
    { weight: 1, arbitrary: deeplyNested() },
  );
}

test('property: random and boundary bodies to from-token and PUT, from a partner or a browser, are answered in our envelope, never a 5xx', async (t) => {
  const id = await saveCard(running, ada);
  const csrf = (await tokenizationSession(running, ada.browser)).csrfToken;
  const targets = [
    { method: 'POST', path: '/v1/users/me/payment-methods/from-token' },
    { method: 'PUT', path: `/v1/users/me/payment-methods/${id}` },
    { method: 'PUT', path: '/v1/users/me/payment-methods/not-a-uuid' },
    { method: 'PUT', path: `/v1/users/me/payment-methods/${crypto.randomUUID()}` },
  ];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...targets), hostileBody(), fc.boolean(), async (target, body, browser) => {
      const text = JSON.stringify(body) ?? 'null';
      const headers: Record<string, string> = browser
        ? { cookie: ada.browser.cookieHeader(target.path), 'x-csrf-token': csrf, 'content-type': 'application/json' }
        : { 'x-api-key': ada.partner.apiKey, authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' };
      return answersInOurEnvelope(await fetch(`${running.url}${target.path}`, { method: target.method, headers, body: text }));
    }),
    { numRuns: 150 },
  );
  t.pass();
});
