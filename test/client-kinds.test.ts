/**
 * Kinds of clients and where their tokens work (decisions §13), with every kind of caller: two partners,
 * a partner's client, an airline's client and a self-registered agent, over real HTTP and the real
 * authorization-code flow.
 *
 * - an agent asking for any resource but the tool endpoint is `invalid_target`; asking for none, it gets the
 *   tool endpoint; its token (even one issued for the API before the rule) never opens the REST API, with any
 *   partner's key, and it still books through the tools, only after the traveler's confirmation;
 * - a partner client's token works with its own partner's key only;
 * - spending limits are offered and shown for agents only;
 * - the identity endpoints and the recognition frame serve airline clients only (the admin marks them);
 *   an airline's consent page says it will recognize the traveler.
 */
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt, importJWK, SignJWT, type JWK } from 'jose';
import { loadSigningKeys } from '../authz/keys.js';
import { runAdminCommand } from '../admin/commands.js';
import { isPage, latestCode, TestBrowser, type Page } from './helpers/browser.js';
import { saveCardInBrowser } from './helpers/cards.js';
import { AGENT_REDIRECT, clientIdOf, consentPage } from './helpers/consent.js';
import { jsonOf, type Json } from './helpers/http.js';
import { resolve } from './helpers/identity.js';
import {
  authorize,
  clientFor,
  createPartnerClient,
  oauth,
  PARTNER_REDIRECT,
  partnerWithTraveler,
  registerPublicClient,
  startAuthorization,
  travelerAuthorizes,
  uniqueEmail,
  userIdOf,
  type PartnerClient,
} from './helpers/oauth.js';
import { AGENT_SCOPES, bookConfirmed, callTool, CONTACT, partnerOffer, passenger } from './helpers/purchases.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partnerA: PartnerClient;
let partnerB: PartnerClient;
const api = () => running.url;
const toolEndpoint = () => `${running.url}/v1/mcp`;
const authOrigin = () => new URL(running.config.authUrl).origin;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  partnerA = await createPartnerClient(running, 'Kinds Partner A');
  partnerB = await createPartnerClient(running, 'Kinds Partner B');
});
test.after.always(async () => {
  await running?.close();
});

/** The browser's way back to the client after an authorization request, or the page it stopped on. */
async function openAuthorization(url: URL, browser = new TestBrowser(authOrigin())): Promise<{ redirectedTo?: URL; page?: Page }> {
  const step = await browser.open(url.href);
  return isPage(step) ? { page: step } : { redirectedTo: new URL(step.redirectedTo) };
}

function me(apiKey: string, token: string): Promise<Response> {
  return fetch(`${api()}/v1/users/me`, { headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}` } });
}

test('an agent asking for the REST API (in any spelling) is invalid_target, before any sign-in; asking for nothing, its token is for the tool endpoint', async (t) => {
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  for (const resource of [api(), `${api()}/`, `${api()}//`]) {
    const authorization = await startAuthorization(agent, AGENT_REDIRECT, 'profile.read', { resource });
    const { redirectedTo, page } = await openAuthorization(authorization.url);
    t.truthy(redirectedTo, `${resource}: the agent is sent back, not to a sign-in page (${page?.status})`);
    t.is(redirectedTo?.searchParams.get('error'), 'invalid_target', resource);
    t.regex(redirectedTo?.searchParams.get('error_description') ?? '', /tool endpoint/, resource);
  }

  const { tokens } = await authorize(running, agent, { redirectUri: AGENT_REDIRECT, scope: 'profile.read', traveler: { email: uniqueEmail('agent') } });
  t.is(decodeJwt(tokens.access_token).aud, toolEndpoint(), 'no resource named: the tool endpoint');
  t.is((await me(partnerA.apiKey, tokens.access_token)).status, 401, 'a tool endpoint token is not for the API');
});

test('an agent naming the API at the code exchange is invalid_target, and gets no token', async (t) => {
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  const authorization = await startAuthorization(agent, AGENT_REDIRECT, 'profile.read');
  const outcome = await travelerAuthorizes(running, new TestBrowser(authOrigin()), authorization.url, { email: uniqueEmail('agent') });
  const code = outcome.redirectedTo?.searchParams.get('code');
  t.truthy(code);
  const exchange = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code as string,
      redirect_uri: AGENT_REDIRECT,
      code_verifier: authorization.verifier,
      client_id: clientIdOf(agent),
      resource: api(),
    }),
  });
  t.is(exchange.status, 400);
  t.is((await jsonOf(exchange)).error, 'invalid_target');
});

