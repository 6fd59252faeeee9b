/**
 * The service's own first-party client: the Connected apps page (and the sandbox's demo pages) sign the
 * traveler in through the same hosted pages as any client, as this client. It never gets a consent
 * screen and never appears among the traveler's connected apps.
 */
import { createHash, randomBytes } from 'node:crypto';

export const ACCOUNT_CLIENT_ID = 'travel-partner-account';

/** Where the traveler signs out of the hosted pages (the Connected apps page and the consent page). */
export const SIGN_OUT_PATH = '/account/sign-out';

/** What the CSRF tokens of the session's own forms (sign out, connected apps) are issued for. */
export const SESSION_CSRF_PURPOSE = 'account';

/**
 * An authorization request of the account client. Its PKCE verifier is thrown away: the code it yields
 * is never exchanged (the sign-in itself sets the session this page needs) and cannot be by anyone.
 * `returnPath`, a page of ours, rides in `state` and /account/signed-in goes there afterwards.
 */
export function accountSignInUrl(authUrl: string, returnPath = DEFAULT_RETURN_PATH): string {
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: ACCOUNT_CLIENT_ID,
    redirect_uri: `${authUrl}/account/signed-in`,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: `${randomBytes(8).toString('base64url')}.${returnPath}`,
  });
  return `${authUrl}/?${query}`;
}

const DEFAULT_RETURN_PATH = '/account/apps';
/**
 * A path of this site, and nothing else: lowercase segments, so never `//host`, `/\host`, a scheme or
 * a query. Anyone can write a link to /account/signed-in with any state: it leads to a page of ours or
 * to the Connected apps page, never elsewhere.
 */
const RETURN_PATH = /^(?:\/[a-z0-9-]+)+$/;

export function returnPathOf(state: unknown): string {
  const path = typeof state === 'string' ? state.slice(state.indexOf('.') + 1) : '';
  return state !== path && RETURN_PATH.test(path) ? path : DEFAULT_RETURN_PATH;
}
