/**
 * Security headers with koa-helmet. JSON responses get the few that matter to an API (GitHub's API sends
 * much the same): nothing may load or frame from them, no MIME sniffing, no referrer, HSTS. Browser pages
 * get helmet's full default set (CSP for their scripts and styles, cross-origin policies, ...).
 *
 * The API set never varies, so helmet computes it once at start and each response copies it: running
 * helmet's middleware chain per request cost more than the API key check and the rate limiter together.
 */
import type { Context, Next } from 'koa';
import helmet from 'koa-helmet';

const API_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

export function apiSecurityHeaders() {
  const headers = Object.entries(headersSetBy(helmet(API_OPTIONS)));
  return function setSecurityHeaders(ctx: Context, next: Next) {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  };
}

export const pageSecurityHeaders = () => helmet();

/** Runs a (static) helmet middleware against a recording response and returns the headers it set. */
function headersSetBy(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name] = value),
    removeHeader: (name: string) => void delete headers[name],
  };
  // Helmet sets its headers synchronously, before the promise koa-helmet wraps it in settles.
  void middleware({ req: {}, res } as unknown as Context, async () => undefined);
  if (Object.keys(headers).length === 0) throw new Error('helmet set no headers: check the koa-helmet version');
  return headers;
}
