/**
 * The agent tool endpoint, /v1/mcp, over real HTTP, as agents that know only the endpoint's URL meet it:
 *
 * - a 2025-11-25 client (the v1 SDK's Client, `initialize`) with an OAuthClientProvider gets the 401,
 *   reads the metadata, registers itself, runs PKCE through the hosted pages (the code from the mail
 *   sandbox), consents, lists the tools and calls each one against the sandboxes;
 * - a 2026-07-28 client (the SDK v2's Client pinned to that revision: `server/discover`, per-request
 *   `_meta`) does the same, is granted less than it asked, and steps up when a tool needs more;
 *
 * then the endpoint's refusals, one by one.
 */
import http from 'node:http';
import test from 'ava';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError as ModernUnauthorizedError,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { AgentAuth } from './helpers/agent-auth.js';
import { TestBrowser } from './helpers/browser.js';
import { jsonOf, type Json } from './helpers/http.js';
import { rawRequest } from './helpers/raw-http.js';
import { authorize, clientFor, oauth, partnerWithTraveler, PARTNER_REDIRECT, registerPublicClient, travelerAuthorizes, uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
const endpoint = () => `${running.url}/v1/mcp`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const TOOL_NAMES = [
  'search_flights',
  'create_offer',
  'get_offer_details',
  'get_bags',
  'get_seat_map',
  'update_passenger',
  'list_payment_methods',
  'update_payment_method',
  'create_booking',
  'get_booking',
];

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

async function connect(auth: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint()), { authProvider: auth }));
  return client;
}

/** A tool's structured answer, or its error. */
async function call(client: Client | ModernClient, name: string, args: Record<string, unknown>): Promise<{ ok: Json; error: Json }> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) return { ok: undefined, error: JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}').error };
  return { ok: result.structuredContent, error: undefined };
}

