/**
 * The saved-card tools over /v1/mcp, as agents call them with tokens for the endpoint: a self-registered
 * agent and a partner's agent, each of its own traveler. They list the traveler's cards and change a
 * card's cardholder name and billing ZIP; another traveler's card is not found; a legacy card has no such
 * details; each tool needs its scope. Adding a card is not a tool.
 */
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runAdminCommand } from '../admin/commands.js';
import { SANDBOX_VAULT_KEY } from '../config.js';
import { TestBrowser } from './helpers/browser.js';
import { asPartner, cardTraveler, vaultToken } from './helpers/cards.js';
import { jsonOf, type Json } from './helpers/http.js';
import { authorize, clientFor, oauth, PARTNER_REDIRECT, registerPublicClient, uniqueEmail, userIdOf, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
const endpoint = () => `${running.url}/v1/mcp`;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

interface Agent {
  client: Client;
  userId: string;
  email: string;
  browser: TestBrowser;
}

/** An agent's token for the tool endpoint with `scope`: self-registered, or a partner's client. */
async function agent(scope: string, partner?: PartnerClient): Promise<Agent> {
  const config = partner ? await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret)) : await registerPublicClient(running);
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const email = uniqueEmail('agent');
  const { tokens } = await authorize(running, config, {
    redirectUri: partner ? PARTNER_REDIRECT : 'http://localhost:53682/callback',
    scope,
    browser,
    traveler: { email },
    extra: { resource: endpoint() },
  });
  const client = new Client({ name: 'card-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint()), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
  return { client, userId: userIdOf(tokens.access_token), email, browser };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ ok: Json; error: Json }> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) return { ok: undefined, error: JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}').error };
  return { ok: result.structuredContent, error: undefined };
}

/** Saves a card for the agent's traveler the way the component does: the browser's session and the vault. */
async function saveCardFor(who: Agent): Promise<{ id: string; token: string }> {
  const token = await vaultToken(running, who.browser);
  const session = await fetch(`${running.url}/v1/payments/tokenization-session?origin=${encodeURIComponent(running.url)}`, {
    headers: { cookie: who.browser.cookieHeader('/v1/payments/tokenization-session') },
  });
  const { csrfToken } = await jsonOf(session);
  const saved = await fetch(`${running.url}/v1/users/me/payment-methods/from-token`, {
    method: 'POST',
    headers: { cookie: who.browser.cookieHeader('/v1/users/me/payment-methods/from-token'), 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ vaultToken: token }),
  });
  return { id: (await jsonOf(saved)).id, token };
}

test('a self-registered agent lists its traveler’s cards and sets the cardholder name and ZIP, kept in the vault', async (t) => {
  const ada = await agent('payments.read payments.write');
  t.deepEqual((await call(ada.client, 'list_payment_methods', {})).ok, { payment_methods: [] });
  const { id, token } = await saveCardFor(ada);
  const listed = await call(ada.client, 'list_payment_methods', {});
  t.is(listed.ok.payment_methods.length, 1);
  t.like(listed.ok.payment_methods[0], { id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, isDefault: true });
  t.falsy(listed.ok.payment_methods[0].vaultToken);

  const updated = await call(ada.client, 'update_payment_method', { payment_method_id: id, cardholder_name: 'Ada Lovelace', billing_zip: '90210' });
  t.like(updated.ok, { id, brand: 'visa', last4: '4242' });
  const inVault = await jsonOf(await fetch(`${running.config.vault?.url}/tokens/${token}`, { headers: { 'BT-API-KEY': SANDBOX_VAULT_KEY } }));
  t.like(inVault.metadata, { cardholder_name: 'Ada Lovelace', billing_zip: '90210' });
  await call(ada.client, 'update_payment_method', { payment_method_id: id, billing_zip: null });
  const cleared = await jsonOf(await fetch(`${running.config.vault?.url}/tokens/${token}`, { headers: { 'BT-API-KEY': SANDBOX_VAULT_KEY } }));
  t.falsy(cleared.metadata?.billing_zip);

  const bad = await call(ada.client, 'update_payment_method', { payment_method_id: id, billing_zip: '!' });
  t.truthy(bad.error ?? bad.ok === undefined, 'an invalid ZIP is refused');
  const { tools } = await ada.client.listTools();
  t.false(tools.some((tool) => /add|create|save|delete/.test(tool.name) && /payment/.test(tool.name)), 'no tool adds or deletes a card');
  await ada.client.close();
});

test('agents never reach another traveler’s card: self-registered, the same partner’s and another partner’s', async (t) => {
  const owner = await cardTraveler(running, 'payments.read payments.write');
  const token = await vaultToken(running, owner.browser);
  const { id } = await jsonOf(await asPartner(running, owner, '/v1/users/me/payment-methods/from-token', { body: { vaultToken: token } }));
  const intruders = [await agent('payments.read payments.write'), await agent('payments.read payments.write', owner.partner)];
  for (const intruder of intruders) {
    t.deepEqual((await call(intruder.client, 'list_payment_methods', {})).ok, { payment_methods: [] });
    const refused = await call(intruder.client, 'update_payment_method', { payment_method_id: id, cardholder_name: 'Mallory' });
    t.is(refused.error?.code, 'payment_method_not_found');
    await intruder.client.close();
  }
  const own = await agent('payments.read payments.write', owner.partner);
  t.is((await call(own.client, 'update_payment_method', { payment_method_id: 'not-a-uuid', cardholder_name: 'Ada' })).error?.code, 'payment_method_not_found');
  await own.client.close();
});

test('a legacy card has no cardholder name or ZIP to change: legacy_payment_method', async (t) => {
  const ada = await agent('payments.read payments.write');
  const { id } = (await runAdminCommand(
    ['payment-method', 'import-legacy', '--user', ada.email, '--brand', 'discover', '--last4', '1117', '--exp-month', '6', '--exp-year', '2028', '--default'],
    { partners: running.service.partners, clients: running.service.partnerClients, paymentMethods: running.service.paymentMethods },
  )) as { id: string };
  t.like((await call(ada.client, 'list_payment_methods', {})).ok.payment_methods[0], { id, brand: 'discover', last4: '1117', isDefault: true });
  const refused = await call(ada.client, 'update_payment_method', { payment_method_id: id, cardholder_name: 'Ada' });
  t.is(refused.error?.code, 'legacy_payment_method');
  await ada.client.close();
});

test('each tool needs its scope: read does not write, write does not read', async (t) => {
  for (const [scope, tool, args, needed] of [
    ['payments.read', 'update_payment_method', { payment_method_id: crypto.randomUUID(), cardholder_name: 'Ada' }, 'payments.write'],
    ['payments.write', 'list_payment_methods', {}, 'payments.read'],
  ] as const) {
    const config = await registerPublicClient(running);
    const { tokens } = await authorize(running, config, { redirectUri: 'http://localhost:53682/callback', scope, traveler: { email: uniqueEmail() }, extra: { resource: endpoint() } });
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
    });
    t.is(response.status, 403, tool);
    t.like(await jsonOf(response), { error: 'insufficient_scope', scope: needed });
  }
});
