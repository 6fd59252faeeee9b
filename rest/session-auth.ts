/**
 * The traveler's own browser, as a caller of the payment routes (decisions §8): the first-party session
 * of the hosted pages (the cookie their sign-in sets) instead of a partner's key and token, plus a CSRF
 * token in `x-csrf-token` on every request that changes something. A change another site's page sends
 * (by `Origin` or `Sec-Fetch-Site`, core/cross-site.ts) is refused before anything else: only our own
 * pages and the partner pages of COMPONENT_ORIGINS may make one. The session check is handed in by the
 * composition root (it lives with the authorization server); this door only knows its shape.
 *
 * The session acts as the traveler themselves: no scope narrows it, and it never carries admin rights.
 */
import type { Context, Next } from 'koa';
import type { Actor } from '../core/actor.js';
import { isCrossSiteRequest } from '../core/cross-site.js';
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
   * The exact origins whose pages may change something on this session: the service's own (API and
   * sign-in pages) and COMPONENT_ORIGINS. None: every change that names an origin is refused.
   */
  allowedOrigins?: readonly string[];
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
  const refuseOtherSites = refuseCrossSite(sessions.allowedOrigins ?? []);
  return async function checkSession(ctx: Context, next: Next): Promise<void> {
    if (!SAFE_METHODS.has(ctx.method)) refuseOtherSites(ctx);
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

/** Throws when another site's page sent this change (core/cross-site.ts), whatever cookie and token it carries. */
function refuseCrossSite(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return function checkSite(ctx: Context): void {
    if (!isCrossSiteRequest({ origin: ctx.get('origin'), fetchSite: ctx.get('sec-fetch-site') }, allowed)) return;
    throw new ForbiddenError(
      'This change was sent from another site’s page, so it was refused: changes on the traveler’s browser session are accepted only from the service’s own pages and the partner pages listed in COMPONENT_ORIGINS (exact origins).',
      'cross_site_request',
    );
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
