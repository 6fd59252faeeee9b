/**
 * Credentialed CORS for the routes a browser session can call (the card-capture component on a partner's
 * page): only the origins configured in COMPONENT_ORIGINS get an answer a browser accepts, each echoed
 * exactly, with credentials allowed; any other origin gets no CORS headers at all, so the browser keeps
 * the response from its script. `Vary: Origin` tells caches the answer depends on the caller.
 *
 * The session cookie is SameSite=Lax: a browser sends it only to the same site, so in practice the
 * embedding page must be same-site with the API (another port of localhost in sandbox mode, another
 * subdomain of the same registrable domain in production).
 */
import type { Context, Next } from 'koa';

export const CORS_METHODS = 'GET, POST, PUT, DELETE';
export const CORS_HEADERS = 'content-type, x-csrf-token';
/** How long a browser may keep a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600;

export interface ComponentCors {
  /** On an actual request: the CORS headers for an allowed origin; Vary: Origin always. */
  headers(ctx: Context, next: Next): Promise<void>;
  /** The answer to a preflight (OPTIONS): 204 with the allowed methods and headers, or nothing for an origin not listed. */
  preflight(ctx: Context, next: Next): Promise<void>;
}

export function componentCors(origins: readonly string[]): ComponentCors {
  const allowed = new Set(origins);
  const allowedOrigin = (ctx: Context): string | undefined => {
    const origin = ctx.get('origin');
    return origin !== '' && allowed.has(origin) ? origin : undefined;
  };
  return {
    async headers(ctx, next) {
      ctx.vary('Origin');
      const origin = allowedOrigin(ctx);
      if (origin) ctx.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true' });
      return next();
    },
    async preflight(ctx, next) {
      const origin = allowedOrigin(ctx);
      if (!origin || ctx.get('access-control-request-method') === '') return next();
      ctx.vary('Origin');
      ctx.status = 204;
      ctx.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Methods': CORS_METHODS,
        'Access-Control-Allow-Headers': CORS_HEADERS,
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE),
      });
    },
  };
}
