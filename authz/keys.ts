/**
 * The authorization server's secrets: the RS256 key set that signs tokens and the keys that sign its
 * cookies. Every instance must hold the same ones, so in production they come from configuration
 * (JWKS_PATH, COOKIE_KEYS) and the service refuses to start without them. In development and tests they
 * are generated once into DATA_DIR/keys (readable by the owner only) and reused at every start.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

export interface SigningKeys {
  /** Private JWKs (RS256) for oidc-provider's `jwks`; the first signs. */
  jwks: { keys: JWK[] };
  /** Cookie signing keys, newest first (older ones still verify, for rotation). */
  cookieKeys: string[];
  /** AES-256-GCM keys for secrets at rest, newest first (see core/crypto/secret-box.ts). */
  dataEncryptionKeys: string[];
}

export interface KeySources {
  jwksPath: string | undefined;
  cookieKeys: string[] | undefined;
  dataEncryptionKeys?: string[] | undefined;
  dataDir: string;
  production: boolean;
}

export class KeyConfigurationError extends Error {}

export async function loadSigningKeys(sources: KeySources): Promise<SigningKeys> {
  // config.ts already refuses to start production without them; this guards other callers.
  if (sources.production && (!sources.jwksPath || !sources.cookieKeys || !sources.dataEncryptionKeys)) {
    throw new KeyConfigurationError('In production JWKS_PATH, COOKIE_KEYS and DATA_ENCRYPTION_KEY are required.');
  }
  const keyDir = path.join(sources.dataDir, 'keys');
  const jwks = sources.jwksPath ? readJwks(sources.jwksPath) : await generatedOnce(path.join(keyDir, 'jwks.json'), newJwks);
  const cookieKeys = sources.cookieKeys ?? (await generatedOnce(path.join(keyDir, 'cookie-keys.json'), newCookieKeys));
  const dataEncryptionKeys =
    sources.dataEncryptionKeys ?? (await generatedOnce(path.join(keyDir, 'data-encryption-keys.json'), newDataEncryptionKeys));
  return { jwks, cookieKeys, dataEncryptionKeys };
}

/** The public half of a private key set, as published at the JWKS endpoint and used to verify. */
export function publicKeySet(jwks: { keys: JWK[] }): { keys: JWK[] } {
  return { keys: jwks.keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })) };
}

function readJwks(file: string): { keys: JWK[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new KeyConfigurationError(`JWKS_PATH ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new KeyConfigurationError(`JWKS_PATH ${file} holds no "keys".`);
  for (const key of keys as JWK[]) {
    if (key.kty !== 'RSA' || !key.d || !key.kid) {
      throw new KeyConfigurationError(`JWKS_PATH ${file}: every key must be a private RSA key with a "kid" (RS256).`);
    }
  }
  return { keys: keys as JWK[] };
}

async function newJwks(): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { keys: [{ ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' }] };
}

async function newCookieKeys(): Promise<string[]> {
  return [randomBytes(32).toString('base64url')];
}

async function newDataEncryptionKeys(): Promise<string[]> {
  return [randomBytes(32).toString('base64')];
}

/** Reads `file`, or creates it with `make()` (owner-only) the first time. */
async function generatedOnce<T>(file: string, make: () => Promise<T>): Promise<T> {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = await make();
  // Written aside, then linked into place: the file appears whole or not at all, and if another process
  // created it meanwhile, theirs is kept.
  const draft = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(draft, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}
