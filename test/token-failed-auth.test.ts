/**
 * Wrong client secrets at the token endpoint (client_secret_basic or client_secret_post) are counted like
 * bad API keys, per client id from one network and per network: past a budget, 429 with an OAuth-style
 * body and `Retry-After`, before the library checks any secret. A client whose right secret has verified
 * still gets its tokens from that network; another network is not refused. Behind a trusted proxy
 * (TRUST_PROXY), so that each test speaks from networks of its own.
 */
import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { basic, connect, createAirline, type Airline } from './helpers/identity.js';
import { jsonOf } from './helpers/http.js';
import { PARTNER_REDIRECT, registerPublicClient, startAuthorization, travelerAuthorizes, uniqueEmail } from './helpers/oauth.js';
import { TestBrowser } from './helpers/browser.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

/** The documented budgets (README, API keys): per network, and per credential from one network. */
const PER_NETWORK = 30;
const PER_CREDENTIAL = 10;

let running: RunningService;

test.before(async () => {
  running = await startService({ TRUST_PROXY: '1' }, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

type ClientAuth = { basic: [string, string] } | { post: [string, string] } | { none: string };

function tokenRequest(from: string, auth: ClientAuth, params: Record<string, string>) {
  const form = new URLSearchParams(params);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from };
  if ('basic' in auth) headers.authorization = basic(...auth.basic);
  if ('post' in auth) {
    form.set('client_id', auth.post[0]);
    form.set('client_secret', auth.post[1]);
  }
  if ('none' in auth) form.set('client_id', auth.none);
  return fetch(`${running.url}/v1/oauth/token`, { method: 'POST', headers, body: form.toString() });
}

const BOGUS_CODE = { grant_type: 'authorization_code', code: 'not-a-code', redirect_uri: PARTNER_REDIRECT, code_verifier: 'v'.repeat(43) };

/** A traveler's consent to `airline`, up to the code: the exchange is the test's to make. */
async function codeFor(airline: Airline): Promise<Record<string, string>> {
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const authorization = await startAuthorization(airline.config, PARTNER_REDIRECT, 'profile.read');
  const outcome = await travelerAuthorizes(running, browser, authorization.url, { email: uniqueEmail() });
  const code = outcome.redirectedTo?.searchParams.get('code');
  if (!code) throw new Error('the flow gave no code');
  return { grant_type: 'authorization_code', code, redirect_uri: PARTNER_REDIRECT, code_verifier: authorization.verifier };
}

async function assertRefused(t: ExecutionContext, response: Response): Promise<void> {
  t.is(response.status, 429);
  const body = await jsonOf(response);
  t.is(body.error, 'too_many_failed_attempts');
  t.regex(body.error_description, /retry after \d+ s/i, 'the description says what to do');
  t.regex(response.headers.get('retry-after') ?? '', /^\d+$/);
  t.is(response.headers.get('cache-control'), 'no-store');
}

test('wrong secrets for one client from one network: 429 past the budget, Basic or post alike; the right secret still gets tokens', async (t) => {
  const network = '203.0.113.7';
  const airline = await createAirline(running);
  // The airline has exchanged a code before: its right secret is known to be right.
  await connect(running, airline, 'profile.read');

  for (let attempt = 0; attempt < PER_CREDENTIAL; attempt++) {
    const auth: ClientAuth = attempt % 2 ? { basic: [airline.clientId, 'wrong'] } : { post: [airline.clientId, 'wrong'] };
    const answer = await tokenRequest(network, auth, BOGUS_CODE);
    t.is(answer.status, 401, `attempt ${attempt + 1}`);
    t.like(await jsonOf(answer), { error: 'invalid_client' });
  }
  await assertRefused(t, await tokenRequest(network, { basic: [airline.clientId, 'wrong'] }, BOGUS_CODE));
  await assertRefused(t, await tokenRequest(network, { post: [airline.clientId, 'wrong'] }, BOGUS_CODE));

  // The right secret, from the same address, still gets its tokens.
  const exchanged = await tokenRequest(network, { basic: [airline.clientId, airline.clientSecret] }, await codeFor(airline));
  t.is(exchanged.status, 200);
  const tokens = await jsonOf(exchanged);
  t.is(typeof tokens.access_token, 'string');
  t.is(typeof tokens.svc_guid, 'string');
  // Another network's wrong secret is checked, not refused.
  t.is((await tokenRequest('192.0.2.30', { basic: [airline.clientId, 'wrong'] }, BOGUS_CODE)).status, 401);
});

test('made-up client ids with secrets from one network: 429 past the network budget; known clients and public clients go on', async (t) => {
  const network = '198.51.100.';
  const airline = await createAirline(running);
  await connect(running, airline, 'profile.read');
  const agent = await registerPublicClient(running);
  for (let attempt = 0; attempt < PER_NETWORK; attempt++) {
    const answer = await tokenRequest(`${network}${attempt + 1}`, { post: [randomUUID(), 'guess'] }, BOGUS_CODE);
    t.is(answer.status, 401, `attempt ${attempt + 1}`);
  }
  await assertRefused(t, await tokenRequest(`${network}99`, { basic: [randomUUID(), 'guess'] }, BOGUS_CODE));

  // The airline's right secret reaches the library: authenticated, then its (bogus) code is refused.
  const known = await tokenRequest(`${network}99`, { basic: [airline.clientId, airline.clientSecret] }, BOGUS_CODE);
  t.is(known.status, 400);
  t.like(await jsonOf(known), { error: 'invalid_grant' });
  // A public client presents no secret, so it guesses none: its requests are not refused for the network's.
  const publicClient = await tokenRequest(`${network}99`, { none: agent.clientMetadata().client_id }, BOGUS_CODE);
  t.is(publicClient.status, 400);
  t.like(await jsonOf(publicClient), { error: 'invalid_grant' });
});
