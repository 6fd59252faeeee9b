/**
 * The API key formats: a secret key `tpk_<12 hex>_<43 base64url>`, and a publishable key (decisions §12)
 * `pk_test_<12 hex>_<43 base64url>` in sandbox mode or `pk_live_...` in production. The part before the
 * last `_` (`tpk_<12 hex>`, `pk_test_<12 hex>`) is the visible prefix that finds the row and can be shown
 * in lists and logs of the admin; the rest is a 256-bit secret. Only sha256(key) is stored: a random
 * 256-bit secret needs no slow hash, and a fast one keeps the check off the request's critical path.
 *
 * A publishable key is meant to be seen (it sits in a partner's page), yet it is stored and checked exactly
 * like a secret one: what limits it is where it works (the checkout's routes, from its origins), not
 * secrecy. Its prefix keeps the mode, so a key of one mode is told apart at a glance and refused by a
 * service of the other.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PATTERN = /^((?:tpk|pk_test|pk_live)_[0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

export type ApiKeyKind = 'secret' | 'publishable';
/** `test`: a publishable key of a sandbox-mode service; `live`: of a production one. */
export type KeyMode = 'test' | 'live';

export interface NewApiKey {
  prefix: string;
  apiKey: string;
  secretHash: Buffer;
}

export function generateApiKey(): NewApiKey {
  return keyWithPrefix('tpk');
}

export function generatePublishableKey(mode: KeyMode): NewApiKey {
  return keyWithPrefix(`pk_${mode}`);
}

function keyWithPrefix(kind: string): NewApiKey {
  const prefix = `${kind}_${randomBytes(6).toString('hex')}`;
  const apiKey = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { prefix, apiKey, secretHash: hashApiKey(apiKey) };
}

/** The mode a publishable key's prefix names; undefined for a secret key's. */
export function modeOf(prefix: string): KeyMode | undefined {
  return prefix.startsWith('pk_test_') ? 'test' : prefix.startsWith('pk_live_') ? 'live' : undefined;
}

export function hashApiKey(apiKey: string): Buffer {
  // The same 32 bytes as hash(..., 'buffer') ('binary' is latin1: one character a byte), at a third of its
  // cost: that output is slow to make (Node 24: ~5 µs against ~1.5 µs), and every keyed request hashes once.
  return Buffer.from(hash('sha256', apiKey, 'binary'), 'binary');
}

/** The prefix of a well-formed key, or undefined for anything else. */
export function prefixOf(apiKey: string): string | undefined {
  return KEY_PATTERN.exec(apiKey)?.[1];
}

export function matchesHash(apiKey: string, storedHash: Buffer): boolean {
  const candidate = hashApiKey(apiKey);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}
