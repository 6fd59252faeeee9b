/**
 * Purchases through the tools (decisions §10): create_booking answers confirmation_required with our
 * hosted page's URL; the traveler's browser (signed in on the hosted pages) confirms or declines there;
 * the agent calls again with confirmation_id. Tool results are read as an agent reads them.
 */
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page as PlaywrightPage } from 'playwright-core';
import { isPage, latestCode, TestBrowser, type Page } from './browser.js';
import { nativeOffer, REFUNDABLE_OFFER } from '../booking-contract/provider-b.js';
import { jsonOf, type Json } from './http.js';
import { authorize, clientFor, oauth, PARTNER_REDIRECT, registerPublicClient, uniqueEmail, userIdOf, type PartnerClient } from './oauth.js';
import type { RunningService } from './service.js';

export const AGENT_SCOPES = 'bookings.read bookings.write payments.read payments.write';

export interface ToolAgent {
  client: Client;
  clientId: string;
  userId: string;
  email: string;
  /** The traveler's browser, signed in on the hosted pages while authorizing the agent. */
  browser: TestBrowser;
}

/**
 * A traveler's agent connected to /v1/mcp with a token for it: self-registered (client_name "Test
 * agent"), or the partner's client; the traveler is `email`'s (a new one unless given).
 */
export async function toolAgent(running: RunningService, options: { email?: string; partnerClient?: PartnerClient } = {}): Promise<ToolAgent> {
  const endpoint = `${running.url}/v1/mcp`;
  const config = options.partnerClient
    ? await clientFor(running, options.partnerClient.clientId, oauth.ClientSecretBasic(options.partnerClient.clientSecret))
    : await registerPublicClient(running);
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const email = options.email ?? uniqueEmail('confirming');
  const { tokens } = await authorize(running, config, {
    redirectUri: options.partnerClient ? PARTNER_REDIRECT : 'http://localhost:53682/callback',
    scope: AGENT_SCOPES,
    browser,
    traveler: { email },
    extra: { resource: endpoint },
  });
  const client = new Client({ name: 'confirming-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
  return { client, clientId: config.clientMetadata().client_id, userId: userIdOf(tokens.access_token), email, browser };
}

export interface ToolAnswer {
  ok: Json;
  error: Json;
  isError: boolean;
}

/** A tool's structured answer, or its error (the JSON of the error's text). */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) return { ok: undefined, error: JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}').error, isError: true };
  return { ok: result.structuredContent, error: undefined, isError: false };
}

/** The confirmation page at `url`, as the traveler's browser opens it. */
export async function openConfirmation(browser: TestBrowser, url: string): Promise<Page> {
  const page = await browser.open(url);
  assert.ok(isPage(page), `the confirmation page sent the browser away: ${JSON.stringify(page)}`);
  return page;
}

/** Presses Confirm (or Decline) on the page at `url`; returns the page the browser lands on. */
export async function decideOnPage(browser: TestBrowser, url: string, decision: 'confirm' | 'decline' = 'confirm'): Promise<Page> {
  const page = await openConfirmation(browser, url);
  assert.equal(page.status, 200, `the confirmation page answered ${page.status}: ${page.html}`);
  const after = await browser.submit(page, `/${decision}`, {});
  assert.ok(isPage(after), 'the decision sent the browser away');
  return after;
}

/**
 * create_booking as an agent completes it: the first call asks for the confirmation, the traveler confirms
 * on the page, the same call again with confirmation_id books. Returns the booking answer and the
 * confirmation's id.
 */
export async function bookConfirmed(client: Client, browser: TestBrowser, args: Record<string, unknown>): Promise<ToolAnswer & { confirmationId: string }> {
  const asked = await callTool(client, 'create_booking', args);
  assert.equal(asked.error?.code, 'confirmation_required', `create_booking did not ask for a confirmation: ${JSON.stringify(asked)}`);
  await decideOnPage(browser, asked.error.confirmation_url);
  const booked = await callTool(client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  return { ...booked, confirmationId: asked.error.confirmation_id };
}

/**
 * In a real browser that is not signed in, on the confirmation page: the hosted sign-in (e-mail, then
 * the mailed code), which comes back to the page.
 */
export async function signInOnConfirmationPage(page: PlaywrightPage, serviceUrl: string, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await latestCode(serviceUrl, email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Confirm your purchase' }).waitFor();
}

/** A provider_b offer a partner made over REST with its key alone: it belongs to no traveler until an agent's uses it. */
export async function partnerOffer(running: RunningService, apiKey: string, nativeId: string = REFUNDABLE_OFFER): Promise<string> {
  const created = await fetch(`${running.url}/v1/flights/providers/provider_b/offers`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(await nativeOffer(running, nativeId)),
  });
  if (created.status !== 201) throw new Error(`no offer: ${created.status} ${await created.text()}`);
  return (await jsonOf(created)).offer_id;
}

/** The contact of the tools' test bookings. */
export const CONTACT = { email: 'ada@example.com', phone_number: '+447700900123', first_name: 'Ada', last_name: 'Lovelace' };

/** A passenger of create_booking for the offer's passenger `id`, with a passport (`index` makes its number unique). */
export const passenger = (id: string, first: string, index: number) => ({
  provider_passenger_id: id,
  first_name: first,
  last_name: 'Lovelace',
  born_on: '1985-12-10',
  gender: 'female',
  identity_documents: [{ type: 'passport', unique_identifier: `P77700${index}1`, issuing_country_code: 'GB', expires_on: '2034-06-30' }],
});
