/**
 * CORS for the checkout's routes, called from partners' pages with a publishable key (decisions §12), and
 * for no other route. Not credentialed: the key in `x-api-key` is the credential, so no cookie goes and
 * `Access-Control-Allow-Credentials` is never sent. The origin is echoed exactly, never `*`:
 *
 * - a preflight (OPTIONS) carries no key, so it is answered for an origin some active publishable key
 *   lists (the check handed in by the composition root, cached there), and only for the methods the
 *   checkout serves on that path;
 * - an actual request is answered for its origin only once the API key check has found a publishable key
 *   listing it (partner-auth.ts calls allowOrigin); a refused one gets no CORS headers, so the browser keeps
 *   the refusal, like any answer, from a page of another origin.
 *
 * `Vary: Origin` on every answer of these routes tells caches the answer depends on the caller.
 */
import type { Context, Next } from 'koa';

export const PUBLISHABLE_CORS_HEADERS = 'x-api-key, content-type, x-customer-id';
/** Headers a page's script may read besides the safelisted ones: what to quote to support, and the budget. */
const EXPOSED_HEADERS = 'x-request-id, retry-after, ratelimit, ratelimit-policy';
/** How long a browser may keep a preflight answer, in seconds. */
export const PUBLISHABLE_PREFLIGHT_MAX_AGE = 600;

export interface PublishableOriginCheck {
  /** Whether some active publishable key lists `origin`. */
  allows(origin: string): Promise<boolean>;
}

/** The preflight of one path, for `methods`: the methods of the checkout's operations on that path. */
export function publishablePreflight(methods: readonly string[], origins: PublishableOriginCheck | undefined) {
  const allowMethods = methods.join(', ');
  return async function answerPreflight(ctx: Context, next: Next): Promise<void> {
    ctx.vary('Origin');
    const origin = ctx.get('origin');
    const method = ctx.get('access-control-request-method');
    if (!origins || origin === '' || !methods.includes(method) || !(await origins.allows(origin))) return next();
    ctx.status = 204;
    ctx.set({
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': allowMethods,
      'Access-Control-Allow-Headers': PUBLISHABLE_CORS_HEADERS,
      'Access-Control-Max-Age': String(PUBLISHABLE_PREFLIGHT_MAX_AGE),
    });
  };
}

/** On an actual request of a checkout route: the answer depends on Origin, whatever it turns out to be. */
export async function varyOnOrigin(ctx: Context, next: Next): Promise<void> {
  ctx.vary('Origin');
  return next();
}

/** The page at `origin` may read this answer: its publishable key lists it. */
export function allowOrigin(ctx: Context, origin: string): void {
  ctx.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
}
