/**
 * CSRF protection for the hosted pages' forms: a token bound to the sign-in attempt, an HMAC under the
 * cookie keys. A form posted from elsewhere cannot know it; a token of another attempt does not match.
 * Keys rotate like the cookie keys: the first signs, every one verifies.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export class CsrfTokens {
  readonly #keys: readonly string[];

  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new Error('CSRF tokens need at least one key');
    this.#keys = keys;
  }

  issue(attemptId: string): string {
    return mac(this.#keys[0] as string, attemptId);
  }

  verify(attemptId: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0) return false;
    const given = Buffer.from(token);
    return this.#keys.some((key) => {
      const expected = Buffer.from(mac(key, attemptId));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }
}

function mac(key: string, attemptId: string): string {
  return createHmac('sha256', key).update(`csrf:${attemptId}`).digest('base64url');
}
