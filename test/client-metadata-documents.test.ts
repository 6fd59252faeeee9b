/**
 * Client ID Metadata Documents: a client whose client_id is the URL of its metadata document signs a
 * traveler in without registering. The documents are served by a small HTTP server of this test on
 * 127.0.0.1, which the service may reach only because CLIENT_METADATA_TEST_ORIGINS (honoured with
 * NODE_ENV=test alone) lets that one origin through; every other http or non-public address is refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cacheSeconds, CLIENT_METADATA_CACHE } from '../authz/client-metadata-documents.js';
import { downloadFrom } from '../authz/client-metadata-fetch.js';
import { clientIdUrlProblem } from '../authz/client-metadata-url.js';
import { isPublicAddress } from '../outbound/public-addresses.js';
import { ConfigError, loadConfig } from '../config.js';
import type { Clock } from '../core/clock.js';
import { appsHeaders } from './helpers/apps-api.js';
import { isPage, latestCode, TestBrowser, type Page } from './helpers/browser.js';
import { jsonOf, type Json } from './helpers/http.js';
import { clientFor, oauth, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { freePort, startService, uniquePrefix, type RunningService } from './helpers/service.js';

const REDIRECT = 'http://127.0.0.1:53682/callback';
let now = Date.now();
const clock: Clock = { now: () => new Date(now) };

let running: RunningService;
let documents: http.Server;
let origin: string;
/** How often each path of the document server was asked for. */
const hits = new Map<string, number>();
/** Paths whose document currently answers 500 (its site is down). */
const down = new Set<string>();

/** A usable document for the client whose id is `clientId`, with `changes` applied. */
function document(clientId: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { client_id: clientId, client_name: 'Published Agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...changes };
}

function serveDocuments(request: http.IncomingMessage, response: http.ServerResponse): void {
  const path = new URL(request.url ?? '/', origin).pathname;
  hits.set(path, (hits.get(path) ?? 0) + 1);
  if (down.has(path)) {
    response.writeHead(500);
    response.end();
    return;
  }
  const self = `${origin}${path}`;
  const json = (body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  if (path.startsWith('/apps/')) return json(document(self, { client_name: `Agent ${path.slice(6, -5)}` }), { 'cache-control': 'public, max-age=600' });
  if (path.startsWith('/unnamed/')) return json(document(self, { client_name: undefined }));
  if (path.startsWith('/gradual/')) {
    // Slow enough that concurrent requests overlap, well within the deadline.
    setTimeout(() => json(document(self)), 300);
    return;
  }
  switch (path) {
    case '/large.json':
      return json(document(self, { description: 'x'.repeat(6000) }));
    case '/large-chunked.json': {
      // No Content-Length: the limit is counted on what arrives.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(JSON.stringify(document(self)).slice(0, -1));
      response.write(`, "description": "${'x'.repeat(6000)}"}`);
      response.end();
      return;
    }
    case '/slow.json':
      setTimeout(() => json(document(self)), 4000);
      return;
    case '/redirect.json':
      response.writeHead(302, { location: `${origin}/apps/target.json` });
      response.end();
      return;
    case '/missing.json':
      response.writeHead(404);
      response.end('not here');
      return;
    case '/invalid.json':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"client_id": ');
      return;
    case '/mismatch.json':
      return json(document(`${origin}/apps/someone-else.json`));
    case '/confidential.json':
      return json(document(self, { token_endpoint_auth_method: 'client_secret_basic' }));
    case '/secret.json':
      return json(document(self, { client_secret: 'published-for-all-to-see' }));
    case '/partner.json':
      return json(document(self, { partner_id: '00000000-0000-4000-8000-000000000000' }));
    case '/no-redirects.json':
      return json(document(self, { redirect_uris: [] }));
    case '/http-redirect.json':
      return json(document(self, { redirect_uris: ['http://agent.example/callback'] }));
    default:
      response.writeHead(404);
      response.end();
  }
}

test.before(async () => {
  documents = http.createServer(serveDocuments);
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  running = await startService({ NODE_ENV: 'test', CLIENT_METADATA_TEST_ORIGINS: origin }, { clock, rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
  documents?.closeAllConnections();
  await new Promise<void>((resolve) => documents?.close(() => resolve()));
});

/** An authorization request of the client `clientId`, as its browser would send it (or as JSON). */
async function authorizationRequest(clientId: string, accept = 'application/json', redirectUri = REDIRECT): Promise<Response> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'payments.read',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'xyz',
  });
  return fetch(`${running.url}/?${query}`, { redirect: 'manual', headers: { accept } });
}

async function refusal(clientId: string): Promise<{ status: number; body: Json }> {
  const response = await authorizationRequest(clientId);
  return { status: response.status, body: await jsonOf(response) };
}

/** The traveler signs in for the client `clientId` and allows payments.read for the tool endpoint; the client gets its tokens. */
async function signInThrough(clientId: string) {
  const config = await clientFor(running, clientId);
  const authorization = await startAuthorization(config, REDIRECT, 'payments.read', { resource: `${running.config.baseUrl}/v1/mcp` });
  const email = uniqueEmail('published');
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const emailPage = (await browser.open(authorization.url.href)) as Page;
  const codePage = (await browser.submit(emailPage, '/email', { email })) as Page;
  const consent = (await browser.submit(codePage, '/code', { code: await latestCode(running.url, email) })) as Page;
  const back = await browser.submit(consent, '/consent', { scope: ['payments.read'] });
  if (isPage(back)) throw new Error(`the flow did not return to the client: ${back.status} ${back.html}`);
  const tokens = await oauth.authorizationCodeGrant(config, new URL(back.redirectedTo), { pkceCodeVerifier: authorization.verifier, expectedState: authorization.state });
  return { config, tokens, browser, emailPage, consent };
}

test('the authorization server metadata says client_id may be a metadata document URL; registration stays', async (t) => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const metadata = await jsonOf(await fetch(`${running.url}${path}`));
    t.is(metadata.client_id_metadata_document_supported, true, path);
    t.is(metadata.registration_endpoint, `${running.url}/v1/oauth/register`, path);
  }
});

