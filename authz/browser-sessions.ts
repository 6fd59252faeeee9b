/**
 * The traveler's first-party session on this browser (the cookie the hosted sign-in pages set), for the
 * pages of the account and for the browser components' API routes (decisions §8). The components' CSRF
 * tokens are bound to the session cookie, under a purpose of their own: a token of the Connected apps
 * page's forms does not open the API, nor the other way round. The same token opens every JSON API on the
 * session: the payment routes (the REST door) and the Connected apps API (/v1/apps).
 */
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import { accountSignInUrl } from './account-client.js';
import type { CsrfTokens } from './pages/csrf.js';

export interface SignedInBrowser {
  userId: string;
  /** The session cookie's value: what CSRF tokens of this session are bound to. */
  binding: string;
}

/** What the components' CSRF tokens are issued for. */
const COMPONENTS_CSRF_PURPOSE = 'components';

/** The CSRF token of this browser's session that the JSON APIs on it take in `x-csrf-token`. */
export function apiCsrfToken(csrf: CsrfTokens, browser: SignedInBrowser): string {
  return csrf.issue(COMPONENTS_CSRF_PURPOSE, browser.binding);
}

export function apiCsrfValid(csrf: CsrfTokens, browser: SignedInBrowser, token: unknown): boolean {
  return csrf.verify(COMPONENTS_CSRF_PURPOSE, browser.binding, token);
}

export async function signedInBrowser(provider: Provider, ctx: Context): Promise<SignedInBrowser | undefined> {
  const binding = ctx.cookies.get('_session', { signed: true });
  if (!binding) return undefined;
  const session = await provider.Session.get(ctx as never);
  return session.accountId ? { userId: session.accountId, binding } : undefined;
}

/**
 * Signs the traveler out of this browser (the Connected apps page's sign-out, the recognition frame's):
 * the hosted pages' session is deleted and its cookie cleared. The apps they connected keep their consent
 * and refresh tokens (Disconnect ends those). The cookie is cleared with the attributes it was set with
 * (SameSite=None on https, authorization-server.ts): a third-party frame may not touch a Lax cookie.
 */
export async function endBrowserSession(provider: Provider, ctx: Context): Promise<void> {
  const session = await provider.Session.get(ctx as never);
  if (session.accountId) await session.destroy();
  // As configured from the issuer, not from this request (behind a TLS proxy the request may look like http).
  const secure = provider.issuer.startsWith('https://');
  ctx.cookies.set(provider.cookieName('session'), null, { path: '/', signed: true, httpOnly: true, sameSite: secure ? 'none' : 'lax', secure });
}

/**
 * The check the REST door's session routes use (rest/session-auth.ts); `allowedOrigins`: the exact
 * origins whose pages may change something on the session there (ours and COMPONENT_ORIGINS).
 */
export function browserSessions(provider: Provider, csrf: CsrfTokens, authUrl: string, allowedOrigins: readonly string[]) {
  return {
    signInUrl: (returnPath: string) => accountSignInUrl(authUrl, returnPath),
    current: (ctx: Context) => signedInBrowser(provider, ctx),
    csrfToken: (session: SignedInBrowser) => apiCsrfToken(csrf, session),
    csrfValid: (session: SignedInBrowser, token: string) => apiCsrfValid(csrf, session, token),
    allowedOrigins,
  };
}
