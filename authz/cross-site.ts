/**
 * The authorization server's side of core/cross-site.ts. Its hosted pages' forms (sign-in and consent on
 * the interaction cookie; Connected apps, purchase confirmation and the recognition frame's sign-out on
 * the session cookie) and the Connected apps API (/v1/apps) change things on the traveler's cookies, so
 * another site's page may not send them: only our own pages (the sign-in pages' and the API's exact
 * origins). Safe methods pass. The forms' CSRF tokens are still checked after this, by each handler.
 */
import type { Context, Middleware, Next } from 'koa';
import { isCrossSiteRequest } from '../core/cross-site.js';
import { ForbiddenError } from '../core/errors.js';
import { answerOAuthError } from './pages/error-page.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** For the hosted pages' forms: another site's post gets the hosted error page (403), and changes nothing. */
export function refuseCrossSiteForms(allowedOrigins: readonly string[]): Middleware {
  return guard(allowedOrigins, (ctx) =>
    answerOAuthError(
      ctx,
      403,
      'cross_site_request',
      'This form was sent from another site’s page, so nothing was changed. If you meant to do this, open the page on our site again and use its form there.',
    ),
  );
}

/** For the Connected apps API: another site's change is a 403 in the API's error envelope. */
export function refuseCrossSiteApi(allowedOrigins: readonly string[]): Middleware {
  return guard(allowedOrigins, () => {
    throw new ForbiddenError(
      'This change was sent from another site’s page, so it was refused: the Connected apps API takes changes only from the service’s own pages (exact origins), with the session’s CSRF token in x-csrf-token.',
      'cross_site_request',
    );
  });
}

function guard(allowedOrigins: readonly string[], refuse: (ctx: Context) => void): Middleware {
  const allowed = new Set(allowedOrigins);
  return async function refuseCrossSite(ctx: Context, next: Next): Promise<void> {
    if (SAFE_METHODS.has(ctx.method) || !isCrossSiteRequest({ origin: ctx.get('origin'), fetchSite: ctx.get('sec-fetch-site') }, allowed)) return next();
    refuse(ctx);
  };
}