test('a URL client id: authorization code with PKCE, the consent page names the host, one fetch, and the token works at /v1/mcp', async (t) => {
  const clientId = `${origin}/apps/flow.json`;
  const { config, tokens, emailPage, consent } = await signInThrough(clientId);
  t.true(emailPage.html.includes('<strong>Agent flow</strong>'), 'the sign-in page names the app as its document does');
  t.true(consent.html.includes('name="scope"'), 'the consent page');
  const host = new URL(origin).host;
  t.true(consent.html.includes(`identified by a page on <strong>${host}</strong>`), 'the consent page shows the host of the client id');
  t.false(consent.html.includes('registered itself'));
  t.true(consent.html.includes(`sends you back to <strong>127.0.0.1:53682</strong>`));
  t.truthy(tokens.access_token);
  t.truthy(tokens.refresh_token, 'a published client gets refresh tokens, as a registered one does');
  t.is(hits.get('/apps/flow.json'), 1, 'the document was fetched once for the whole flow (authorization, pages, token)');
  t.is(await running.service.db.knex('oidc_models').where({ kind: 'Client', id: clientId }).first(), undefined, 'nothing is stored about the client');

  const mcp = new Client({ name: 'published-agent', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${running.url}/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }),
  );
  try {
    const result = await mcp.callTool({ name: 'list_payment_methods', arguments: {} });
    t.falsy(result.isError, JSON.stringify(result.content));
  } finally {
    await mcp.close();
  }

  const refreshed = await oauth.refreshTokenGrant(config, tokens.refresh_token as string);
  t.truthy(refreshed.access_token, 'the refresh grant resolves the client from the cached document');
});

// Serial: it moves the clock, which the other tests' flows also read.
test.serial('a document is kept for its max-age, then fetched again; concurrent first requests share one fetch', async (t) => {
  const clientId = `${origin}/apps/cached.json`;
  t.is((await authorizationRequest(clientId, 'text/html')).status, 303);
  t.is((await authorizationRequest(clientId, 'text/html')).status, 303);
  t.is(hits.get('/apps/cached.json'), 1, 'within max-age=600, no second fetch');
  now += 601_000;
  try {
    t.is((await authorizationRequest(clientId, 'text/html')).status, 303);
    t.is(hits.get('/apps/cached.json'), 2, 'after max-age, fetched again');
  } finally {
    now = Date.now();
  }

  const together = `${origin}/gradual/together.json`;
  const answers = await Promise.all([1, 2, 3].map(() => authorizationRequest(together, 'text/html')));
  t.deepEqual(
    answers.map((answer) => answer.status),
    [303, 303, 303],
  );
  t.is(hits.get('/gradual/together.json'), 1);
});

