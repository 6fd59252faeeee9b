/**
 * The traveler's own browser, as a caller of the payment routes (decisions §8): the first-party session
 * of the hosted pages (the cookie their sign-in sets) instead of a partner's key and token, plus a CSRF
 * token in `x-csrf-token` on every request that changes something. The session check is handed in by
 * the composition root (it lives with the authorization server); this door only knows its shape.
 *
 * The session acts as the traveler themselves: no scope narrows it, and it never carries admin rights.
 */
import type { Context, Next } from 'koa';
import type { Actor } from '../core/actor.js';
import { ForbiddenError, UnauthenticatedError } from '../core/errors.js';

export interface BrowserSession {
  userId: string;
  /** What CSRF tokens of this session are bound to. */
  binding: string;
}

export interface SessionCheck {
  /** The signed-in traveler of this browser, or undefined. */
  current(ctx: Context): Promise<BrowserSession | undefined>;
  csrfToken(session: BrowserSession): string;
  csrfValid(session: BrowserSession, token: string): boolean;
  /**
   * Where a browser without a session is sent to sign in, to come back to `returnPath` (a path of ours)
   * afterwards; without it, a page on the session answers 401 like the API.
   */
  signInUrl?(returnPath: string): string;
}

/** The client id that stands for the traveler's own browser in an Actor. */
export const BROWSER_SESSION_CLIENT = 'first-party-session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requireSession(sessions: SessionCheck) {
  return async function checkSession(ctx: Context, next: Next): Promise<void> {
    const session = await sessions.current(ctx);
    if (!session) {
      throw new UnauthenticatedError(
        'Sign in first: this route works on the traveler’s own session (the hosted sign-in pages), or with your x-api-key and the traveler’s bearer token.',
        'session_required',
      );
    }
    if (!SAFE_METHODS.has(ctx.method) && !sessions.csrfValid(session, ctx.get('x-csrf-token'))) {
      throw new ForbiddenError(
        'Send the CSRF token of this session in the x-csrf-token header: GET /v1/payments/tokenization-session gives it.',
        'csrf_token_invalid',
      );
    }
    ctx.state.actor = sessionActor(session);
    ctx.state.session = session;
    return next();
  };
}

function sessionActor(session: BrowserSession): Actor {
  return { userId: session.userId, clientId: BROWSER_SESSION_CLIENT, scopes: null, isAdmin: false, partnerId: undefined, tokenId: undefined, expiresAt: Number.MAX_SAFE_INTEGER };
}

/**
 * A page for the signed-in traveler (`page: true` on a session route): a browser without a session is
 * sent through the hosted sign-in and back to the page's own path, the route's, never one from the request.
 */
export function requirePageSession(sessions: SessionCheck, returnPath: string) {
  const signedIn = requireSession(sessions);
  return async function checkPageSession(ctx: Context, next: Next): Promise<void> {
    if (sessions.signInUrl && !(await sessions.current(ctx))) {
      ctx.status = 303;
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(sessions.signInUrl(returnPath));
      return;
    }
    return signedIn(ctx, next);
  };
}
