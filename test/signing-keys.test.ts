import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { KeyConfigurationError, loadSigningKeys } from '../authz/keys.js';
import { tempDir } from './helpers/service.js';

const development = (dataDir: string) => ({ jwksPath: undefined, cookieKeys: undefined, dataDir, production: false });

test('development keys are generated once into DATA_DIR/keys, owner-only, and reused', async (t) => {
  const dataDir = tempDir('tp-keys-');
  const first = await loadSigningKeys(development(dataDir));
  const second = await loadSigningKeys(development(dataDir));
  t.deepEqual(second, first);
  const [key] = first.jwks.keys as [JWK];
  t.like(key, { kty: 'RSA', alg: 'RS256', use: 'sig' });
  t.truthy(key.d, 'a private key');
  t.truthy(key.kid);
  t.is(first.cookieKeys.length, 1);
  t.true((first.cookieKeys[0] as string).length >= 32);
  for (const file of ['jwks.json', 'cookie-keys.json']) {
    t.is(fs.statSync(path.join(dataDir, 'keys', file)).mode & 0o777, 0o600, file);
  }

  // The key signs RS256 tokens that its public half verifies.
  const token = await new SignJWT({ sub: 'traveler' }).setProtectedHeader({ alg: 'RS256', kid: key.kid }).sign(await importJWK(key, 'RS256'));
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicKey } = key;
  const { payload } = await jwtVerify(token, await importJWK(publicKey, 'RS256'));
  t.is(payload.sub, 'traveler');
});

test('instances starting together on one data directory end up with the same keys', async (t) => {
  const dataDir = tempDir('tp-keys-');
  const [a, b, c] = await Promise.all([1, 2, 3].map(() => loadSigningKeys(development(dataDir))));
  t.deepEqual(a, b);
  t.deepEqual(b, c);
  t.deepEqual(fs.readdirSync(path.join(dataDir, 'keys')).sort(), ['cookie-keys.json', 'data-encryption-keys.json', 'jwks.json']);
});

test('configured keys are used as given, and a bad key set is refused', async (t) => {
  const dataDir = tempDir('tp-keys-');
  const generated = await loadSigningKeys(development(dataDir));
  const jwksPath = path.join(dataDir, 'given.json');
  fs.writeFileSync(jwksPath, JSON.stringify(generated.jwks));
  const cookieKeys = ['k'.repeat(32)];
  const dataEncryptionKeys = [Buffer.alloc(32, 1).toString('base64')];
  const configured = await loadSigningKeys({ jwksPath, cookieKeys, dataEncryptionKeys, dataDir: tempDir('tp-keys-'), production: true });
  t.deepEqual(configured, { jwks: generated.jwks, cookieKeys, dataEncryptionKeys });
  await t.throwsAsync(loadSigningKeys({ jwksPath, cookieKeys, dataDir, production: true }), { instanceOf: KeyConfigurationError });

  const publicOnly = path.join(dataDir, 'public.json');
  const { d: _d, ...withoutPrivate } = generated.jwks.keys[0] as JWK;
  fs.writeFileSync(publicOnly, JSON.stringify({ keys: [withoutPrivate] }));
  await t.throwsAsync(loadSigningKeys({ jwksPath: publicOnly, cookieKeys, dataEncryptionKeys, dataDir, production: true }), {
    instanceOf: KeyConfigurationError,
    message: /private RSA key/,
  });
  await t.throwsAsync(loadSigningKeys({ jwksPath: undefined, cookieKeys, dataDir, production: true }), {
    instanceOf: KeyConfigurationError,
  });
});
