/**
 * The traveler's first-party session on this browser (the cookie the hosted sign-in pages set), for the
 * pages of the account and for the browser components' API routes (decisions §8). The components' CSRF
 * tokens are bound to the session cookie, under a purpose of their own: a token of the Connected apps
 * page's forms does not open the API, nor the other way round.
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

export async function signedInBrowser(provider: Provider, ctx: Context): Promise<SignedInBrowser | undefined> {
  const binding = ctx.cookies.get('_session', { signed: true });
  if (!binding) return undefined;
  const session = await provider.Session.get(ctx as never);
  return session.accountId ? { userId: session.accountId, binding } : undefined;
}

/** The check the REST door's session routes use (rest/session-auth.ts). */
export function browserSessions(provider: Provider, csrf: CsrfTokens, authUrl: string) {
  return {
    signInUrl: (returnPath: string) => accountSignInUrl(authUrl, returnPath),
    current: (ctx: Context) => signedInBrowser(provider, ctx),
    csrfToken: (session: SignedInBrowser) => csrf.issue(COMPONENTS_CSRF_PURPOSE, session.binding),
    csrfValid: (session: SignedInBrowser, token: string) => csrf.verify(COMPONENTS_CSRF_PURPOSE, session.binding, token),
  };
}