// Serial: it moves the clock.
test.serial('connected apps list a published app by its name, and by its host while its document is down; it can be disconnected', async (t) => {
  const clientId = `${origin}/apps/connected.json`;
  const { browser } = await signInThrough(clientId);
  const cookie = browser.cookieHeader('/v1/apps');
  const listed = async () => (await jsonOf(await fetch(`${running.url}/v1/apps`, { headers: { cookie } }))) as Json[];
  t.like((await listed()).find((app) => app.client_id === clientId), { client_name: 'Agent connected', granted: ['payments.read'] });

  down.add('/apps/connected.json');
  now += 601_000;
  try {
    const shown = (await listed()).find((app) => app.client_id === clientId);
    t.like(shown, { client_name: new URL(origin).host }, 'listed by its host while the document cannot be read');
    const disconnected = await fetch(`${running.url}/v1/apps/${encodeURIComponent(clientId)}`, { method: 'DELETE', headers: await appsHeaders(running.url, cookie) });
    t.is(disconnected.status, 204);
    t.is((await listed()).find((app) => app.client_id === clientId), undefined);
  } finally {
    now = Date.now();
    down.delete('/apps/connected.json');
  }
});

test('a document without client_name: the app is called by its host', async (t) => {
  const query = new URLSearchParams({ response_type: 'code', client_id: `${origin}/unnamed/agent.json`, redirect_uri: REDIRECT, scope: 'payments.read' });
  query.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  query.set('code_challenge_method', 'S256');
  const page = (await new TestBrowser(new URL(running.config.authUrl).origin).open(`${running.url}/?${query}`)) as Page;
  t.is(page.status, 200);
  t.true(page.html.includes(`continue to <strong>${new URL(origin).host}</strong>`), page.html);
});

test('refused before any fetch: http outside the test allowance, and URLs that are not a document address', async (t) => {
  const otherPort = await freePort();
  const cases: [string, RegExp][] = [
    [`http://127.0.0.1:${otherPort}/apps/a.json`, /must use https/],
    ['http://agent.example/client.json', /must use https/],
    ['https://user:secret@agent.example/client.json', /user name or password/],
    ['https://agent.example/', /must have a path/],
    ['https://agent.example/client.json#top', /fragment/],
    ['https://agent.example/a/../client.json', /\. or \.\. path segments/],
  ];
  for (const [clientId, problem] of cases) {
    const { status, body } = await refusal(clientId);
    t.is(status, 400, clientId);
    t.is(body.error, 'invalid_client', clientId);
    t.regex(body.error_description, problem, clientId);
    t.regex(body.error_description, /client metadata document/, clientId);
  }
});

test('refused: hosts on loopback, private, link-local or other non-public addresses (nothing is fetched)', async (t) => {
  const port = new URL(origin).port;
  for (const clientId of [
    `https://127.0.0.1:${port}/apps/loopback.json`,
    `https://localhost:${port}/apps/loopback.json`,
    'https://10.1.2.3/client.json',
    'https://192.168.0.10/client.json',
    'https://169.254.169.254/latest/meta-data.json',
    'https://[::1]/client.json',
    'https://[fd00::1]/client.json',
    'https://[::ffff:7f00:1]/client.json',
  ]) {
    const { status, body } = await refusal(clientId);
    t.is(status, 400, clientId);
    t.is(body.error, 'invalid_client', clientId);
    t.regex(body.error_description, /must resolve to public internet addresses only/, clientId);
    if (clientId.includes('localhost')) t.false(/127\.0\.0\.1|::1/.test(body.error_description), 'the answer does not say where the name points');
  }
  t.is(hits.get('/apps/loopback.json'), undefined, 'no request reached the document server');
});

test('refused: documents too large, too slow, redirected, missing or not JSON', async (t) => {
  const cases: [string, RegExp][] = [
    ['/large.json', /larger than 5,120 bytes/],
    ['/large-chunked.json', /larger than 5,120 bytes/],
    ['/slow.json', /did not arrive within 2\.5 seconds/],
    ['/redirect.json', /redirect \(HTTP 302\).*not followed/],
    ['/missing.json', /HTTP 404/],
    ['/invalid.json', /not valid JSON/],
  ];
  for (const [path, problem] of cases) {
    const { status, body } = await refusal(`${origin}${path}`);
    t.is(status, 400, path);
    t.is(body.error, 'invalid_client', path);
    t.regex(body.error_description, problem, path);
  }
  t.is(hits.get('/apps/target.json'), undefined, 'the redirect was not followed');
});

test('refused: documents that name another client_id, a secret or a confidential method, a partner, or no usable redirect URI', async (t) => {
  const cases: [string, RegExp][] = [
    ['/mismatch.json', /client_id must be exactly the URL it is served from .*names another/],
    ['/confidential.json', /token_endpoint_auth_method must be "none"/],
    ['/secret.json', /must not hold a client_secret/],
    ['/partner.json', /partner_id is not allowed/],
    ['/no-redirects.json', /redirect_uris must list/],
    ['/http-redirect.json', /redirect_uris: http:\/\/agent\.example\/callback must use https/],
  ];
  for (const [path, problem] of cases) {
    const { status, body } = await refusal(`${origin}${path}`);
    t.is(status, 400, path);
    t.is(body.error, 'invalid_client', path);
    t.regex(body.error_description, problem, path);
  }
});

