/**
 * The API key format: `tpk_<12 hex>_<43 base64url>`. The first part (`tpk_<12 hex>`) is the visible
 * prefix that finds the row and can be shown in lists and logs of the admin; the rest is a 256-bit
 * secret. Only sha256(key) is stored: a random 256-bit secret needs no slow hash, and a fast one keeps
 * the check off the request's critical path.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PATTERN = /^(tpk_[0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

export interface NewApiKey {
  prefix: string;
  apiKey: string;
  secretHash: Buffer;
}

export function generateApiKey(): NewApiKey {
  const prefix = `tpk_${randomBytes(6).toString('hex')}`;
  const apiKey = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { prefix, apiKey, secretHash: hashApiKey(apiKey) };
}

export function hashApiKey(apiKey: string): Buffer {
  return hash('sha256', apiKey, 'buffer');
}

/** The prefix of a well-formed key, or undefined for anything else. */
export function prefixOf(apiKey: string): string | undefined {
  return KEY_PATTERN.exec(apiKey)?.[1];
}

export function matchesHash(apiKey: string, storedHash: Buffer): boolean {
  const candidate = hashApiKey(apiKey);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}
