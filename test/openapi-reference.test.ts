/**
 * The API reference a partner learns from: /openapi.json is valid OpenAPI 3.1; every operation says what
 * it does and what can go wrong; every JSON body has an example that fits its schema; no meaningless
 * integer bounds; the operations other doors serve (OAuth, discovery, the tool endpoint) are there and
 * answer as they are documented. Then the quick-start landing page and the icon.
 */
import http from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import test from 'ava';
import { z } from 'zod';
import { PROVIDER_IDS } from '../core/flights/schemas.js';
import {
  AuthorizationServerMetadata,
  ClientRegistration,
  CODE_EXCHANGE_ANSWER,
  JsonWebKeySet,
  OAuthError,
  PUBLIC_REGISTRATION_EXAMPLE,
  REFRESH_ANSWER,
  TokenResponse,
} from '../core/oauth/schemas.js';
import { buildOpenApiDocument } from '../rest/openapi.js';
import { defineRoute } from '../rest/route-table.js';
import { landingPage } from '../rest/routes/landing-page.js';
import { demoCredentialsPath } from '../seeds/demo-partner.js';
import { TestBrowser } from './helpers/browser.js';
import { jsonOf, type Json } from './helpers/http.js';
import { createPartnerClient, PARTNER_REDIRECT, startAuthorization, travelerAuthorizes, clientFor, oauth, uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let doc: Json;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  doc = await jsonOf(await fetch(`${running.url}/openapi.json`));
});

test.after.always(async () => {
  await running?.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(): { label: string; operation: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })),
  );
}

/** Every media type of an operation whose content is JSON, requests and answers alike. */
function jsonBodies(): { label: string; media: Json }[] {
  return operations().flatMap(({ label, operation }) => {
    const request = Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => ({ label: `${label} request ${type}`, type, media }));
    const answers = Object.entries(operation.responses as Record<string, Json>).flatMap(([status, response]) =>
      Object.entries(response.content ?? {}).map(([type, media]) => ({ label: `${label} ${status} ${type}`, type, media })),
    );
    return [...request, ...answers].filter(({ type }) => /json/.test(type));
  });
}

function resolve(ref: string): Json {
  return ref.replace(/^#\//, '').split('/').reduce((node: Json, key) => node?.[key], doc);
}

function hasExample(media: Json): boolean {
  if (media.example !== undefined) return true;
  if (media.examples && Object.values(media.examples).some((example: Json) => (example.$ref ? resolve(example.$ref) : example)?.value !== undefined)) {
    return true;
  }
  const schema = media.schema.$ref ? resolve(media.schema.$ref) : media.schema;
  return (Array.isArray(schema?.examples) && schema.examples.length > 0) || schema?.example !== undefined;
}

test('the document is valid OpenAPI 3.1', async (t) => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  t.deepEqual(result.errors ?? [], []);
  t.true(result.valid);
  t.is(validator.version, '3.1');
});

test('every reference in the document resolves, schemas and examples alike', (t) => {
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1] as string);
  t.true(refs.some((ref) => ref.startsWith('#/components/examples/')));
  for (const ref of refs) t.truthy(resolve(ref), ref);
});

test('every operation has a description and its error answers', (t) => {
  const all = operations();
  t.true(all.length > 40);
  for (const { label, operation } of all) {
    t.true(typeof operation.description === 'string' && operation.description.length > 20, `${label} has no description`);
    const statuses = Object.keys(operation.responses).map(Number);
    t.true(statuses.some((status) => status >= 400), `${label} lists no error`);
    t.true(statuses.includes(500), `${label} lists no 500`);
  }
});

test('every JSON request and answer body has an example, errors included', (t) => {
  const bodies = jsonBodies();
  t.true(bodies.length > 300);
  const missing = bodies.filter(({ media }) => !hasExample(media)).map(({ label }) => label);
  t.deepEqual(missing, []);
  // Shared components carry theirs too, for whoever reads a schema on its own.
  const bare = Object.entries(doc.components.schemas as Record<string, Json>).filter(([, schema]) => !schema.examples?.length).map(([name]) => name);
  t.deepEqual(bare, []);
});