test('a 2025-11-25 client that knows only the URL authorizes itself, lists the tools and calls each one', async (t) => {
  const auth = new AgentAuth();
  // 1. Unauthorized: the SDK reads the challenge and the metadata, registers, and sends the traveler to sign in.
  const first = await t.throwsAsync(connect(auth), { instanceOf: UnauthorizedError });
  t.truthy(first);
  const authorizationUrl = auth.authorizationUrl as URL;
  t.is(authorizationUrl.searchParams.get('resource'), endpoint(), 'the token is asked for this endpoint');
  t.is(authorizationUrl.searchParams.get('scope'), 'bookings.write payments.read payments.write bookings.read', 'the scopes the challenge named');
  t.is(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
  const registered = await running.service.db.knex('oidc_models').where({ kind: 'Client', id: authorizationUrl.searchParams.get('client_id') }).first();
  t.truthy(registered, 'the agent registered itself dynamically');

  // 2. The traveler signs in with a mailed code and consents; the agent exchanges the code.
  const outcome = await travelerAuthorizes(running, new TestBrowser(new URL(running.config.authUrl).origin), authorizationUrl, { email: uniqueEmail('agent') });
  t.deepEqual(outcome.offered, ['bookings.write', 'payments.read', 'payments.write', 'bookings.read']);
  const code = outcome.redirectedTo?.searchParams.get('code') as string;
  const transport = new StreamableHTTPClientTransport(new URL(endpoint()), { authProvider: auth });
  await transport.finishAuth(code);
  const client = await connect(auth);

  // 3. The tools, each declared with its schemas and hints.
  const { tools } = await client.listTools();
  t.deepEqual(tools.map((tool) => tool.name), TOOL_NAMES);
  for (const tool of tools) {
    t.is(tool.inputSchema.type, 'object');
    t.is(tool.outputSchema?.type, 'object');
    t.regex(tool.description ?? '', /Needs the (bookings\.read|bookings\.write|payments\.read|payments\.write) scope/, 'each tool names the scope it needs');
  }
  t.like(tools.find((tool) => tool.name === 'get_offer_details')?.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  t.like(tools.find((tool) => tool.name === 'create_offer')?.annotations, { readOnlyHint: false, openWorldHint: true });

  // 4. Each tool, with real results from provider_d's sandbox.
  const search = await call(client, 'search_flights', { origin: 'LHR', destination: 'JFK', departure_date: inDays(30), currency: 'GBP' });
  t.is(search.ok.offers.length, 3);
  t.is(search.ok.offers[2].total_amount, '512.46');
  const created = await call(client, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[2].id });
  t.false(created.ok.price_changed);
  const offerId = created.ok.offer_id;
  const details = await call(client, 'get_offer_details', { provider_id: 'provider_d', offer_id: offerId });
  t.like(details.ok, { id: offerId, provider_id: 'provider_d', total_amount: '512.46', total_currency: 'GBP' });
  const bags = await call(client, 'get_bags', { provider_id: 'provider_d', offer_id: offerId });
  t.deepEqual(bags.ok.included, { carry_on_bags: 1, checked_bags: 0 });
  t.deepEqual(bags.ok.bags_for_sale.map((bag: Json) => [bag.id, bag.total_amount]), [
    ['hold_bag:0', '44.98'],
    ['hold_bag:0-0', '134.95'],
  ]);
  const seats = await call(client, 'get_seat_map', { provider_id: 'provider_d', offer_id: offerId });
  t.like(seats.error, { code: 'seat_selection_not_supported', retryable: false, needs_user: false }, 'provider_d sells no seats: the capability check says so');
  t.is(seats.error.doc_url, `${running.config.baseUrl}/docs/errors#seat_selection_not_supported`);
  t.regex(seats.error.request_id, /^[0-9a-f-]{36}$/);
  t.regex(seats.error.message, /book without seat selection/);
  const passenger = await call(client, 'update_passenger', { provider_id: 'provider_d', offer_id: offerId, passenger_id: '0', first_name: 'Ada' });
  t.is(passenger.error.code, 'passenger_update_not_supported');

  const row = await running.service.db.knex('offers').where({ id: offerId }).first();
  t.is(row.partner_id, null, 'a self-registered agent has no partner: the offer is the traveler’s');
  t.truthy(row.user_id);
  await client.close();
});

/** A 2026-07-28 client (the SDK v2's, pinned to that revision) with `auth`. */
async function modernConnect(auth: AgentAuth): Promise<ModernClient> {
  const client = new ModernClient({ name: 'modern-agent', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(endpoint()), { authProvider: auth }));
  return client;
}

/** The traveler decides on the page the agent sent them to; the agent redeems the code. */
async function modernConsent(auth: AgentAuth, browser: TestBrowser, email: string) {
  const outcome = await travelerAuthorizes(running, browser, auth.authorizationUrl as URL, { email });
  await new ModernTransport(new URL(endpoint()), { authProvider: auth }).finishAuth((outcome.redirectedTo as URL).searchParams);
  return outcome;
}

test('a 2026-07-28 client that knows only the URL discovers, authorizes and calls the tools; errors carry what to do', async (t) => {
  const auth = new AgentAuth();
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  // 1. The server/discover probe meets the 401; the SDK reads the metadata, registers, and sends the traveler to sign in.
  await t.throwsAsync(modernConnect(auth), { instanceOf: ModernUnauthorizedError });
  t.is(auth.authorizationUrl?.searchParams.get('resource'), endpoint());
  t.is(auth.authorizationUrl?.searchParams.get('scope'), 'bookings.write payments.read payments.write bookings.read');
  await modernConsent(auth, browser, uniqueEmail('modern'));
  const client = await modernConnect(auth);
  t.is(client.getProtocolEra(), 'modern');
  t.like(client.getServerVersion(), { name: 'travel-partner', version: '1.0.0' });
  t.regex(client.getInstructions() ?? '', /confirms the purchase on our page/);

  // 2. The tools, as a 2025-11-25 client sees them.
  const { tools } = await client.listTools();
  t.deepEqual(tools.map((tool) => tool.name), TOOL_NAMES);
  t.like(tools.find((tool) => tool.name === 'get_offer_details')?.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  for (const tool of tools) t.true(tool.inputSchema.type === 'object' && tool.outputSchema?.type === 'object', tool.name);

  // 3. Calls, against provider_d's sandbox.
  const search = await call(client, 'search_flights', { origin: 'LHR', destination: 'CDG', departure_date: inDays(21), currency: 'EUR' });
  t.is(search.ok.offers.length, 2);
  const created = await call(client, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[0].id });
  const details = await call(client, 'get_offer_details', { provider_id: 'provider_d', offer_id: created.ok.offer_id });
  t.like(details.ok, { id: created.ok.offer_id, total_currency: 'EUR', total_amount: search.ok.offers[0].total_amount });
  // The search never says what the offer contradicts: documents are unknown until the flights are checked.
  t.is(search.ok.offers[0].passenger_identity_documents_required, null);
  t.is(created.ok.offer.passenger_identity_documents_required, true);
  // A result whose booking token the provider never issued: the offer is gone, not the provider down.
  const row = await running.service.db.knex('flight_searches').where({ id: search.ok.search_id }).first();
  row.results[1].native.data[0].booking_token = Buffer.from('a token provider_d never issued').toString('base64url');
  await running.service.db.knex('flight_searches').where({ id: search.ok.search_id }).update({ results: JSON.stringify(row.results) });
  const unknown = await call(client, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[1].id });
  t.like(unknown.error, { code: 'offer_expired', retryable: false, needs_user: false });

  // 4. Errors an agent can act on, the same on both revisions.
  const missing = await call(client, 'get_offer_details', { provider_id: 'provider_d', offer_id: '6f1c1f7e-8b1a-4c5e-9a55-0c3c1d2e3f40' });
  t.like(missing.error, { code: 'offer_not_found', retryable: false, needs_user: false, doc_url: `${running.config.baseUrl}/docs/errors#offer_not_found` });
  t.regex(missing.error.request_id, /^[0-9a-f-]{36}$/);
  const invalid = await call(client, 'search_flights', { origin: 'LHR', destination: 'JFK', departure_date: '2020-01-01' });
  t.like(invalid.error, { code: 'validation_error', retryable: false, needs_user: false, doc_url: `${running.config.baseUrl}/docs/errors#validation_error` });
  t.regex(invalid.error.fields.departure_date.message, /in the past/);
  await client.close();
});

