/**
 * The airline's side of the identity API in tests: a partner's confidential client marked as an airline, a
 * traveler connecting it through the hosted pages (the code exchange gives `svc_guid`), and the calls its
 * backend makes with Basic credentials.
 */
import { systemClock, type Clock } from '../../core/clock.js';
import { RecognitionTokens } from '../../core/identity/recognition-tokens.js';
import { appsHeaders } from './apps-api.js';
import { TestBrowser } from './browser.js';
import { jsonOf, type Json } from './http.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, uniqueEmail, userIdOf, type PartnerClient } from './oauth.js';
import type { RunningService } from './service.js';

export interface Airline {
  clientId: string;
  clientSecret: string;
  partner: PartnerClient;
  config: oauth.Configuration;
}

export async function createAirline(running: RunningService, name = 'Demo Air'): Promise<Airline> {
  const partner = await createPartnerClient(running, name, undefined, { airline: true });
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  return { clientId: partner.clientId, clientSecret: partner.clientSecret, partner, config };
}

export interface ConnectedTraveler {
  email: string;
  userId: string;
  guid: string;
  /** The traveler's browser: signed in with us (the Connected apps page, another airline's consent). */
  browser: TestBrowser;
  accessToken: string;
}

/** A traveler (new unless `email` and `browser` are given) connects `airline` granting every scope of `scope`. */
export async function connect(
  running: RunningService,
  airline: Airline,
  scope: string,
  options: { email?: string; browser?: TestBrowser; allow?: (offered: string[]) => string[] } = {},
): Promise<ConnectedTraveler> {
  const email = options.email ?? uniqueEmail();
  const browser = options.browser ?? new TestBrowser(new URL(running.config.authUrl).origin);
  const { tokens } = await authorize(running, airline.config, { redirectUri: PARTNER_REDIRECT, scope, browser, traveler: { email, allow: options.allow } });
  const guid = (tokens as unknown as { svc_guid?: string }).svc_guid;
  if (!guid) throw new Error('the code exchange gave no svc_guid');
  return { email, userId: userIdOf(tokens.access_token), guid, browser, accessToken: tokens.access_token };
}

/** RFC 6749 §2.3.1: each part form-encoded, then joined and base64-encoded. */
export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function basicOf(airline: Pick<Airline, 'clientId' | 'clientSecret'>): string {
  return basic(airline.clientId, airline.clientSecret);
}

/** A call to the identity API, as an airline's backend makes it (`authorization` null: none sent). */
export async function identityCall(
  running: RunningService,
  method: 'POST' | 'DELETE',
  path: '/v1/identity/resolve' | '/v1/identity/loyalty-link',
  authorization: string | null,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; headers: Headers; text: string }> {
  const response = await fetch(`${running.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Json;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, headers: response.headers, text };
}

export function resolve(running: RunningService, airline: Pick<Airline, 'clientId' | 'clientSecret'>, body: unknown) {
  return identityCall(running, 'POST', '/v1/identity/resolve', basicOf(airline), body);
}

export function link(running: RunningService, airline: Pick<Airline, 'clientId' | 'clientSecret'>, body: unknown) {
  return identityCall(running, 'POST', '/v1/identity/loyalty-link', basicOf(airline), body);
}

export function unlink(running: RunningService, airline: Pick<Airline, 'clientId' | 'clientSecret'>, body: unknown) {
  return identityCall(running, 'DELETE', '/v1/identity/loyalty-link', basicOf(airline), body);
}

/** A recognition token as the frame mints it, at `clock`'s time, without a browser. */
export async function mintToken(running: RunningService, userId: string, clientId: string, clock: Clock = systemClock): Promise<string> {
  return (await new RecognitionTokens({ db: running.service.db.knex, clock }).mint(userId, clientId)).token;
}

/** A token minted 121 seconds ago: expired a second ago. */
export function expiredToken(running: RunningService, userId: string, clientId: string): Promise<string> {
  return mintToken(running, userId, clientId, { now: () => new Date(Date.now() - 121_000) });
}

/** The traveler turns the app off on the Connected apps page (its JSON API, on their own session). */
export async function disconnect(running: RunningService, traveler: ConnectedTraveler, clientId: string): Promise<void> {
  const headers = await appsHeaders(running.url, traveler.browser.cookieHeader('/v1/apps'));
  const response = await fetch(`${running.url}/v1/apps/${encodeURIComponent(clientId)}`, { method: 'DELETE', headers });
  if (response.status !== 204) throw new Error(`disconnect answered ${response.status}: ${await response.text()}`);
}

/** The traveler keeps only `scopes` on for the app, on the Connected apps page. */
export async function keepScopes(running: RunningService, traveler: ConnectedTraveler, clientId: string, scopes: string[]): Promise<Json> {
  const response = await fetch(`${running.url}/v1/apps/${encodeURIComponent(clientId)}/scopes`, {
    method: 'PUT',
    headers: { ...(await appsHeaders(running.url, traveler.browser.cookieHeader('/v1/apps'))), 'content-type': 'application/json' },
    body: JSON.stringify({ scopes }),
  });
  if (response.status !== 200) throw new Error(`scopes answered ${response.status}: ${await response.text()}`);
  return jsonOf(response);
}

/** A 404 body without its request id: what must be identical across causes. */
export function withoutRequestId(body: Json): Json {
  const { request_id: _requestId, ...rest } = body as Record<string, unknown>;
  return rest;
}
