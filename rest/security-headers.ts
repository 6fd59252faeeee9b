/**
 * Security headers with koa-helmet. JSON responses get the few that matter to an API (GitHub's API sends
 * much the same): no content may load or frame from them, no MIME sniffing, no referrer, HSTS. Every
 * header costs time on every response, so the browser-page set (helmet's defaults: CSP for scripts and
 * styles, cross-origin policies, ...) goes only on routes that serve HTML.
 */
import helmet from 'koa-helmet';

export const apiSecurityHeaders = () =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });

export const pageSecurityHeaders = () => helmet();