test('a 2026-07-28 client whose token lacks a tool’s scope steps up: 403 insufficient_scope, the traveler grants it, the call goes through', async (t) => {
  // An agent the traveler allowed to read bookings only.
  const auth = new AgentAuth();
  const email = uniqueEmail('step-up');
  const config = await registerPublicClient(running, auth.redirectUrl);
  const { tokens, browser } = await authorize(running, config, { redirectUri: auth.redirectUrl, scope: 'bookings.read', traveler: { email }, extra: { resource: endpoint() } });
  // Stamped with their issuer, as the v2 SDK stores what it obtained itself (SEP-2352).
  const issuer = running.config.authUrl;
  auth.saveClientInformation({ client_id: config.clientMetadata().client_id, redirect_uris: [auth.redirectUrl], issuer } as OAuthClientInformationMixed);
  auth.saveTokens({ access_token: tokens.access_token, token_type: 'Bearer', refresh_token: tokens.refresh_token, scope: tokens.scope, issuer } as OAuthTokens);
  const client = await modernConnect(auth);

  const search = () => client.callTool({ name: 'search_flights', arguments: { origin: 'LHR', destination: 'CDG', departure_date: inDays(25) } });
  await t.throwsAsync(search(), { instanceOf: ModernUnauthorizedError });
  t.regex(auth.authorizationUrl?.searchParams.get('scope') ?? '', /\bbookings\.write\b/, 'the SDK asks for the scope the challenge named');
  const outcome = await modernConsent(auth, browser, email);
  t.true(outcome.offered?.includes('bookings.write'));
  const result = await search();
  t.falsy(result.isError);
  t.is((result.structuredContent as Json).offers.length, 2);
  await client.close();
});

/** A token for the tool endpoint, from a partner's client or a self-registered one, with `scope`. */
async function toolToken(scope: string, options: { partner?: boolean; resource?: string } = {}): Promise<{ token: string; apiKey?: string }> {
  const resource = options.resource ?? endpoint();
  if (options.partner) {
    const partner = await partnerWithTraveler(running, 'Tool Air', 'bookings.write');
    const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
    const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope, traveler: { email: uniqueEmail() }, extra: { resource } });
    return { token: tokens.access_token, apiKey: partner.apiKey };
  }
  const config = await registerPublicClient(running);
  const { tokens } = await authorize(running, config, { redirectUri: 'http://localhost:53682/callback', scope, traveler: { email: uniqueEmail() }, extra: { resource } });
  return { token: tokens.access_token };
}

