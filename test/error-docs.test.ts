/**
 * The published errors page and the links into it, on the whole service: /docs/errors has one section
 * per catalog code (its anchor, status, advice and help), safe HTML under the pages' security headers;
 * REST errors of several kinds, from each part of the REST door, carry the answer's request id and a
 * doc_url whose anchor is on that page.
 */
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { ERROR_CATALOG, statusesOf } from '../core/error-catalog.js';
import { appsHeaders } from './helpers/apps-api.js';
import { jsonOf, type Json } from './helpers/http.js';
import { TestBrowser } from './helpers/browser.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let page: string;
let pageHeaders: Headers;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  const response = await fetch(`${running.url}/docs/errors`);
  pageHeaders = response.headers;
  page = await response.text();
  if (response.status !== 200) throw new Error(`/docs/errors answered ${response.status}`);
});

test.after.always(async () => {
  await running?.close();
});

/** The ids of the page's elements, each as often as it occurs. */
function ids(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((match) => match[1] as string);
}

/** The section of one code: from its opening tag to the next section's. */
function sectionOf(code: string): string {
  const start = page.indexOf(`<section id="${code}"`);
  return start === -1 ? '' : page.slice(start, page.indexOf('</section>', start));
}

test('the page is HTML under the pages’ security headers, with no script', async (t) => {
  t.regex(pageHeaders.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  const csp = pageHeaders.get('content-security-policy') ?? '';
  t.regex(csp, /default-src 'self'/);
  t.regex(csp, /script-src 'self'/);
  t.is(pageHeaders.get('x-content-type-options'), 'nosniff');
  t.regex(pageHeaders.get('x-frame-options') ?? '', /SAMEORIGIN|DENY/);
  t.false(/<script/i.test(page));
  t.false(/\son[a-z]+=/i.test(page), 'no inline event handlers');
  t.regex(page, /<link rel="stylesheet" href="\/assets\/pages.css">/);
  const stylesheet = await fetch(`${running.url}/assets/pages.css`);
  t.is(stylesheet.status, 200);
});

test('every catalog code has its own section, once, with its status, advice and help', (t) => {
  const all = ids(page);
  t.deepEqual(
    all.filter((id, index) => all.indexOf(id) !== index),
    [],
    'ids are unique',
  );
  for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
    const section = sectionOf(code);
    t.true(section.length > 0, `${code} has a section`);
    t.true(section.includes(`<code>${code}</code>`), code);
    t.true(section.includes(`HTTP ${statusesOf(entry).join(' or ')}`), `${code}: status`);
    t.true(section.includes(`Retryable: ${entry.retryable ? 'yes' : 'no'}`), `${code}: retryable`);
    t.true(section.includes(`Needs the traveler: ${entry.needsUser ? 'yes' : 'no'}`), `${code}: needs the traveler`);
    // The help's first words, as the page escapes them.
    const opening = entry.help.split('`')[0]!.slice(0, 30).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
    t.true(section.includes(opening), `${code}: help`);
  }
  // The contents link every section.
  for (const code of Object.keys(ERROR_CATALOG)) t.true(page.includes(`href="#${code}"`), code);
});

test('the page names the configured URLs, not placeholders, and explains the fields', (t) => {
  t.false(page.includes('BASE_URL'));
  t.false(page.includes('AUTH_URL'));
  t.true(sectionOf('spending_limit_exceeded').includes(`${running.config.authUrl}/account/apps`));
  t.true(page.includes(`${running.config.baseUrl}/docs/errors#&lt;code&gt;`));
  for (const field of ['request_id', 'doc_url', 'retryable', 'needs_user']) t.true(page.includes(`<code>${field}</code>`), field);
});

/** The error's request id is the answer's, and its doc_url's anchor is a section of the page. */
async function linked(t: ExecutionContext, response: Response, code: string): Promise<Json> {
  const body = await jsonOf(response);
  t.is(body.code, code);
  t.is(body.request_id, response.headers.get('x-request-id'), `${code}: request_id`);
  t.is(body.doc_url, `${running.config.baseUrl}/docs/errors#${code}`, `${code}: doc_url`);
  const anchor = new URL(body.doc_url).hash.slice(1);
  t.true(ids(page).includes(anchor), `${code}: its anchor is on the page`);
  t.true(statusesOf(ERROR_CATALOG[code]!).includes(response.status), `${code}: the page gives its status`);
  return body;
}

