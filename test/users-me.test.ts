/**
 * A traveler route end to end: the partner's key and the traveler's token, verified locally (signature,
 * issuer, audience, expiry), the route's scope, and the OAuth challenges when any of them fails.
 * Tokens are signed here with the service's own key set, as its authorization server signs them, to reach
 * cases the real flow cannot (expired, foreign issuer); the oauth-* tests use tokens from the flow itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let apiKey: string;
let partnerId: string;
let userId: string;
let signingKey: JWK;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  const partner = await running.service.partners.createPartner({ name: 'Traveler app' });
  apiKey = partner.api_key;
  partnerId = partner.partner_id;
  const [row] = await running.service.db
    .knex('users')
    .insert({ email: 'Ada.Lovelace@example.com', first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1990-12-10' })
    .returning('id');
  userId = row.id;
  const jwks = JSON.parse(fs.readFileSync(path.join(running.config.dataDir, 'keys', 'jwks.json'), 'utf8'));
  signingKey = jwks.keys[0];
});
test.after.always(async () => {
  await running?.close();
});

const now = () => Math.floor(Date.now() / 1000);

async function token(claims: JWTPayload = {}): Promise<string> {
  return new SignJWT({
    iss: running.config.authUrl,
    aud: running.config.baseUrl,
    sub: 'pairwise',
    exp: now() + 900,
    iat: now(),
    jti: 'j1',
    'custom:user_id': userId,
    client_id: 'client-1',
    // A client of the key's partner: a REST token of no partner (an agent's) is refused (decisions §13).
    partner_id: partnerId,
    scope: 'openid profile.read',
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: signingKey.kid })
    .sign(await importJWK(signingKey, 'RS256'));
}

function me(headers: Record<string, string>) {
  return fetch(`${running.url}/v1/users/me`, { headers });
}

test('the key and a token with profile.read give the traveler', async (t) => {
  const response = await me({ 'x-api-key': apiKey, authorization: `Bearer ${await token()}` });
  t.is(response.status, 200);
  const user = await jsonOf(response);
  t.like(user, { id: userId, email: 'Ada.Lovelace@example.com', first_name: 'Ada', date_of_birth: '1990-12-10', phone_number: null });
  t.regex(user.created_at, /^\d{4}-\d\d-\d\dT/);
});

test('a legacy token is authorized by the traveler\'s own rights; a token with no scope is not', async (t) => {
  const legacy = await me({ 'x-api-key': apiKey, authorization: `Bearer ${await token({ scope: undefined, legacy: true })}` });
  t.is(legacy.status, 200);
  const empty = await me({ 'x-api-key': apiKey, authorization: `Bearer ${await token({ scope: undefined, jti: 'j-empty' })}` });
  t.is(empty.status, 403);
  t.like(await jsonOf(empty), { error: 'insufficient_scope', scope: 'profile.read' });
});

test('without a token: 401 invalid_token with the Bearer challenge, in the OAuth envelope', async (t) => {
  const response = await me({ 'x-api-key': apiKey });
  t.is(response.status, 401);
  t.regex(response.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token", error_description="/);
  const body = await jsonOf(response);
  t.like(body, { error: 'invalid_token', code: 'invalid_token' });
  t.regex(body.error_description, /Authorization: Bearer/);
});

test('expired, foreign-audience and tampered tokens are 401 invalid_token', async (t) => {
  const good = await token({ 'custom:user_id': '00000000-0000-4000-8000-000000000001' });
  const [header, payload, signature] = good.split('.') as [string, string, string];
  // Only the traveler is changed: every other claim stays valid, so only the signature can refuse it.
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), 'custom:user_id': userId })).toString('base64url');
  for (const candidate of [await token({ exp: now() - 60 }), await token({ aud: 'https://elsewhere.example' }), `${header}.${forged}.${signature}`]) {
    const response = await me({ 'x-api-key': apiKey, authorization: `Bearer ${candidate}` });
    t.is(response.status, 401);
    t.like(await jsonOf(response), { error: 'invalid_token' });
  }
});

test('a token without the route\'s scope: 403 insufficient_scope naming it, in body and challenge', async (t) => {
  const response = await me({ 'x-api-key': apiKey, authorization: `Bearer ${await token({ scope: 'bookings.read profile.write' })}` });
  t.is(response.status, 403);
  t.regex(response.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="profile.read"/);
  t.like(await jsonOf(response), { error: 'insufficient_scope', scope: 'profile.read', code: 'insufficient_scope' });
});

test('the API key is still required, and checked first', async (t) => {
  const response = await me({ authorization: `Bearer ${await token()}` });
  t.is(response.status, 401);
  t.like(await jsonOf(response), { code: 'api_key_missing' });
});

test('a token for a traveler who no longer exists is a 404', async (t) => {
  const response = await me({
    'x-api-key': apiKey,
    authorization: `Bearer ${await token({ 'custom:user_id': '00000000-0000-4000-8000-000000000000' })}`,
  });
  t.is(response.status, 404);
  t.like(await jsonOf(response), { code: 'user_not_found' });
});

test('the OpenAPI document shows both schemes and the route\'s scope', async (t) => {
  const doc = await jsonOf(await fetch(`${running.url}/openapi.json`));
  const operation = doc.paths['/v1/users/me'].get;
  t.deepEqual(operation.security, [{ ApiKey: [], OAuth2: ['profile.read'] }]);
  const flow = doc.components.securitySchemes.OAuth2.flows.authorizationCode;
  t.is(flow.tokenUrl, `${running.config.authUrl}/v1/oauth/token`);
  t.deepEqual(Object.keys(flow.scopes).length, 10);
  t.truthy(doc.components.schemas.User);
  t.truthy(doc.components.schemas.OAuthErrorResponse);
});