/** tools/list sent with another Host header (fetch will not set one). */
function statusWithHost(host: string, token: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  return new Promise((resolve, reject) => {
    const request = http.request(endpoint(), {
      method: 'POST',
      headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** One JSON-RPC message to the endpoint, as a client sends it. */
function rpc(message: Json, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoint(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
}
const toolCall = (name: string, args: Json) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

test('without a token: 401 with the challenge that leads to the metadata, which names the endpoint exactly', async (t) => {
  const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  t.is(response.status, 401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  t.regex(challenge, /^Bearer /);
  t.true(challenge.includes(`resource_metadata="${running.url}/.well-known/oauth-protected-resource/v1/mcp"`));
  t.true(challenge.includes('scope="bookings.write payments.read payments.write bookings.read"'));
  const metadata = await jsonOf(await fetch(`${running.url}/.well-known/oauth-protected-resource/v1/mcp`));
  t.is(metadata.resource, endpoint());
  t.deepEqual(metadata.authorization_servers, [running.config.authUrl]);
  t.true(metadata.scopes_supported.includes('bookings.write'));

  const bad = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: 'Bearer not.a.token' });
  t.is(bad.status, 401);
  t.regex(bad.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
});

test('a token without bookings.write: 403 insufficient_scope on a write tool, naming the scope to step up to', async (t) => {
  const { token } = await toolToken('profile.read');
  const listed = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${token}` });
  t.is(listed.status, 200, 'listing the tools needs no scope: the agent learns what to ask for');
  const refused = await rpc(toolCall('create_offer', { search_id: '6f1c1f7e-8b1a-4c5e-9a55-0c3c1d2e3f40', result_id: 'x' }), { authorization: `Bearer ${token}` });
  t.is(refused.status, 403);
  const challenge = refused.headers.get('www-authenticate') ?? '';
  t.regex(challenge, /error="insufficient_scope"/);
  t.regex(challenge, /scope="bookings\.write"/);
  t.regex(challenge, /resource_metadata="/);
  t.like(await jsonOf(refused), { error: 'insufficient_scope', scope: 'bookings.write' });
});

test('a token for another audience is refused: the REST API’s token does not open the tool endpoint, nor the reverse', async (t) => {
  const { token: apiToken, apiKey } = await toolToken('bookings.write', { partner: true, resource: running.config.baseUrl });
  const refused = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${apiToken}` });
  t.is(refused.status, 401);
  t.regex(refused.headers.get('www-authenticate') ?? '', /error="invalid_token"/);

  const { token: tool } = await toolToken('bookings.write', { partner: true });
  const rest = await fetch(`${running.url}/v1/flights/providers`, { headers: { 'x-api-key': apiKey as string, authorization: `Bearer ${tool}` } });
  t.is(rest.status, 401);
});

test('x-api-key on the tool endpoint is 429 at once; a foreign Origin or Host is 403; only POST', async (t) => {
  const { token } = await toolToken('bookings.write');
  const keyed = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${token}`, 'x-api-key': 'anything' });
  t.is(keyed.status, 429);
  const refusal = await jsonOf(keyed);
  t.is(refusal.code, 'api_key_not_allowed');
  t.regex(refusal.message, /never takes an API key/);
  t.is(keyed.headers.get('retry-after'), '86400', 'keyed traffic is throttled to zero: an honest wait');
  t.is(refusal.request_id, keyed.headers.get('x-request-id'), 'a refusal names its request');
  // Any x-api-key header is keyed traffic, an empty one too (ctx.get gives '' for both).
  const empty = await rawRequest(endpoint(), {
    method: 'POST',
    headers: { 'x-api-key': '', authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.is(empty.status, 429);
  t.is(JSON.parse(empty.body).code, 'api_key_not_allowed');
  t.is(empty.headers['retry-after'], '86400');
  const foreign = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${token}`, origin: 'https://evil.example' });
  t.is(foreign.status, 403);
  t.like(await jsonOf(foreign), { code: 'origin_not_allowed', request_id: foreign.headers.get('x-request-id') });
  t.is(await statusWithHost('evil.example', token), 403, 'a name rebound to our address is not our host');
  t.is(await statusWithHost(new URL(running.url).host, token), 200);
  const get = await fetch(endpoint(), { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
  t.is(get.status, 405);
  t.is(get.headers.get('allow'), 'POST');
  t.like(await jsonOf(get), { code: 'method_not_allowed', request_id: get.headers.get('x-request-id') });
});

test('a partner’s agent reaches the partner’s offers: seat maps of a provider_b offer made over REST; bad input names its fields', async (t) => {
  const partner = await partnerWithTraveler(running, 'Seat Tool Air', 'bookings.write');
  const native = await jsonOf(
    await fetch(`${running.config.sandboxUrl}/flights/provider_b/air/offers/off_0000AuPyAJY1KPrmYbBxIm`, { headers: { authorization: 'Bearer duffel_test_x', 'duffel-version': 'v2' } }),
  );
  const created = await jsonOf(
    await fetch(`${running.url}/v1/flights/providers/provider_b/offers`, {
      method: 'POST',
      headers: { 'x-api-key': partner.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(native.data),
    }),
  );
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'bookings.write', traveler: { email: uniqueEmail() }, extra: { resource: endpoint() } });
  const client = new Client({ name: 'partner-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint()), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));

  const seats = await call(client, 'get_seat_map', { provider_id: 'provider_b', offer_id: created.offer_id });
  t.is(seats.ok.seat_maps[0].offer_id, created.offer_id);
  t.like(seats.ok.seat_maps[0].seat_map['42K'], { is_blocked: true });
  const bags = await call(client, 'get_bags', { provider_id: 'provider_b', offer_id: created.offer_id });
  t.true(bags.ok.bags_for_sale.length > 0);
  const renamed = await call(client, 'update_passenger', { provider_id: 'provider_b', offer_id: created.offer_id, passenger_id: native.data.passengers[0].id, first_name: 'Ada', last_name: 'Lovelace' });
  t.like(renamed.ok, { given_name: 'Ada', family_name: 'Lovelace' });

  const invalid = await call(client, 'search_flights', { origin: 'LHR', destination: 'JFK', departure_date: inDays(10), cabin: 'economy' });
  t.is(invalid.error.code, 'validation_error');
  t.is(invalid.error.fields.cabin.rule, 'unknown_field');
  const past = await call(client, 'search_flights', { origin: 'LHR', destination: 'JFK', departure_date: '2020-01-01' });
  t.regex(past.error.fields.departure_date.message, /in the past/);
  const unknown = await call(client, 'get_offer_details', { provider_id: 'provider_b', offer_id: '6f1c1f7e-8b1a-4c5e-9a55-0c3c1d2e3f40' });
  t.is(unknown.error.code, 'offer_not_found');

  // The offer is this traveler's now (their agent used it first): another traveler's agent does not reach it.
  const { token: stranger } = await toolToken('bookings.write');
  const foreign = await jsonOf(await rpc(toolCall('get_offer_details', { provider_id: 'provider_b', offer_id: created.offer_id }), { authorization: `Bearer ${stranger}` }));
  t.true(foreign.result.isError);
  t.regex(foreign.result.content[0].text, /offer_not_found/);
  await client.close();
});

test('a legacy token (a partner’s client asking no scope) carries no scope at the tool endpoint: 403 on a tool call', async (t) => {
  const partner = await partnerWithTraveler(running, 'Legacy Tool Air', 'bookings.write');
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, traveler: { email: uniqueEmail() }, extra: { resource: endpoint() } });
  const refused = await rpc(toolCall('search_flights', { origin: 'LHR', destination: 'JFK', departure_date: inDays(30) }), { authorization: `Bearer ${tokens.access_token}` });
  t.is(refused.status, 403);
  t.like(await jsonOf(refused), { error: 'insufficient_scope', scope: 'bookings.write' });
});

test('one message per request: a batch, a malformed tools/call and a body that is no message are 400; a notification is 202', async (t) => {
  const { token } = await toolToken('bookings.write');
  const auth = { authorization: `Bearer ${token}` };
  const batch = await rpc([toolCall('get_offer_details', {}), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }], auth);
  t.is(batch.status, 400);
  t.like(await jsonOf(batch), { error: { code: -32600, data: { request_id: batch.headers.get('x-request-id') } } });
  const unknown = await rpc({ jsonrpc: '2.0', id: 2, method: 'resources/list' }, auth);
  t.like(await jsonOf(unknown), { id: 2, error: { code: -32601, data: { request_id: unknown.headers.get('x-request-id') } } }, 'the SDK’s errors name the request too');
  for (const params of [undefined, { name: 5 }, { name: 'get_offer_details', arguments: null }, { name: 'get_offer_details', arguments: [] }]) {
    const malformed = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }, auth);
    t.is(malformed.status, 400);
    t.regex((await jsonOf(malformed)).error.message, /params\.name/);
  }
  t.is((await rpc(null, auth)).status, 400);
  const noMethod = await rpc({ jsonrpc: '2.0', id: 3 }, auth);
  t.is(noMethod.status, 400);
  t.like(await jsonOf(noMethod), { error: { code: -32600, message: 'Bad Request: the request body is not a valid JSON-RPC message', data: { request_id: noMethod.headers.get('x-request-id') } } });
  const jsonOnly = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/list' }, { ...auth, accept: 'application/json' });
  t.is(jsonOnly.status, 406, 'a 2025-11-25 client must accept both JSON and an event stream');
  const oldRevision = await rpc({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, { ...auth, 'mcp-protocol-version': '2023-01-01' });
  t.is(oldRevision.status, 400);
  t.regex((await jsonOf(oldRevision)).error.message, /Unsupported protocol version: 2023-01-01 \(supported versions: 2025-11-25, /);
  const notification = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, auth);
  t.is(notification.status, 202);
  t.is(await notification.text(), '');
});

test('a traveler’s agent never reaches another traveler’s offers or searches, even of the same partner; the partner does over REST', async (t) => {
  const partner = await partnerWithTraveler(running, 'Shared Tool Air', 'bookings.write');
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const agentOf = async () => {
    const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'bookings.write', traveler: { email: uniqueEmail() }, extra: { resource: endpoint() } });
    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint()), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
    return client;
  };
  const [ada, bob] = [await agentOf(), await agentOf()];
  const search = await call(ada, 'search_flights', { origin: 'LHR', destination: 'CDG', departure_date: inDays(12), currency: 'EUR' });
  const created = await call(ada, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[0].id });
  const offer = { provider_id: 'provider_d', offer_id: created.ok.offer_id };
  t.is((await call(ada, 'get_offer_details', offer)).ok.id, created.ok.offer_id);
  t.is((await call(bob, 'get_offer_details', offer)).error.code, 'offer_not_found');
  t.is((await call(bob, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[0].id })).error.code, 'search_not_found');
  const overRest = await fetch(`${running.url}/v1/flights/providers/provider_d/offers/${created.ok.offer_id}`, { headers: { 'x-api-key': partner.apiKey } });
  t.is(overRest.status, 200, 'the partner reads its travelers’ offers over REST');
  await Promise.all([ada.close(), bob.close()]);
});

test('an agent sending too many requests for one traveler gets 429 with Retry-After', async (t) => {
  const limited = await startService({}, { rateLimitKeyPrefix: uniquePrefix(), toolCallLimit: { points: 3, duration: 60 } });
  try {
    const config = await registerPublicClient(limited);
    const resource = `${limited.url}/v1/mcp`;
    const { tokens } = await authorize(limited, config, { redirectUri: 'http://localhost:53682/callback', scope: 'bookings.write', traveler: { email: uniqueEmail() }, extra: { resource } });
    const list = () =>
      fetch(resource, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    for (let i = 0; i < 3; i++) t.is((await list()).status, 200);
    const refused = await list();
    t.is(refused.status, 429);
    t.true(Number(refused.headers.get('retry-after')) > 0);
    t.is(refused.headers.get('ratelimit-policy'), '"per_agent";q=3;w=60');
    t.regex(refused.headers.get('ratelimit') ?? '', /^"per_agent";r=0;t=\d+$/);
    t.is((await jsonOf(refused)).code, 'too_many_requests');
  } finally {
    await limited.close();
  }
});
