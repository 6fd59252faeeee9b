import test from 'ava';
import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { BearerVerifier } from '../authz/bearer-verifier.js';
import { loadSigningKeys } from '../authz/keys.js';
import type { Clock } from '../core/clock.js';
import { UnauthenticatedError } from '../core/errors.js';
import { tempDir } from './helpers/service.js';

const ISSUER = 'http://localhost:8080';
const API = 'http://localhost:8080/v1';
let now = new Date('2026-11-22T10:00:00Z');
const clock: Clock = { now: () => now };
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

async function setup() {
  const { jwks } = await loadSigningKeys({ jwksPath: undefined, cookieKeys: undefined, dataDir: tempDir('tp-bearer-'), production: false });
  const privateKey = jwks.keys[0] as JWK;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicKey } = privateKey;
  const verifier = new BearerVerifier({ jwks: { keys: [publicKey] }, issuer: ISSUER, audiences: [API], clock });
  const sign = async (claims: JWTPayload, header: { kid?: string } = {}, key: JWK = privateKey) =>
    new SignJWT({
      iss: ISSUER,
      aud: API,
      sub: 'pairwise-sub',
      jti: 'jti-1',
      iat: seconds(now),
      exp: seconds(now) + 900,
      'custom:user_id': 'user-1',
      client_id: 'client-1',
      scope: 'profile.read bookings.write',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: header.kid ?? privateKey.kid })
      .sign(await importJWK(key, 'RS256'));
  return { verifier, sign };
}

test.serial('a valid token gives the actor, and is remembered until it expires', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const { verifier, sign } = await setup();
  const token = await sign({});
  const actor = await verifier.verify(token);
  t.like(actor, { userId: 'user-1', clientId: 'client-1', tokenId: 'jti-1', expiresAt: seconds(now) + 900 });
  t.deepEqual([...(actor.scopes ?? [])], ['profile.read', 'bookings.write']);
  t.is(await verifier.verify(token), actor, 'the second check is answered from memory');

  now = new Date('2026-11-22T10:15:00Z');
  const error = await t.throwsAsync(verifier.verify(token), { instanceOf: UnauthenticatedError });
  t.is(error.code, 'invalid_token');
  t.regex(error.message, /expired/);
});

test.serial('only a token marked legacy is legacy (scopes null); a token without scope has none', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const { verifier, sign } = await setup();
  t.is((await verifier.verify(await sign({ scope: undefined, legacy: true }))).scopes, null);
  t.true((await verifier.verify(await sign({ scope: undefined, legacy: true, admin: true, jti: 'ja' }))).isAdmin);
  t.false((await verifier.verify(await sign({ scope: 'profile.read', admin: true, jti: 'jb' }))).isAdmin, 'a scoped token carries no admin rights');
  t.false((await verifier.verify(await sign({ scope: undefined, legacy: true, jti: 'jc' }))).isAdmin);
  t.deepEqual([...((await verifier.verify(await sign({ scope: undefined, jti: 'j2' }))).scopes ?? ['?'])], []);
});

test.serial('wrong audience, wrong issuer, another key, tampering, missing claims: invalid_token', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const { verifier, sign } = await setup();
  const other = await loadSigningKeys({ jwksPath: undefined, cookieKeys: undefined, dataDir: tempDir('tp-bearer-'), production: false });
  const good = await sign({});
  const [header, payload, signature] = good.split('.') as [string, string, string];
  const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), 'custom:user_id': 'admin' })).toString('base64url');
  const candidates = {
    audience: await sign({ aud: 'http://localhost:8080/v1/mcp' }),
    issuer: await sign({ iss: 'https://evil.example' }),
    key: await sign({}, { kid: (other.jwks.keys[0] as JWK).kid }, other.jwks.keys[0] as JWK),
    tampered: `${header}.${forgedPayload}.${signature}`,
    noUser: await sign({ 'custom:user_id': undefined }),
    garbage: 'not.a.jwt',
    none: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`,
  };
  for (const [name, token] of Object.entries(candidates)) {
    const error = await t.throwsAsync(verifier.verify(token), { instanceOf: UnauthenticatedError }, name);
    t.is(error?.code, 'invalid_token', name);
  }
});
