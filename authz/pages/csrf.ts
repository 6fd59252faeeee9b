/**
 * CSRF protection for the hosted pages' forms: an HMAC under the cookie keys of the sign-in attempt and
 * of the browser's own binding to it (the value of the interaction cookie that oidc-provider set in that
 * browser). A page posted from another site does not know it, and a token lifted from one browser is
 * useless in another, so an attacker cannot push a victim's browser through the attacker's own sign-in.
 * Handlers still resolve the attempt with oidc-provider's interactionDetails, which checks that cookie.
 * Keys rotate like the cookie keys: the first signs, every one verifies.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export class CsrfTokens {
  readonly #keys: readonly string[];

  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new Error('CSRF tokens need at least one key');
    this.#keys = keys;
  }

  issue(attemptId: string, browserBinding: string): string {
    return mac(this.#keys[0] as string, attemptId, browserBinding);
  }

  verify(attemptId: string, browserBinding: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0 || browserBinding === '') return false;
    const given = Buffer.from(token);
    return this.#keys.some((key) => {
      const expected = Buffer.from(mac(key, attemptId, browserBinding));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }
}

function mac(key: string, attemptId: string, browserBinding: string): string {
  return createHmac('sha256', key).update(`csrf\n${attemptId}\n${browserBinding}`).digest('base64url');
}