test('errors show the answer of their own status and route', (t) => {
  const capabilities = doc.paths['/v1/flights/providers/{provider}/capabilities'].get.responses;
  const notFound = resolve(capabilities['404'].content['application/json'].examples.provider_not_found.$ref).value;
  t.like(notFound, { status_code: 404, code: 'provider_not_found' });
  const limited = resolve(capabilities['429'].content['application/json'].examples.rate_limited.$ref).value;
  t.like(limited, { status_code: 429, code: 'rate_limited' });
  t.truthy(capabilities['429'].headers['Retry-After']);

  // A traveler route's 401 comes in two envelopes: the key's and the token's.
  const me = doc.paths['/v1/users/me'].get.responses['401'].content['application/json'];
  t.like(resolve(me.examples.api_key.$ref).value, { status_code: 401, code: 'invalid_api_key' });
  t.like(resolve(me.examples.token.$ref).value, { error: 'invalid_token', code: 'invalid_token' });
  const scope = resolve(doc.paths['/v1/users/{userid}/passengers'].post.responses['403'].content['application/json'].examples.insufficient_scope.$ref).value;
  t.like(scope, { error: 'insufficient_scope', scope: 'passengers.write' });
});

test('no safe-integer bound is left in the document', async (t) => {
  const text = await (await fetch(`${running.url}/openapi.json`)).text();
  t.false(text.includes('9007199254740991'));
  t.false(text.includes(String(Number.MIN_SAFE_INTEGER)));
  // Real bounds stay: a capability count is at least 0.
  t.is(doc.components.schemas.ProviderCapabilities.properties.max_passengers.minimum, 0);
});

test('{provider} is an enum of the five providers, and an unknown one is still our 404', async (t) => {
  const parameters = operations().flatMap(({ operation }) => (operation.parameters ?? []).filter((parameter: Json) => parameter.name === 'provider'));
  t.true(parameters.length >= 8);
  for (const parameter of parameters) t.deepEqual(parameter.schema.enum, [...PROVIDER_IDS]);

  const partner = await running.service.partners.createPartner({ name: 'Enum reader' });
  const response = await fetch(`${running.url}/v1/flights/providers/provider_x/offers/8d3f6b2a-91c4-4e7d-b5a8-0f2c6e9d1b47`, {
    headers: { 'x-api-key': partner.api_key },
  });
  t.is(response.status, 404);
  t.like(await jsonOf(response), { status_code: 404, code: 'provider_not_found' });
});

test('an example that does not fit its schema stops the document', (t) => {
  const Broken = z.object({ total_amount: z.string().regex(/^\d+\.\d{2}$/) }).meta({ id: 'Broken', examples: [{ total_amount: 512.46 }] });
  const route = defineRoute({
    method: 'GET',
    path: '/broken',
    operationId: 'getBroken',
    summary: 'Broken',
    tags: ['Test'],
    auth: 'none',
    responses: { 200: { description: 'Broken', schema: Broken } },
    handler: () => ({}),
  });
  t.throws(() => buildOpenApiDocument([route], { serverUrl: 'https://api.example.com', authUrl: 'https://api.example.com', version: '1.0.0' }), {
    message: /example of Broken does not fit/,
  });
});

test('the OAuth, discovery and tool endpoint operations are documented beside the routes', (t) => {
  const expected: [string, string][] = [
    ['post', '/v1/oauth/token'],
    ['post', '/v1/oauth/register'],
    ['post', '/v1/oauth/revoke'],
    ['get', '/.well-known/oauth-authorization-server'],
    ['get', '/.well-known/openid-configuration'],
    ['get', '/.well-known/oauth-protected-resource'],
    ['get', '/.well-known/oauth-protected-resource/v1/mcp'],
    ['get', '/.well-known/jwks.json'],
    ['post', '/v1/mcp'],
  ];
  for (const [method, path] of expected) t.truthy(doc.paths[path]?.[method], `${method} ${path}`);

  const token = doc.paths['/v1/oauth/token'].post;
  t.deepEqual(Object.keys(token.requestBody.content), ['application/x-www-form-urlencoded', 'application/json']);
  t.deepEqual(Object.keys(token.requestBody.content['application/x-www-form-urlencoded'].examples), ['authorization_code', 'refresh_token']);
  t.deepEqual(token.security, [{ OAuthClient: [] }, {}]);
  const mcp = doc.paths['/v1/mcp'].post;
  t.deepEqual(mcp.security, [{ ToolEndpointOAuth2: [] }]);
  t.regex(mcp.responses['401'].headers['WWW-Authenticate'].description, /resource_metadata/);
  for (const status of ['200', '401', '403', '429']) t.truthy(mcp.responses[status], status);
  for (const scheme of ['ApiKey', 'OAuth2', 'ToolEndpointOAuth2', 'OAuthClient']) t.truthy(doc.components.securitySchemes[scheme], scheme);
});