test('a browser is told on a page; a redirect_uri the document does not list is refused without redirecting', async (t) => {
  const page = await authorizationRequest(`${origin}/mismatch.json`, 'text/html');
  t.is(page.status, 400);
  const html = await page.text();
  t.regex(html, /client metadata document that cannot be used/);
  t.regex(html, /invalid_client/);

  const unlisted = await authorizationRequest(`${origin}/apps/listed.json`, 'application/json', 'http://127.0.0.1:53682/elsewhere');
  t.is(unlisted.status, 400);
  t.is(unlisted.headers.get('location'), null, 'nothing is sent to the unlisted URI');
  t.is((await jsonOf(unlisted)).error, 'invalid_redirect_uri');
});

test('the address rules: only globally reachable unicast is public', (t) => {
  for (const address of ['8.8.8.8', '1.1.1.1', '2a00:1450:4001:81b::200e', '2606:4700::1111']) t.true(isPublicAddress(address), address);
  for (const address of [
    '0.0.0.0',
    '10.0.0.1',
    '100.64.1.1',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.5.4',
    '172.31.255.255',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::a00:1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    '2002:a00:1::1',
    '2001::1',
    'not-an-address',
  ]) {
    t.false(isPublicAddress(address), address);
  }
});

test('the connection goes to the address that was checked, whatever DNS would answer for the name', async (t) => {
  // rebinding.invalid resolves nowhere: the body arrives only because the connection used the pinned address.
  const port = new URL(origin).port;
  const fetched = await downloadFrom(new URL(`http://rebinding.invalid:${port}/apps/pinned.json`), [{ address: '127.0.0.1', family: 4 }], Date.now() + 2000);
  t.is(JSON.parse(fetched.body.toString()).client_name, 'Agent pinned');
  t.is(fetched.cacheControl, 'public, max-age=600');
});

test('the URL rules and the cache bounds', (t) => {
  t.is(clientIdUrlProblem('https://agent.example/oauth/client.json', []), undefined);
  t.is(clientIdUrlProblem('https://agent.example/client?v=2', []), undefined);
  t.regex(clientIdUrlProblem('HTTPS://Agent.example/client.json', []) ?? '', /normal form/);
  t.regex(clientIdUrlProblem('https://agent.example/%2e%2e/client.json', []) ?? '', /path segments/);
  t.regex(clientIdUrlProblem('https://agent.example/a b.json', []) ?? '', /spaces/);
  t.regex(clientIdUrlProblem(`https://agent.example/${'a'.repeat(1000)}`, []) ?? '', /at most 1000/);
  t.is(clientIdUrlProblem('http://127.0.0.1:4000/client.json', ['http://127.0.0.1:4000']), undefined);

  t.is(cacheSeconds('public, max-age=600'), 600);
  t.is(cacheSeconds('max-age=600, s-maxage=900'), 900, 'a shared cache reads s-maxage');
  t.is(cacheSeconds(undefined), CLIENT_METADATA_CACHE.defaultSeconds);
  t.is(cacheSeconds('no-store'), CLIENT_METADATA_CACHE.minSeconds);
  t.is(cacheSeconds('max-age=5'), CLIENT_METADATA_CACHE.minSeconds);
  t.is(cacheSeconds('max-age=31536000'), CLIENT_METADATA_CACHE.maxSeconds);
});

test('CLIENT_METADATA_TEST_ORIGINS is honoured only with NODE_ENV=test, and takes only http://127.0.0.1:<port>', (t) => {
  t.deepEqual(loadConfig({ NODE_ENV: 'test', CLIENT_METADATA_TEST_ORIGINS: 'http://127.0.0.1:4000' }).clientMetadataTestOrigins, ['http://127.0.0.1:4000']);
  t.deepEqual(loadConfig({ NODE_ENV: 'development', CLIENT_METADATA_TEST_ORIGINS: 'http://127.0.0.1:4000' }).clientMetadataTestOrigins, []);
  t.deepEqual(loadConfig({ NODE_ENV: 'test' }).clientMetadataTestOrigins, []);
  t.throws(() => loadConfig({ NODE_ENV: 'test', CLIENT_METADATA_TEST_ORIGINS: 'http://10.0.0.1:80' }), { instanceOf: ConfigError, message: /http:\/\/127\.0\.0\.1:<port>/ });
});