test('an agent asking for the tool endpoint and the API at once is invalid_target', async (t) => {
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  const authorization = await startAuthorization(agent, AGENT_REDIRECT, 'profile.read');
  const url = new URL(authorization.url);
  url.searchParams.append('resource', toolEndpoint());
  url.searchParams.append('resource', api());
  const { redirectedTo } = await openAuthorization(url);
  t.is(redirectedTo?.searchParams.get('error'), 'invalid_target');
});

test('a refresh token an agent got for the API before the rule renews nothing: invalid_target', async (t) => {
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  const { tokens } = await authorize(running, agent, { redirectUri: AGENT_REDIRECT, scope: 'profile.read', traveler: { email: uniqueEmail('agent') } });
  // What the authorization server stored for an agent before decisions §13: a refresh token for the API.
  const { knex } = running.service.db;
  const rows = await knex('oidc_models').where({ kind: 'RefreshToken', client_id: clientIdOf(agent) }).select('id', 'payload');
  t.is(rows.length, 1);
  const payload = JSON.parse(rows[0].payload);
  t.is(payload.resource, toolEndpoint());
  await knex('oidc_models').where({ kind: 'RefreshToken', id: rows[0].id }).update({ payload: JSON.stringify({ ...payload, resource: api() }) });

  const refreshed = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientIdOf(agent) }),
  });
  t.is(refreshed.status, 400);
  t.is((await jsonOf(refreshed)).error, 'invalid_target');
});

test('an agent’s token never opens the REST API, with any partner’s key, even one issued for the API before the rule', async (t) => {
  // What an agent could be issued before decisions §13: a token for the API, signed by us, of no partner.
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  const { tokens } = await authorize(running, agent, { redirectUri: AGENT_REDIRECT, scope: 'profile.read', traveler: { email: uniqueEmail('agent') } });
  const { jwks } = await loadSigningKeys({ jwksPath: undefined, cookieKeys: undefined, dataDir: running.config.dataDir, production: false });
  const key = jwks.keys[0] as JWK;
  const legacyToken = await new SignJWT({ client_id: clientIdOf(agent), 'custom:user_id': userIdOf(tokens.access_token), scope: 'profile.read' })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid as string })
    .setIssuer(running.config.authUrl)
    .setAudience(api())
    .setSubject(userIdOf(tokens.access_token))
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(await importJWK(key, 'RS256'));
  for (const partner of [partnerA, partnerB]) {
    const answer = await me(partner.apiKey, legacyToken);
    t.is(answer.status, 403);
    const body = await jsonOf(answer);
    t.is(body.code, 'token_partner_mismatch');
    t.regex(body.message, /\/v1\/mcp/, 'it says where an agent acts');
  }
});

test('a partner client’s token works with its own partner’s key, and another partner’s key is refused', async (t) => {
  const traveler = await partnerWithTraveler(running, 'Own Key Air', 'profile.read');
  const other = await createPartnerClient(running, 'Other Key Air');
  t.is((await me(traveler.apiKey, traveler.token)).status, 200);
  const refused = await me(other.apiKey, traveler.token);
  t.is(refused.status, 403);
  t.is((await jsonOf(refused)).code, 'token_partner_mismatch');
});


