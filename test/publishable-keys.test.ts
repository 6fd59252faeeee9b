/**
 * Publishable keys (decisions §12), end to end over HTTP on the whole service: the admin command line
 * makes one for a partner with its origins (checked as exact origins); it creates and reads an offer from
 * a listed origin, and is refused from any other origin or none (origin_not_allowed) and on every route
 * outside the checkout (publishable_key_not_allowed); revoked, it is invalid like any key. CORS on the
 * checkout's routes answers exactly the listed origins, never `*` and never with credentials; other routes
 * answer none. Secret keys are unchanged. And in Chromium: a page of a listed origin calls the API with the
 * key; a page of another origin is blocked by the browser.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import test from 'ava';
import { runAdminCommand, type AdminDeps } from '../admin/commands.js';
import { PartnerService } from '../core/partners/service.js';
import { nativeOffer, REFUNDABLE_OFFER } from './booking-contract/provider-b.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { createTestDatabase } from './helpers/database.js';
import { jsonOf } from './helpers/http.js';
import { freePort, startService, uniquePrefix, type RunningService } from './helpers/service.js';

const OFFERS = '/v1/flights/providers/provider_b/offers';
const CAPABILITIES = '/v1/flights/providers/provider_a/capabilities';
const SHOP = 'https://shop.example';
const pagePort = await freePort();
const strangerPort = await freePort();
const PAGE_ORIGIN = `http://127.0.0.1:${pagePort}`;
const STRANGER_ORIGIN = `http://127.0.0.1:${strangerPort}`;

let running: RunningService;
let admin: AdminDeps;
let native: Record<string, unknown>;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  admin = running.service.admin;
  native = await nativeOffer(running, REFUNDABLE_OFFER);
});

test.after.always(async () => {
  await running?.close();
});

interface CreatedPublishable {
  partner_id: string;
  key_id: string;
  prefix: string;
  api_key: string;
  kind: string;
  allowed_origins: string[];
}

async function newPartner(allow: string[] | null = null) {
  return running.service.partners.createPartner({ name: 'Shop Air', allowed_operations: allow });
}

async function publishableKey(partnerId: string, origins: string[] = [SHOP, PAGE_ORIGIN]): Promise<CreatedPublishable> {
  const args = ['key', 'create', '--partner', partnerId, '--publishable', ...origins.flatMap((origin) => ['--origin', origin])];
  return (await runAdminCommand(args, admin)) as CreatedPublishable;
}

function call(path: string, options: { key?: string; origin?: string; method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.key) headers['x-api-key'] = options.key;
  if (options.origin) headers.origin = options.origin;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${running.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

function preflight(path: string, origin: string, method = 'POST') {
  return fetch(`${running.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, x-api-key' },
  });
}

function corsHeadersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

test('the admin command line creates a publishable key with its origins: pk_test_ in sandbox mode, stored as a hash, listed with its kind', async (t) => {
  const partner = await newPartner();
  const created = await publishableKey(partner.partner_id);
  t.deepEqual(Object.keys(created).sort(), ['allowed_origins', 'api_key', 'key_id', 'kind', 'partner_id', 'prefix']);
  t.like(created, { partner_id: partner.partner_id, kind: 'publishable', allowed_origins: [SHOP, PAGE_ORIGIN] });
  t.regex(created.api_key, /^pk_test_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  t.is(created.prefix, created.api_key.slice(0, 'pk_test_'.length + 12));

  const row = await running.service.db.knex('api_keys').where({ id: created.key_id }).first();
  t.like(row, { prefix: created.prefix, kind: 'publishable', allowed_origins: [SHOP, PAGE_ORIGIN], revoked_at: null });
  t.deepEqual(row.secret_hash, createHash('sha256').update(created.api_key).digest());
  const secret = created.api_key.slice(created.prefix.length + 1);
  t.false(JSON.stringify({ ...row, secret_hash: row.secret_hash.toString('hex') }).includes(secret), 'the secret part is stored nowhere');

  const listed = (await runAdminCommand(['partner', 'list'], admin)) as Array<{ partner_id: string; api_keys: Array<Record<string, unknown>> }>;
  const keys = listed.find((each) => each.partner_id === partner.partner_id)?.api_keys ?? [];
  t.deepEqual(
    keys.map(({ key_id, kind, allowed_origins }) => ({ key_id, kind, allowed_origins })),
    [
      { key_id: partner.key_id, kind: 'secret', allowed_origins: null },
      { key_id: created.key_id, kind: 'publishable', allowed_origins: [SHOP, PAGE_ORIGIN] },
    ],
  );
  t.false(JSON.stringify(keys).includes(secret), 'partner list shows no key');
  t.false(JSON.stringify(keys).includes(partner.api_key.slice(17)));
});

test('origins are checked as exact origins; at least one is needed; --origin alone is refused', async (t) => {
  const partner = await newPartner();
  const refused = async (args: string[]) => (await t.throwsAsync(runAdminCommand(['key', 'create', '--partner', partner.partner_id, ...args], admin)))?.message ?? '';
  t.regex(await refused(['--publishable']), /at least one origin/);
  t.regex(await refused(['--origin', SHOP]), /--origin is for publishable keys only: add --publishable/);
  for (const [origin, words] of [
    ['https://shop.example/', /no path, query or trailing slash; write https:\/\/shop\.example/],
    ['https://shop.example/checkout', /no path/],
    ['https://*.shop.example', /wildcard/],
    ['*', /wildcard/],
    ['shop.example', /not an origin/],
    ['null', /not an origin/],
    ['ftp://shop.example', /must use https/],
    ['https://Shop.Example', /as a browser sends it.*write https:\/\/shop\.example/],
    ['https://shop.example:443', /write https:\/\/shop\.example/],
  ] as const) {
    t.regex(await refused(['--publishable', '--origin', origin]), words, origin);
  }
  t.is((await running.service.db.knex('api_keys').where({ partner_id: partner.partner_id })).length, 1, 'no key was made');

  // Outside sandbox mode: pk_live_, and http only on a loopback host.
  const production = new PartnerService(running.service.db.knex, { sandbox: false });
  const http = await t.throwsAsync(production.createPublishableKey({ partner_id: partner.partner_id, allowed_origins: ['http://shop.example'] }));
  t.regex(http?.message ?? '', /must use https:\/\/: http:\/\/ is accepted only on a loopback host/);
  const live = await production.createPublishableKey({ partner_id: partner.partner_id, allowed_origins: ['http://localhost:8090', SHOP, SHOP] });
  t.regex(live.api_key, /^pk_live_[0-9a-f]{12}_/);
  t.deepEqual(live.allowed_origins, ['http://localhost:8090', SHOP], 'repeats are dropped');
  // This service runs in sandbox mode: a production key is refused, saying why.
  const wrongMode = await call(`${OFFERS}`, { key: live.api_key, origin: SHOP, body: native });
  t.is(wrongMode.status, 401);
  const wrongModeBody = await jsonOf(wrongMode);
  t.is(wrongModeBody.code, 'invalid_api_key');
  t.regex(wrongModeBody.message, /pk_live_.*sandbox mode: use a pk_test_ key/);
});

test('from a listed origin the key creates and reads an offer, and the page may read the answers', async (t) => {
  const partner = await newPartner();
  const key = await publishableKey(partner.partner_id);
  const created = await call(OFFERS, { key: key.api_key, origin: SHOP, body: native });
  t.is(created.status, 201);
  t.deepEqual(corsHeadersOf(created), {
    'access-control-allow-origin': SHOP,
    'access-control-expose-headers': 'x-request-id, retry-after, ratelimit, ratelimit-policy',
  });
  t.regex(created.headers.get('vary') ?? '', /Origin/);
  t.truthy(created.headers.get('ratelimit'), 'the partner’s budget applies');
  const { offer_id: offerId } = await jsonOf(created);

  const read = await call(`${OFFERS}/${offerId}`, { key: key.api_key, origin: PAGE_ORIGIN });
  t.is(read.status, 200);
  t.like(await jsonOf(read), { id: offerId, provider_id: 'provider_b' });
  t.is(read.headers.get('access-control-allow-origin'), PAGE_ORIGIN);

  // The partner's secret key reads the same offer: both keys are the partner's.
  t.is((await call(`${OFFERS}/${offerId}`, { key: partner.api_key })).status, 200);
  // An error of the route itself is readable by the page too.
  const missing = await call(`${OFFERS}/00000000-0000-4000-8000-000000000000`, { key: key.api_key, origin: SHOP });
  t.is(missing.status, 404);
  t.is(missing.headers.get('access-control-allow-origin'), SHOP);
});

test('from an origin not on its list, or with none, the key is refused: 403 origin_not_allowed naming what came', async (t) => {
  const partner = await newPartner();
  const key = await publishableKey(partner.partner_id);
  const other = await call(OFFERS, { key: key.api_key, origin: 'https://evil.example', body: native });
  t.is(other.status, 403);
  const body = await jsonOf(other);
  t.like(body, { code: 'origin_not_allowed', status_code: 403 });
  t.regex(body.message, /Origin is "https:\/\/evil\.example".*works only from pages of https:\/\/shop\.example, http:\/\/127\.0\.0\.1:\d+.*ask the platform team for a publishable key listing/);
  t.deepEqual(corsHeadersOf(other), {}, 'no CORS: the browser keeps the answer from the page');

  const none = await call(OFFERS, { key: key.api_key, body: native });
  t.is(none.status, 403);
  const noneBody = await jsonOf(none);
  t.is(noneBody.code, 'origin_not_allowed');
  t.regex(noneBody.message, /carries no Origin header/);
  // A near miss is a miss: origins compare exactly.
  for (const origin of ['https://shop.example:443', 'http://shop.example', 'https://www.shop.example', 'null']) {
    const near = await call(`${OFFERS}/x`, { key: key.api_key, origin });
    t.is(near.status, 403, origin);
  }
  t.is(await running.service.db.knex('offers').where({ partner_id: partner.partner_id }).count('* as n').first().then((row) => Number(row?.n)), 0, 'no offer was kept');
});

test('on a route outside the checkout the key is refused: 403 publishable_key_not_allowed, even from its origin', async (t) => {
  const partner = await newPartner();
  const key = await publishableKey(partner.partner_id);
  for (const path of [CAPABILITIES, '/v1/users/me', '/v1/flights/providers']) {
    const response = await call(path, { key: key.api_key, origin: SHOP });
    t.is(response.status, 403, path);
    const body = await jsonOf(response);
    t.like(body, { code: 'publishable_key_not_allowed' }, path);
    t.regex(body.message, /reaches only the checkout's routes \(createProviderOffer, getProviderOffer, createCheckoutSession\).*use your secret key from your backend/);
    t.deepEqual(corsHeadersOf(response), {}, path);
  }
  // Replacing an offer is not the checkout's either, though its path is.
  const replaced = await call(`${OFFERS}/00000000-0000-4000-8000-000000000000`, { key: key.api_key, origin: SHOP, method: 'PUT', body: native });
  t.is(replaced.status, 403);
  t.like(await jsonOf(replaced), { code: 'publishable_key_not_allowed' });
  // The partner's allowlist still applies on the checkout's routes.
  const limited = await newPartner(['getProviderCapabilities']);
  const limitedKey = await publishableKey(limited.partner_id);
  const notAllowed = await call(OFFERS, { key: limitedKey.api_key, origin: SHOP, body: native });
  t.is(notAllowed.status, 403);
  t.like(await jsonOf(notAllowed), { code: 'operation_not_allowed' });
});

test('a revoked publishable key is a 401 invalid_api_key, and its origins get no preflight answer', async (t) => {
  const origin = `https://revoked-${uniquePrefix().slice(5)}.example`;
  const partner = await newPartner();
  const key = await publishableKey(partner.partner_id, [origin]);
  t.is((await call(OFFERS, { key: key.api_key, origin, body: native })).status, 201);
  t.is((await preflight(OFFERS, origin)).status, 204);
  const revoked = (await runAdminCommand(['key', 'revoke', '--key', key.prefix], admin)) as { key_id: string; revoked_at: string | null };
  t.is(revoked.key_id, key.key_id);
  t.truthy(revoked.revoked_at);
  const refused = await call(OFFERS, { key: key.api_key, origin, body: native });
  t.is(refused.status, 401);
  t.like(await jsonOf(refused), { code: 'invalid_api_key' });
  t.deepEqual(corsHeadersOf(await preflight(OFFERS, origin)), {}, 'a revocation through this process reaches the preflight at once');
  // The partner's secret key is untouched.
  t.is((await call(CAPABILITIES, { key: partner.api_key })).status, 200);
});

test('with several instances, a revoked key’s origins stop being answered at once where it was revoked, and at the end of API_KEY_CACHE_SECONDS elsewhere', async (t) => {
  const database = await createTestDatabase();
  const prefix = uniquePrefix();
  const instances: RunningService[] = [];
  try {
    instances.push(await startService({}, { database, rateLimitKeyPrefix: prefix }));
    instances.push(await startService({ API_KEY_CACHE_SECONDS: '30' }, { database, rateLimitKeyPrefix: prefix }));
    instances.push(await startService({ API_KEY_CACHE_SECONDS: '0' }, { database, rateLimitKeyPrefix: prefix }));
    const revoker = instances[0] as RunningService;
    const origin = 'https://several.example';
    // The answer of the revoking instance, one caching for 30 s, and one not caching.
    const allowedBy = () =>
      Promise.all(
        instances.map((instance) =>
          fetch(`${instance.url}${OFFERS}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } }).then((response) =>
            response.headers.get('access-control-allow-origin'),
          ),
        ),
      );
    const partner = await revoker.service.partners.createPartner({ name: 'Several' });
    const key = await revoker.service.partners.createPublishableKey({ partner_id: partner.partner_id, allowed_origins: [origin] });
    t.deepEqual(await allowedBy(), [origin, origin, origin]);
    await revoker.service.partners.revokeKey(key.key_id);
    t.deepEqual(await allowedBy(), [null, origin, null], 'the caching instance answers until its 30 s end; the others stop at once');
  } finally {
    for (const instance of instances) await instance.close();
    await database.drop();
  }
});

test('a preflight from a listed origin gets exactly the CORS answer; from another origin, or on another route, none', async (t) => {
  const partner = await newPartner();
  await publishableKey(partner.partner_id);
  const answered = await preflight(OFFERS, SHOP);
  t.is(answered.status, 204);
  t.deepEqual(corsHeadersOf(answered), {
    'access-control-allow-origin': SHOP,
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers': 'x-api-key, content-type, x-customer-id',
    'access-control-max-age': '600',
  });
  t.regex(answered.headers.get('vary') ?? '', /Origin/);
  t.is(answered.headers.get('access-control-allow-credentials'), null);
  const read = await preflight(`${OFFERS}/some-offer`, PAGE_ORIGIN, 'GET');
  t.is(read.status, 204);
  t.like(corsHeadersOf(read), { 'access-control-allow-origin': PAGE_ORIGIN, 'access-control-allow-methods': 'GET' });
  // The checkout session is opened from the page too (createCheckoutSession); it is read from the backend only.
  const session = await preflight('/v1/checkout/sessions', SHOP);
  t.is(session.status, 204);
  t.like(corsHeadersOf(session), { 'access-control-allow-origin': SHOP, 'access-control-allow-methods': 'POST' });

  for (const [path, origin, method] of [
    [OFFERS, 'https://evil.example', 'POST'],
    [OFFERS, 'https://shop.example.evil.example', 'POST'],
    [`${OFFERS}/some-offer`, SHOP, 'PUT'],
    [CAPABILITIES, SHOP, 'GET'],
    ['/v1/checkout/sessions/some-session', SHOP, 'GET'],
    ['/v1/users/me', SHOP, 'GET'],
  ] as const) {
    const response = await preflight(path, origin, method);
    t.deepEqual(corsHeadersOf(response), {}, `${method} ${path} from ${origin}`);
  }
  // The answer for OPTIONS itself is unchanged where CORS is not answered.
  const plain = await fetch(`${running.url}${OFFERS}`, { method: 'OPTIONS' });
  t.is(plain.status, 204);
  t.is(plain.headers.get('allow'), 'POST, OPTIONS');
});

test('a secret key is unchanged: every route of its allowlist, no Origin needed, and no CORS for a page', async (t) => {
  const partner = await newPartner();
  await publishableKey(partner.partner_id);
  t.is((await call(CAPABILITIES, { key: partner.api_key })).status, 200);
  const created = await call(OFFERS, { key: partner.api_key, body: native });
  t.is(created.status, 201);
  const fromPage = await call(OFFERS, { key: partner.api_key, origin: SHOP, body: native });
  t.is(fromPage.status, 201);
  t.deepEqual(corsHeadersOf(fromPage), {}, 'a secret key never answers a page');
  t.like(await running.service.partners.authenticate(partner.api_key), { keyKind: 'secret', allowedOrigins: null });
});

test('in Chromium: a page of a listed origin calls the API with the key; a page of another origin is blocked by the browser', async (t) => {
  const browser = await launchChromium();
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const servers: http.Server[] = [];
  try {
    for (const port of [pagePort, strangerPort]) {
      const server = http.createServer((_request, response) => response.end('<!doctype html><title>Shop</title><h1>Checkout</h1>'));
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      servers.push(server);
    }
    const partner = await newPartner();
    const key = await publishableKey(partner.partner_id);
    const page = await (await browser.newContext()).newPage();
    const fromPage = (url: string) =>
      page.evaluate(
        async ({ api, apiKey, offer }) => {
          try {
            const created = await fetch(`${api}/v1/flights/providers/provider_b/offers`, {
              method: 'POST',
              headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
              body: JSON.stringify(offer),
            });
            const { offer_id: offerId } = (await created.json()) as { offer_id: string };
            const read = await fetch(`${api}/v1/flights/providers/provider_b/offers/${offerId}`, { headers: { 'x-api-key': apiKey } });
            return { created: created.status, read: read.status, requestId: created.headers.get('x-request-id'), provider: ((await read.json()) as { provider_id: string }).provider_id };
          } catch (error) {
            return { blocked: String(error) };
          }
        },
        { api: running.url, apiKey: key.api_key, offer: native },
      ).then((result) => ({ url, result }));

    await page.goto(`${PAGE_ORIGIN}/checkout`);
    const listed = await fromPage(PAGE_ORIGIN);
    t.like(listed.result, { created: 201, read: 200, provider: 'provider_b' });
    t.regex((listed.result as { requestId: string }).requestId, /./, 'an exposed header is readable');

    await page.goto(`${STRANGER_ORIGIN}/checkout`);
    const stranger = await fromPage(STRANGER_ORIGIN);
    t.regex((stranger.result as { blocked?: string }).blocked ?? '', /TypeError: Failed to fetch/);
  } finally {
    await browser.close();
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  }
});
