/**
 * Travelers with saved cards, as the card-capture component makes them: the traveler signs in on the
 * hosted pages (a browser with a cookie jar), the browser asks the service for a tokenization session,
 * and posts the card straight to the vault with the session key; the partner then saves the token.
 */
import assert from 'node:assert/strict';
import { TestBrowser } from './browser.js';
import type { Json } from './http.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, uniqueEmail, userIdOf, type PartnerClient } from './oauth.js';
import type { RunningService } from './service.js';

export interface CardTraveler {
  partner: PartnerClient;
  token: string;
  userId: string;
  email: string;
  /** Signed in on the hosted pages: its session cookie opens the payment routes. */
  browser: TestBrowser;
}

/** A traveler of `partner` (a new partner unless given) with a token of `scope` and a signed-in browser. */
export async function cardTraveler(running: RunningService, scope: string, partner?: PartnerClient, planId?: string): Promise<CardTraveler> {
  const owner = partner ?? (await createPartnerClient(running, `Card Air ${Math.random().toString(36).slice(2, 6)}`, planId));
  const config = await clientFor(running, owner.clientId, oauth.ClientSecretBasic(owner.clientSecret));
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const email = uniqueEmail('cards');
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope, traveler: { email }, browser });
  return { partner: owner, token: tokens.access_token, userId: userIdOf(tokens.access_token), email, browser };
}

/** A request with the browser's session cookie (no key, no token), as the component sends it. */
export function asBrowser(running: RunningService, browser: TestBrowser, path: string, init: { method?: string; body?: unknown; csrf?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { cookie: browser.cookieHeader(path.split('?')[0] as string), ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.csrf !== undefined) headers['x-csrf-token'] = init.csrf;
  return fetch(`${running.url}${path}`, { method: init.method ?? 'GET', headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) });
}

export async function tokenizationSession(running: RunningService, browser: TestBrowser, origin = new URL(running.url).origin): Promise<Json> {
  const response = await asBrowser(running, browser, `/v1/payments/tokenization-session?origin=${encodeURIComponent(origin)}`);
  assert.equal(response.status, 200, `no tokenization session: ${await response.clone().text()}`);
  return response.json();
}

export const VISA = '4242424242424242';
export const MASTERCARD = '5555555555554444';

/** A vault token of a card typed into the hosted fields of this traveler's browser. */
export async function vaultToken(running: RunningService, browser: TestBrowser, card: { number?: string; month?: number; year?: number } = {}): Promise<string> {
  const session = await tokenizationSession(running, browser);
  const response = await fetch(`${session.vaultUrl}/tokens`, {
    method: 'POST',
    headers: { 'BT-API-KEY': session.sessionKey, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'card', data: { number: card.number ?? VISA, expiration_month: card.month ?? 12, expiration_year: card.year ?? 2030, cvc: '123' } }),
  });
  const body = (await response.json()) as Json;
  assert.equal(response.status, 201, `the vault made no token: ${response.status} ${JSON.stringify(body)}`);
  return body.id as string;
}

/** Calls a payment route as the traveler's partner: its API key and the traveler's token. */
export function asPartner(running: RunningService, who: { partner: { apiKey: string }; token: string }, path: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${running.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'x-api-key': who.partner.apiKey, authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** Saves a card from a fresh token; returns the payment method's id. */
export async function saveCard(running: RunningService, who: CardTraveler, card: { number?: string; month?: number; year?: number } = {}, isDefault?: boolean): Promise<string> {
  const vaultTokenId = await vaultToken(running, who.browser, card);
  const response = await asPartner(running, who, '/v1/users/me/payment-methods/from-token', { body: { vaultToken: vaultTokenId, ...(isDefault === undefined ? {} : { isDefault }) } });
  const body = (await response.json()) as Json;
  assert.equal(response.status, 201, `not saved: ${response.status} ${JSON.stringify(body)}`);
  return body.id as string;
}

/**
 * Saves a card the way the component does for a traveler with no partner (a self-registered agent's):
 * the browser's own session makes the token and saves it, with the session's CSRF token; no API key.
 */
export async function saveCardInBrowser(running: RunningService, browser: TestBrowser, card: { number?: string } = {}, isDefault?: boolean): Promise<string> {
  const token = await vaultToken(running, browser, card);
  const { csrfToken } = await tokenizationSession(running, browser);
  const response = await asBrowser(running, browser, '/v1/users/me/payment-methods/from-token', {
    method: 'POST',
    body: { vaultToken: token, ...(isDefault === undefined ? {} : { isDefault }) },
    csrf: csrfToken,
  });
  const body = (await response.json()) as Json;
  assert.equal(response.status, 201, `not saved: ${response.status} ${JSON.stringify(body)}`);
  return body.id as string;
}