test('the agent still books through the tools with a token asked for without a resource, and only after the traveler confirms', async (t) => {
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  const browser = new TestBrowser(authOrigin());
  const { tokens } = await authorize(running, agent, { redirectUri: AGENT_REDIRECT, scope: AGENT_SCOPES, browser, traveler: { email: uniqueEmail('kinds-buyer') } });
  await saveCardInBrowser(running, browser, {}, true);
  const client = new Client({ name: 'kinds-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(toolEndpoint()), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
  try {
    const offerId = await partnerOffer(running, partnerA.apiKey);
    const details = await callTool(client, 'get_offer_details', { provider_id: 'provider_b', offer_id: offerId });
    const passengers = details.ok.passengers.map((item: Json, index: number) => passenger(item.id, `Ada${'a'.repeat(index)}`, index));
    const input = { provider_id: 'provider_b', offer_id: offerId, passengers, contact: CONTACT, idempotency_key: `kinds-${crypto.randomUUID()}` };
    const asked = await callTool(client, 'create_booking', input);
    t.is(asked.error?.code, 'confirmation_required', 'no booking without the traveler');
    t.is(await running.service.db.knex('bookings').where({ user_id: userIdOf(tokens.access_token) }).count('* as n').first().then((row) => Number(row?.n)), 0);
    const booked = await bookConfirmed(client, browser, input);
    t.false(booked.isError, JSON.stringify(booked.error));
    t.is(booked.ok.booking.status, 'confirmed');
  } finally {
    await client.close();
  }
});

/** Signs a new traveler in for `config`'s client and stops on the consent page. */
async function partnerConsentPage(config: oauth.Configuration, scope: string, browser = new TestBrowser(authOrigin())): Promise<{ page: Page; browser: TestBrowser }> {
  const email = uniqueEmail('kinds');
  const authorization = await startAuthorization(config, PARTNER_REDIRECT, scope);
  let step = await browser.open(authorization.url.href);
  if (isPage(step) && step.html.includes('name="email"')) step = await browser.submit(step, '/email', { email });
  if (isPage(step) && step.html.includes('name="code"')) step = await browser.submit(step, '/code', { code: await latestCode(running.url, email) });
  if (!isPage(step) || !step.html.includes('name="scope"')) throw new Error(`no consent page: ${JSON.stringify(step).slice(0, 300)}`);
  return { page: step, browser };
}

test('spending limits are offered on consent, and shown on Connected apps, for agents only', async (t) => {
  const partnerConfig = await clientFor(running, partnerA.clientId, oauth.ClientSecretBasic(partnerA.clientSecret));
  const partnerStep = await partnerConsentPage(partnerConfig, 'bookings.write');
  t.false(partnerStep.page.html.includes('name="per_booking"'), 'a partner’s client is not offered a limit it would never enforce');
  // The traveler sends limit fields anyway: nothing is kept for the partner's client.
  const allowed = await partnerStep.browser.submit(partnerStep.page, '/consent', { scope: ['bookings.write'], currency: 'GBP', per_booking: '100', per_30_days: '' });
  t.false(isPage(allowed), 'consent goes back to the partner');
  t.is(await running.service.db.knex('agent_spending_limits').where({ client_id: partnerA.clientId }).count('* as n').first().then((row) => Number(row?.n)), 0);

  const agentStep = await consentPage(running, 'bookings.write', { browser: partnerStep.browser });
  t.true(agentStep.page.html.includes('name="per_booking"'), 'an agent is offered one');
  await agentStep.browser.submit(agentStep.page, '/consent', { scope: ['bookings.write'], currency: 'GBP', per_booking: '100', per_30_days: '' });

  const apps = await partnerStep.browser.open(`${running.url}/account/apps`);
  if (!isPage(apps)) throw new Error('the Connected apps page did not open');
  const section = (clientId: string) => apps.html.split('<section class="app"').find((part) => part.includes(`/account/apps/${encodeURIComponent(clientId)}/`)) ?? '';
  t.false(section(partnerA.clientId).includes('spending-limit'), 'no limit shown for the partner’s client');
  t.true(section(clientIdOf(agentStep.agent)).includes('spending-limit'), 'the agent’s limit is shown');
  const listed = await jsonOf(await fetch(`${running.config.authUrl}/v1/apps`, { headers: { cookie: partnerStep.browser.cookieHeader('/v1/apps') } }));
  t.deepEqual(
    Object.fromEntries(listed.map((app: Json) => [app.client_id, app.kind])),
    { [partnerA.clientId]: 'partner', [clientIdOf(agentStep.agent)]: 'agent' },
    '/v1/apps says which kind each app is',
  );
});

test('the identity endpoints and the recognition frame serve airline clients only; the admin marks and unmarks them', async (t) => {
  const registered = await oauth.dynamicClientRegistration(
    new URL(running.config.authUrl),
    { redirect_uris: ['https://agent.example/callback'], token_endpoint_auth_method: 'client_secret_basic', client_name: 'Confidential agent' },
    oauth.None(),
    { execute: [oauth.allowInsecureRequests] },
  );
  const agent = registered.clientMetadata();
  const plainPartner = await createPartnerClient(running, 'Plain Partner Air');
  const airline = await createPartnerClient(running, 'Marked Air', undefined, { airline: true });
  const guid = { guid: crypto.randomUUID() };

  const unknown = await resolve(running, { clientId: crypto.randomUUID(), clientSecret: 'nope' }, guid);
  t.is(unknown.status, 401);
  for (const [who, credentials] of [
    ['a self-registered confidential client', { clientId: agent.client_id, clientSecret: agent.client_secret as string }],
    ['a partner client not marked', { clientId: plainPartner.clientId, clientSecret: plainPartner.clientSecret }],
  ] as const) {
    const answer = await resolve(running, credentials, guid);
    t.is(answer.status, 401, who);
    t.deepEqual({ ...answer.body, request_id: undefined }, { ...unknown.body, request_id: undefined }, `${who} answers as an unknown client`);
  }
  t.is((await resolve(running, { clientId: airline.clientId, clientSecret: airline.clientSecret }, guid)).status, 404, 'an airline is served (no such traveler)');

  const frame = (clientId: string, redirectUri: string) =>
    fetch(`${running.config.authUrl}/recognition/frame?${new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri })}`, { headers: { 'sec-fetch-dest': 'iframe' } });
  for (const [clientId, redirectUri] of [
    [agent.client_id, 'https://agent.example/callback'],
    [plainPartner.clientId, PARTNER_REDIRECT],
  ] as const) {
    const answer = await frame(clientId, redirectUri);
    t.is(answer.status, 400);
    t.regex(await answer.text(), /No airline client/);
  }
  t.is((await frame(airline.clientId, PARTNER_REDIRECT)).status, 200);

  // The admin command line marks the partner's client: served at once; unmarked, refused again.
  const admin = { partners: running.service.partners, clients: running.service.partnerClients, paymentMethods: running.service.paymentMethods };
  t.like(await runAdminCommand(['client', 'mark-airline', '--client', plainPartner.clientId], admin), { client_id: plainPartner.clientId, airline: true });
  t.is((await resolve(running, { clientId: plainPartner.clientId, clientSecret: plainPartner.clientSecret }, guid)).status, 404);
  t.is((await frame(plainPartner.clientId, PARTNER_REDIRECT)).status, 200);
  t.like(await runAdminCommand(['client', 'unmark-airline', '--client', plainPartner.clientId], admin), { airline: false });
  t.is((await resolve(running, { clientId: plainPartner.clientId, clientSecret: plainPartner.clientSecret }, guid)).status, 401);
  const notPartner = await t.throwsAsync(runAdminCommand(['client', 'mark-airline', '--client', agent.client_id], admin));
  t.regex(notPartner?.message ?? '', /only a partner's client/, 'an agent is never an airline');
});

test('an airline’s consent page says, in words, that it will recognize the traveler on its sites; a partner’s and an agent’s do not', async (t) => {
  const airline = await createPartnerClient(running, 'Words Air', undefined, { airline: true });
  const airlineStep = await partnerConsentPage(await clientFor(running, airline.clientId, oauth.ClientSecretBasic(airline.clientSecret)), 'profile.read');
  t.regex(airlineStep.page.html, /Words Air will recognize you on its sites/);
  const partnerStep = await partnerConsentPage(await clientFor(running, partnerB.clientId, oauth.ClientSecretBasic(partnerB.clientSecret)), 'profile.read');
  t.false(partnerStep.page.html.includes('recognize you'));
  const agentStep = await consentPage(running, 'profile.read');
  t.false(agentStep.page.html.includes('recognize you'));
});

test('the sandbox’s demo airline is an airline: its consent page says it recognizes the traveler, and never that it registered itself', async (t) => {
  const demo = running.config.demoAirline;
  if (!demo) return t.fail('sandbox mode runs the demo airline');
  const config = await clientFor(running, 'sandbox-demo-airline');
  const email = uniqueEmail('demo-air');
  const browser = new TestBrowser(authOrigin());
  const authorization = await startAuthorization(config, `${demo.url}/`, 'profile.read');
  let step = await browser.open(authorization.url.href);
  if (isPage(step) && step.html.includes('name="email"')) step = await browser.submit(step, '/email', { email });
  if (isPage(step) && step.html.includes('name="code"')) step = await browser.submit(step, '/code', { code: await latestCode(running.url, email) });
  if (!isPage(step)) return t.fail('no consent page');
  t.regex(step.html, /Demo Air \(sandbox\) will recognize you on its sites/);
  t.false(step.html.includes('registered itself'));
});