test('REST errors of each kind link their section of the page', async (t) => {
  const call = (path: string, headers: Record<string, string> = {}) => fetch(`${running.url}${path}`, { headers });
  await linked(t, await call('/v1/no/such/route'), 'route_not_found');
  await linked(t, await call('/v1/flights/providers/provider_a/capabilities'), 'api_key_missing');
  await linked(t, await call('/v1/flights/providers/provider_a/capabilities', { 'x-api-key': 'not-a-key' }), 'invalid_api_key');

  const partner = await createPartnerClient(running, 'Doc link reader');
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', browser, traveler: { email: uniqueEmail() } });
  const key = { 'x-api-key': partner.apiKey };
  await linked(t, await call('/v1/flights/providers/provider_x/offers/8d3f6b2a-91c4-4e7d-b5a8-0f2c6e9d1b47', key), 'provider_not_found');
  const bearer = { ...key, authorization: `Bearer ${tokens.access_token}` };
  const invalid = await linked(t, await call('/v1/users/not-a-traveler', bearer), 'validation_error');
  t.truthy(invalid.fields.userid);
  const scope = await linked(t, await call('/v1/users/me/passengers', bearer), 'insufficient_scope');
  t.like(scope, { error: 'insufficient_scope', scope: 'passengers.read' });
  await linked(t, await call('/v1/users/me', { ...key, authorization: 'Bearer not.a.token' }), 'invalid_token');

  // The hosted pages' JSON API: an error it throws, and one its body reader writes itself.
  await linked(t, await call('/v1/apps'), 'session_required');
  const unreadable = await fetch(`${running.url}/v1/apps/${partner.clientId}/scopes`, {
    method: 'PUT',
    headers: { ...(await appsHeaders(running.url, browser.cookieHeader('/v1/apps'))), 'content-type': 'application/json' },
    body: '{"scopes": [',
  });
  t.like(await linked(t, unreadable, 'invalid_json'), { status_code: 400 });
});

test('a 429 links its section too', async (t) => {
  await running.service.partners.setPlan({ id: 'doc-links', requests_per_second: 1, burst: 1, requests_per_day: 1000 });
  const partner = await running.service.partners.createPartner({ name: 'Fast reader', plan_id: 'doc-links' });
  const call = () => fetch(`${running.url}/v1/flights/providers/provider_a/capabilities`, { headers: { 'x-api-key': partner.api_key } });
  // At once, so that both fall in one second's window on a slow machine too.
  const responses = await Promise.all([call(), call()]);
  t.deepEqual(responses.map((response) => response.status).sort(), [200, 429]);
  await linked(t, responses.find((response) => response.status === 429)!, 'rate_limited');
});

test('the OpenAPI document gives every error envelope request_id and doc_url, and its examples link the page', async (t) => {
  const doc = await jsonOf(await fetch(`${running.url}/openapi.json`));
  for (const name of ['ErrorResponse', 'ValidationErrorResponse', 'OAuthErrorResponse']) {
    const schema = doc.components.schemas[name];
    t.like(schema.properties, { request_id: { type: 'string' }, doc_url: { type: 'string', format: 'uri' } }, name);
    t.true(schema.required.includes('request_id') && schema.required.includes('doc_url'), name);
  }
  t.regex(doc.info.description, /request_id[\s\S]*doc_url/);

  const example = (ref: string) => ref.replace(/^#\//, '').split('/').reduce((node: Json, key) => node?.[key], doc).value;
  const capabilities = doc.paths['/v1/flights/providers/{provider}/capabilities'].get.responses;
  t.like(example(capabilities['404'].content['application/json'].examples.provider_not_found.$ref), {
    code: 'provider_not_found',
    doc_url: `${running.config.baseUrl}/docs/errors#provider_not_found`,
  });
  // Every example that links the page links a section that is there.
  const links = Object.values(doc.components.examples as Record<string, { value: Json }>)
    .map(({ value }) => value?.doc_url)
    .filter((url): url is string => typeof url === 'string');
  t.true(links.length > 30);
  for (const url of links) t.true(ids(page).includes(new URL(url).hash.slice(1)), url);
});
