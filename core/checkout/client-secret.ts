/**
 * A checkout session's client secret: what opens the session's hosted page, carried in the URL fragment
 * and sent by the page's script in a header (decisions §12). 256 random bits after the session's id, so
 * that a secret says which session it opens. Only a SHA-256 digest is stored: a secret this random needs
 * no salt or slow hash to resist guessing, and a database read never yields a working secret.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_BYTES = 32;

export function mintClientSecret(sessionId: string): string {
  return `cs_${sessionId.replaceAll('-', '')}_secret_${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

export function clientSecretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** In constant time: how much of a wrong secret was right never shows in how long the answer took. */
export function clientSecretMatches(secret: string, digest: Buffer): boolean {
  const given = clientSecretDigest(secret);
  return given.length === digest.length && timingSafeEqual(given, digest);
}
