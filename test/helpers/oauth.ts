/**
 * The authorization-code flow with PKCE as a client runs it, with openid-client (a certified OAuth
 * client library), and a traveler who signs in on the hosted pages with the code from the mail sandbox.
 */
import { decodeJwt } from 'jose';
import assert from 'node:assert/strict';
import * as oauth from 'openid-client';
import type { RunningService } from './service.js';
import { isPage, latestCode, offeredScopes, TestBrowser, type Page } from './browser.js';

export { oauth };

export const PARTNER_REDIRECT = 'https://partner.example/oauth/callback';

/** A client configuration of openid-client for our issuer (plain http is fine in tests). */
export async function clientFor(
  running: RunningService,
  clientId: string,
  auth: oauth.ClientAuth = oauth.None(),
): Promise<oauth.Configuration> {
  return oauth.discovery(new URL(running.config.authUrl), clientId, undefined, auth, { execute: [oauth.allowInsecureRequests] });
}

export async function registerPublicClient(running: RunningService, redirectUri = 'http://localhost:53682/callback'): Promise<oauth.Configuration> {
  return oauth.dynamicClientRegistration(
    new URL(running.config.authUrl),
    { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', client_name: 'Test agent' },
    oauth.None(),
    { execute: [oauth.allowInsecureRequests] },
  );
}

export interface PartnerClient {
  partnerId: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
}

/** A partner with an API key, and a confidential OAuth client of it (an airline client with `airline`). */
export async function createPartnerClient(running: RunningService, name = 'Test Air', planId?: string, options: { airline?: boolean } = {}): Promise<PartnerClient> {
  const partner = await running.service.partners.createPartner({ name, plan_id: planId, allowed_operations: null });
  const client = await running.service.partnerClients.create({ partner_id: partner.partner_id, name, redirect_uris: [PARTNER_REDIRECT], airline: options.airline });
  return { partnerId: partner.partner_id, apiKey: partner.api_key, clientId: client.client_id, clientSecret: client.client_secret as string };
}

export interface Authorization {
  verifier: string;
  state: string;
  url: URL;
  redirectUri: string;
}

export async function startAuthorization(config: oauth.Configuration, redirectUri: string, scope?: string, extra: Record<string, string> = {}): Promise<Authorization> {
  const verifier = oauth.randomPKCECodeVerifier();
  const state = oauth.randomState();
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  };
  if (scope !== undefined) parameters.scope = scope;
  return { verifier, state, redirectUri, url: oauth.buildAuthorizationUrl(config, parameters) };
}

export interface Traveler {
  email: string;
  /** Which of the offered scopes to leave ticked; default: all of them. */
  allow?: (offered: string[]) => string[];
  /** Press Deny on the consent page. */
  deny?: boolean;
}

export interface FlowOutcome {
  /** Where the browser was sent back to the client (with `code` or `error`), if it was. */
  redirectedTo?: URL;
  /** The page the flow stopped on, if it did not go back to the client. */
  stoppedAt?: Page;
  /** The length of the code that was e-mailed, if one was. */
  codeDigits?: number;
  /** The scopes the consent page offered, if it was shown. */
  offered?: string[];
}

/** Runs the traveler's side: sign in if asked, consent if asked, until the browser goes back to the client. */
export async function travelerAuthorizes(running: RunningService, browser: TestBrowser, url: URL, traveler: Traveler): Promise<FlowOutcome> {
  const outcome: FlowOutcome = {};
  let step = await browser.open(url.href);
  for (let turn = 0; turn < 5 && isPage(step); turn++) {
    const page: Page = step;
    if (page.status !== 200) {
      outcome.stoppedAt = page;
      return outcome;
    }
    if (page.html.includes('name="email"')) {
      step = await browser.submit(page, '/email', { email: traveler.email });
    } else if (page.html.includes('name="code"')) {
      const digits = /We sent a (\d)-digit code/.exec(page.html);
      outcome.codeDigits = Number(digits?.[1]);
      step = await browser.submit(page, '/code', { code: await latestCode(running.url, traveler.email) });
    } else if (page.html.includes('name="scope"')) {
      outcome.offered = offeredScopes(page.html);
      step = traveler.deny
        ? await browser.submit(page, '/deny', {})
        : await browser.submit(page, '/consent', { scope: traveler.allow ? traveler.allow(outcome.offered) : outcome.offered });
    } else {
      outcome.stoppedAt = page;
      return outcome;
    }
  }
  if (isPage(step)) {
    outcome.stoppedAt = step;
    return outcome;
  }
  outcome.redirectedTo = new URL(step.redirectedTo);
  return outcome;
}

/** The whole flow, then the code exchange; returns the token response. */
export async function authorize(
  running: RunningService,
  config: oauth.Configuration,
  options: { redirectUri: string; scope?: string; traveler: Traveler; browser?: TestBrowser; extra?: Record<string, string> },
) {
  const browser = options.browser ?? new TestBrowser(new URL(running.config.authUrl).origin);
  const authorization = await startAuthorization(config, options.redirectUri, options.scope, options.extra);
  const outcome = await travelerAuthorizes(running, browser, authorization.url, options.traveler);
  assert.ok(outcome.redirectedTo, `the flow did not return to the client: ${outcome.stoppedAt?.status} ${outcome.stoppedAt?.html}`);
  const tokens = await oauth.authorizationCodeGrant(config, outcome.redirectedTo, {
    pkceCodeVerifier: authorization.verifier,
    expectedState: authorization.state,
  });
  return { tokens, outcome, browser };
}

export function uniqueEmail(label = 'traveler'): string {
  return `${label}.${Math.random().toString(36).slice(2, 10)}@example.com`;
}

/** A partner with an API key, and an access token of a new traveler of its client with `scope`. */
export async function partnerWithTraveler(running: RunningService, name: string, scope: string, planId?: string): Promise<PartnerClient & { token: string }> {
  const partner = await createPartnerClient(running, name, planId);
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope, traveler: { email: uniqueEmail() } });
  return { ...partner, token: tokens.access_token };
}

/** The traveler an access token stands for (its `custom:user_id` claim). */
export function userIdOf(accessToken: string): string {
  return decodeJwt(accessToken)['custom:user_id'] as string;
}

/** The e-mail page of a new sign-in of `config`'s client, in a browser of its own. */
export async function openSignInPage(running: RunningService, config: oauth.Configuration, redirectUri: string): Promise<{ page: Page; pageBrowser: TestBrowser }> {
  const pageBrowser = new TestBrowser(new URL(running.config.authUrl).origin);
  const authorization = await startAuthorization(config, redirectUri, 'profile.read');
  const page = await pageBrowser.open(authorization.url.href);
  if (!isPage(page) || page.status !== 200) throw new Error('the sign-in page did not open');
  return { page, pageBrowser };
}