test('discovery and the key set answer as documented', async (t) => {
  const metadata = AuthorizationServerMetadata.parse(await jsonOf(await fetch(`${running.url}/.well-known/oauth-authorization-server`)));
  // Every endpoint the server announces is in the reference.
  for (const [url, method] of [
    [metadata.token_endpoint, 'post'],
    [metadata.registration_endpoint, 'post'],
    [metadata.revocation_endpoint, 'post'],
    [metadata.jwks_uri, 'get'],
  ] as const) {
    t.truthy(doc.paths[new URL(url).pathname]?.[method], url);
  }
  AuthorizationServerMetadata.parse(await jsonOf(await fetch(`${running.url}/.well-known/openid-configuration`)));
  const keys = await fetch(`${running.url}/.well-known/jwks.json`);
  t.regex(keys.headers.get('content-type') ?? '', /^application\/jwk-set\+json/);
  t.truthy(doc.paths['/.well-known/jwks.json'].get.responses['200'].content['application/jwk-set+json']);
  JsonWebKeySet.parse(await keys.json());
});

test('registration, the token endpoint and revocation answer as documented', async (t) => {
  const registered = await fetch(`${running.url}/v1/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(PUBLIC_REGISTRATION_EXAMPLE.request),
  });
  t.is(registered.status, 201);
  const client = ClientRegistration.parse(await registered.json());
  t.deepEqual(Object.keys(client).sort(), Object.keys(PUBLIC_REGISTRATION_EXAMPLE.answer).sort(), 'the example has the fields a registration answers');

  const partner = await createPartnerClient(running, 'Reference Air');
  const basic = `Basic ${Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString('base64')}`;
  const form = (body: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic }, body: new URLSearchParams(body) });
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const authorization = await startAuthorization(config, PARTNER_REDIRECT, 'profile.read passengers.read');
  const outcome = await travelerAuthorizes(running, new TestBrowser(new URL(running.config.authUrl).origin), authorization.url, { email: uniqueEmail('reference') });
  const code = outcome.redirectedTo?.searchParams.get('code') as string;
  const exchanged = await fetch(`${running.url}/v1/oauth/token`, form({ grant_type: 'authorization_code', code, code_verifier: authorization.verifier, redirect_uri: PARTNER_REDIRECT }));
  t.is(exchanged.status, 200);
  const tokens = TokenResponse.parse(await exchanged.json());
  t.deepEqual(Object.keys(tokens).sort(), Object.keys(CODE_EXCHANGE_ANSWER).sort());

  const refreshed = await fetch(`${running.url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
  });
  t.deepEqual(Object.keys(TokenResponse.parse(await refreshed.json())).sort(), Object.keys(REFRESH_ANSWER).sort());

  const documented400 = doc.paths['/v1/oauth/token'].post.responses['400'].content['application/json'].examples;
  const refused = await fetch(`${running.url}/v1/oauth/token`, form({ grant_type: 'authorization_code', code, code_verifier: authorization.verifier, redirect_uri: PARTNER_REDIRECT }));
  t.is(refused.status, 400);
  const error = OAuthError.parse(await refused.json());
  t.deepEqual(resolve(documented400[error.error].$ref).value, error, 'a used code answers as the example says');

  const revoked = await fetch(`${running.url}/v1/oauth/revoke`, form({ token: tokens.refresh_token as string, token_type_hint: 'refresh_token' }));
  t.is(revoked.status, 200);
  t.truthy(doc.paths['/v1/oauth/revoke'].post.responses['200']);
  const jwt = await fetch(`${running.url}/v1/oauth/revoke`, form({ token: tokens.access_token, token_type_hint: 'access_token' }));
  const jwtError = OAuthError.parse(await jwt.json());
  const documentedRevoke = doc.paths['/v1/oauth/revoke'].post.responses['400'].content['application/json'].examples;
  t.deepEqual(resolve(documentedRevoke[jwtError.error].$ref).value, jwtError);
});

