/**
 * Resource indicators (RFC 8707) in one canonical form: a served resource written with a trailing slash
 * (`http://host/`, `http://host//`, `.../v1/mcp/`) or an upper-case scheme or host names that resource, at the
 * authorization endpoint and at the token endpoint alike. Before, such a request looped between
 * `/interaction` and `/` forever, writing a new session at each hop (and a cross-site link could start it).
 */
import test from 'ava';
import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { hostileText } from './helpers/hostile.js';
import { AGENT_REDIRECT, clientIdOf } from './helpers/consent.js';
import { jsonOf } from './helpers/http.js';
import { TestBrowser } from './helpers/browser.js';
import {
  authorize,
  clientFor,
  createPartnerClient,
  oauth,
  PARTNER_REDIRECT,
  registerPublicClient,
  startAuthorization,
  uniqueEmail,
  userIdOf,
  type PartnerClient,
} from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partner: PartnerClient;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  partner = await createPartnerClient(running, 'Slash Air');
});
test.after.always(async () => {
  await running?.close();
});

/** Follows our redirects by hand from `url`, counting them, until the client's redirect or a page. */
async function follow(browser: TestBrowser, url: string, limit = 10): Promise<{ hops: number; redirectedTo?: URL; status?: number }> {
  const origin = new URL(running.config.authUrl).origin;
  let current = url;
  for (let hops = 0; hops <= limit; hops++) {
    const response = await fetch(current, { redirect: 'manual', headers: { cookie: browser.cookieHeader(new URL(current).pathname), accept: 'text/html' } });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return { hops, status: response.status };
    const next = new URL(location, current);
    if (next.origin !== origin) return { hops: hops + 1, redirectedTo: next };
    current = next.href;
  }
  return { hops: Infinity };
}

async function exchange(redirectedTo: URL, verifier: string, clientId: string, resource: string, secret?: string) {
  return fetch(`${running.config.authUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(secret ? { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` } : {}),
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: redirectedTo.searchParams.get('code') as string,
      redirect_uri: secret ? PARTNER_REDIRECT : AGENT_REDIRECT,
      code_verifier: verifier,
      resource,
      ...(secret ? {} : { client_id: clientId }),
    }),
  });
}

test('a signed-in traveler’s request naming the API with a trailing slash comes back with a code in at most two redirects, and the token is for the canonical API', async (t) => {
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', browser, traveler: { email: uniqueEmail('slash') } });
  const sessionsOf = () => running.service.db.knex('oidc_models').where({ kind: 'Session', account_id: userIdOf(tokens.access_token) }).count('* as n').first();
  for (const resource of [`${running.url}/`, `${running.url}//`, `${running.url.replace('http:', 'HTTP:')}/`]) {
    const sessionsBefore = await sessionsOf();
    t.true(Number(sessionsBefore?.n) >= 1, 'the traveler’s session is counted');
    const authorization = await startAuthorization(config, PARTNER_REDIRECT, 'profile.read', { resource });
    const outcome = await follow(browser, authorization.url.href);
    t.true(outcome.hops <= 2, `${resource}: ${outcome.hops} redirects`);
    t.truthy(outcome.redirectedTo?.searchParams.get('code'), `${resource}: a code (${outcome.redirectedTo?.search})`);
    const sessionsAfter = await sessionsOf();
    t.is(Number(sessionsAfter?.n), Number(sessionsBefore?.n), 'no new session was written');
    const tokens = await exchange(outcome.redirectedTo as URL, authorization.verifier, partner.clientId, resource, partner.clientSecret);
    t.is(tokens.status, 200, `${resource}: the same spelling at the token endpoint`);
    t.is(decodeJwt((await jsonOf(tokens)).access_token).aud, running.url, 'the audience is the canonical API');
  }
});

test('an agent naming the tool endpoint with a trailing slash gets a token for the tool endpoint, without a loop', async (t) => {
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const tool = `${running.url}/v1/mcp`;
  await authorize(running, agent, { redirectUri: AGENT_REDIRECT, scope: 'profile.read', browser, traveler: { email: uniqueEmail('slash-agent') }, extra: { resource: tool } });
  const authorization = await startAuthorization(agent, AGENT_REDIRECT, 'profile.read', { resource: `${tool}/` });
  const outcome = await follow(browser, authorization.url.href);
  t.true(outcome.hops <= 2, `${outcome.hops} redirects`);
  const tokens = await exchange(outcome.redirectedTo as URL, authorization.verifier, clientIdOf(agent), `${tool}/`);
  t.is(tokens.status, 200);
  t.is(decodeJwt((await jsonOf(tokens)).access_token).aud, tool);
});

test('a resource the service does not serve, or one with a query or fragment, is invalid_target at once', async (t) => {
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  for (const resource of [`${running.url}/v1`, `${running.url}/?a=1`, 'https://elsewhere.example/', `${running.url}/v1/mcp/x`]) {
    const authorization = await startAuthorization(config, PARTNER_REDIRECT, 'profile.read', { resource });
    const outcome = await follow(browser, authorization.url.href);
    t.true(outcome.hops <= 2, `${resource}: ${outcome.hops} redirects`);
    t.is(outcome.redirectedTo?.searchParams.get('error'), 'invalid_target', resource);
  }
});

test('any resource value, for a partner’s client or an agent, at the authorization and the token endpoint: never a loop, never a 5xx', async (t) => {
  const partnerConfig = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const agent = await registerPublicClient(running, AGENT_REDIRECT);
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  // Signed in and connected to both, so that a request goes as far as the consent prompt's checks.
  await authorize(running, partnerConfig, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', browser, traveler: { email: uniqueEmail('slash-property') } });
  const email = uniqueEmail('slash-property-agent');
  await authorize(running, agent, { redirectUri: AGENT_REDIRECT, scope: 'profile.read', browser: new TestBrowser(new URL(running.config.authUrl).origin), traveler: { email } });
  const spellings = fc.oneof(
    hostileText(),
    fc.constantFrom('', '/', '//', '///', '/v1/mcp', '/v1/mcp/', '/v1/mcp//', '/V1/MCP', '/v1', '/?x=1', '/#f', '/v1/mcp?x', '/%2f').map((path) => `${running.url}${path}`),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
  );
  await fc.assert(
    fc.asyncProperty(fc.boolean(), spellings, async (asAgent, resource) => {
      const config = asAgent ? agent : partnerConfig;
      const redirect = asAgent ? AGENT_REDIRECT : PARTNER_REDIRECT;
      const authorization = await startAuthorization(config, redirect, 'profile.read', { resource });
      const outcome = await follow(browser, authorization.url.href);
      if (!(outcome.hops <= 3) || (outcome.status ?? 200) >= 500) return false;
      const token = await fetch(`${running.config.authUrl}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'nothing', redirect_uri: redirect, code_verifier: 'v'.repeat(43), client_id: clientIdOf(config), resource }),
      });
      return token.status < 500;
    }),
    { numRuns: 60 },
  );
  t.pass();
});
