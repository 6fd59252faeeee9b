/**
 * The authorization-code flow with PKCE end to end: openid-client as the client, the hosted pages as the
 * traveler sees them, the code from the mail sandbox, tokens checked against the specification.
 */
import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { decodeJwt } from 'jose';
import { startService, type RunningService } from './helpers/service.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, registerPublicClient, uniqueEmail } from './helpers/oauth.js';

let running: RunningService;

test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

test('a new traveler signs in with a 6-digit code, and a returning one with 8', async (t) => {
  const agent = await registerPublicClient(running);
  const email = uniqueEmail('new');
  const first = await authorize(running, agent, { redirectUri: 'http://localhost:53682/callback', scope: 'profile.read', traveler: { email } });
  t.is(first.outcome.codeDigits, 6);
  t.deepEqual(first.outcome.offered, ['profile.read']);
  const user = await running.service.db.knex('users').whereRaw('lower(email) = ?', [email]).first();
  t.truthy(user, 'the account was created on success');

  const again = await authorize(running, agent, { redirectUri: 'http://localhost:53682/callback', scope: 'profile.read', traveler: { email } });
  t.is(again.outcome.codeDigits, 8);
  t.is(again.outcome.offered, undefined, 'nothing new to consent to: no consent screen');

  const claims = decodeJwt(again.tokens.access_token);
  t.is(claims['custom:user_id'], user.id);
  t.is(claims.email, email);
  t.is(claims.sub, user.id);
  t.is(claims.client_id, agent.clientMetadata().client_id);
  t.is(claims.aud, `${running.config.baseUrl}/v1/mcp`, 'an agent asking for no resource gets the tool endpoint (decisions §13)');
  t.is(claims.scope, 'profile.read');
  t.truthy(claims.jti);
  t.is((claims.exp as number) - (claims.iat as number), 900);
  t.true('phone_number' in claims);
  t.is(again.tokens.expires_in, 900);
  t.is(again.tokens.token_type.toLowerCase(), 'bearer');
  t.is(again.tokens.scope, 'profile.read');
  t.truthy(again.tokens.refresh_token);
  t.regex(String(again.tokens.svc_guid), /^[0-9a-f-]{36}$/);
  t.is(again.tokens.svc_guid, first.tokens.svc_guid, 'the pairwise id is stable for this traveler and client');
});

test('a partner client authorizes with Basic credentials and gets a token for /v1/users/me', async (t) => {
  const partner = await createPartnerClient(running);
  const client = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const email = uniqueEmail('partner');
  const { tokens } = await authorize(running, client, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read passengers.read', traveler: { email } });
  const me = await fetch(`${running.url}/v1/users/me`, { headers: { 'x-api-key': partner.apiKey, authorization: `Bearer ${tokens.access_token}` } });
  t.is(me.status, 200);
  t.is((await jsonOf(me)).email, email);
});