test('the tool endpoint refuses as documented', async (t) => {
  const rpc = (headers: Record<string, string>) =>
    fetch(`${running.url}/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const documented = doc.paths['/v1/mcp'].post.responses;

  const unauthorized = await rpc({});
  t.is(unauthorized.status, 401);
  t.regex(unauthorized.headers.get('www-authenticate') ?? '', new RegExp(`resource_metadata="${running.config.baseUrl}/.well-known/oauth-protected-resource/v1/mcp"`));
  t.deepEqual(await unauthorized.json(), resolve(documented['401'].content['application/json'].examples.missing.$ref).value);

  const keyed = await rpc({ 'x-api-key': 'any key' });
  t.is(keyed.status, 429);
  const refusal = (await keyed.json()) as Record<string, unknown>;
  const documentedRefusal = resolve(documented['429'].content['application/json'].examples.api_key_not_allowed.$ref).value;
  t.is(refusal.request_id, keyed.headers.get('x-request-id'));
  t.deepEqual({ ...refusal, request_id: documentedRefusal.request_id }, documentedRefusal, 'as documented, but for its own request id');
});

test('the landing page is a quick start built from BASE_URL', async (t) => {
  const base = running.config.baseUrl;
  const response = await fetch(`${running.url}/`);
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /text\/html/);
  const html = await response.text();
  t.true(html.includes(demoCredentialsPath(running.config.dataDir)), 'where the demo key is kept');
  t.regex(html, /stderr/);
  t.regex(html, /curl -H "x-api-key: /);
  t.true(html.includes(`${base}/v1/flights/providers/provider_a/capabilities`));
  t.true(html.includes(`<code>${base}/v1/mcp</code>`), 'the tool endpoint to paste into an MCP client');
  t.true(html.includes(`claude mcp add --transport http travel-partner ${base}/v1/mcp`));
  t.true(html.includes(`${base}/sandbox/mail/messages?to=`), 'the mail sandbox');
  t.true(html.includes(`href="${base}/docs"`));
  t.true(html.includes(`href="${base}/openapi.json"`));
  t.true(html.includes('<link rel="icon" href="/favicon.ico"'));

  // Nothing on it comes from the Host header, which any caller sets.
  const spoofed = await new Promise<string>((done, fail) => {
    const request = http.get(`${running.url}/`, { headers: { host: 'attacker.example' } }, (answer) => {
      let text = '';
      answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
      answer.on('end', () => done(text));
    });
    request.on('error', fail);
  });
  t.false(spoofed.includes('attacker.example'));
  t.true(spoofed.includes(`${base}/v1/mcp`));
});

test('the landing page keeps to its content security policy: our stylesheet, no script', async (t) => {
  const response = await fetch(`${running.url}/`);
  const policy = response.headers.get('content-security-policy') ?? '';
  t.regex(policy, /style-src 'self'/);
  const html = await response.text();
  t.notRegex(html, /<script|<style|\sstyle=|\son[a-z]+=/i);
  const stylesheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1] as string);
  t.deepEqual(stylesheets, ['/assets/pages.css']);
  const css = await fetch(`${running.url}${stylesheets[0]}`);
  t.is(css.status, 200);
  t.regex(css.headers.get('content-type') ?? '', /text\/css/);
  t.regex(await css.text(), /\.quickstart/);
});

test('without the sandbox the landing page names neither a demo key nor the mail sandbox', (t) => {
  const html = landingPage({ baseUrl: 'https://api.example.com', stylesheetPath: '/assets/pages.css', sandbox: false });
  t.notRegex(html, /demo-credentials|sandbox/);
  t.regex(html, /curl -H "x-api-key: \$API_KEY"/);
  t.true(html.includes('<code>https://api.example.com/v1/mcp</code>'));
});

test('the landing page escapes what it shows', (t) => {
  const html = landingPage({ baseUrl: 'https://api.example.com/<b>', stylesheetPath: '/assets/pages.css', sandbox: true, demoCredentialsFile: '/srv/"x"/demo-credentials.json' });
  t.false(html.includes('<b>'));
  t.true(html.includes('/srv/&#34;x&#34;/demo-credentials.json'));
});

test('/favicon.ico is an image, and the pages link it', async (t) => {
  const icon = await fetch(`${running.url}/favicon.ico`);
  t.is(icon.status, 200);
  t.regex(icon.headers.get('content-type') ?? '', /^image\//);
  t.regex(await icon.text(), /^<svg /);
  t.regex(await (await fetch(`${running.url}/docs`)).text(), /<link rel="icon" href="\/favicon.ico"/);
});
