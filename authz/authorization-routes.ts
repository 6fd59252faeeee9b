/**
 * Where the authorization server meets the Koa app. It claims only its own paths and passes everything
 * else on, so it can sit in front of the API's router without swallowing it:
 * - `/` with `response_type` or `client_id`: an authorization request (scope rules first);
 * - `/v1/oauth/*`: token (JSON refresh bodies, svc_guid, failed client secrets counted, `resource` in canonical
 *   form), registration (with CORS), revocation (failed client secrets counted);
 * - the discovery documents and the key set;
 * - `/<uid>`: the library's resume step, only for the browser that holds that attempt's resume cookie
 *   (otherwise a single-segment path of ours would be taken for one). When the browser's session is
 *   another traveler's than the one who just signed in, this step ends that session first: a page of
 *   the library's posts itself to `/v1/oauth/session/end/confirm`, which comes back to the resume step;
 * - `/v1/oauth/session/end/confirm`: that end of the old session;
 * - `/interaction/*`: the sign-in and consent pages; `/account/*` and `/v1/apps`: connected apps;
 *   `/confirm/*`: the purchase confirmation page; `/recognition/*` and `/components/recognition.js`: the
 *   recognition frame, its sign-out and the recognition component;
 * - `/assets/pages.css` and `/assets/icon.svg`: the pages' stylesheet and icon.
 * What it claims is seen as addressed to the issuer, whatever Host it carried (issuer-origin.ts).
 * No body parser runs before the library: it reads its own.
 */
import compose from 'koa-compose';
import type { Context, Middleware, Next } from 'koa';
import type Provider from 'oidc-provider';
import { DomainError, internalErrorMessage, RateLimitedError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { AbuseLimits } from './abuse-limits.js';
import { checkAuthorizationRequest } from './authorization-request.js';
import { issuerOrigin } from './issuer-origin.js';
import { canonicalTokenResources } from './resource-indicators.js';
import { RECOGNITION_COMPONENT_PATH } from './recognition-routes.js';
import { answerOAuthError } from './pages/error-page.js';
import { hostedPageHeaders } from './pages/page-headers.js';
import { ICON, ICON_PATH, STYLESHEET, STYLESHEET_PATH } from './pages/html.js';
import { jsonRefreshBody, TOKEN_PATH, type tokenResponseExtras } from './token-endpoint.js';

const REGISTRATION_PATH = '/v1/oauth/register';
const REVOCATION_PATH = '/v1/oauth/revoke';
const SESSION_END_CONFIRM_PATH = '/v1/oauth/session/end/confirm';
const PROVIDER_DOCUMENTS = new Set(['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/.well-known/jwks.json']);
const RESUME = /^\/[A-Za-z0-9_-]{10,}$/;

export interface AuthorizationRoutesDeps {
  provider: Provider;
  logger: Logger;
  limits: AbuseLimits;
  tokenExtras: ReturnType<typeof tokenResponseExtras>;
  /** Wrong client secrets counted and refused before the library checks them (token-failed-auth.ts). */
  tokenFailedAuth: Middleware;
  /** The sign-in and consent pages, the connected apps page and API. */
  pages: Middleware[];
  /** The served resource indicators (RFC 8707), in canonical form. */
  resources: readonly string[];
}

export function authorizationRoutes(deps: AuthorizationRoutesDeps): Middleware {
  const provider = plainServerErrors(compose(deps.provider.middleware) as Middleware);
  const authorize = compose([checkAuthorizationRequest(deps.provider, deps.resources), provider]) as Middleware;
  const token = compose([jsonRefreshBody, deps.tokenFailedAuth, canonicalTokenResources(deps.resources), deps.tokenExtras, provider]) as Middleware;
  const revoke = compose([deps.tokenFailedAuth, provider]) as Middleware;
  const register = compose([registrationCors, registrationLimit(deps.limits), provider]) as Middleware;
  const pages = pagesFailingAsPages(compose(deps.pages) as Middleware, deps.logger);
  const resume = async (ctx: Context, next: Next) => {
    // The resume step may answer the library's self-submitting page (see above); the redirects after it
    // may lead to the client, whose origin form-action must allow.
    const interaction = await deps.provider.Interaction.find(ctx.path.slice(1));
    hostedPageHeaders(ctx, String(interaction?.params.redirect_uri ?? ''), { libraryScript: true });
    return provider(ctx, next);
  };

  const assets = async (ctx: Context) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = ctx.path === ICON_PATH ? 'image/svg+xml' : 'text/css';
    ctx.body = ctx.path === ICON_PATH ? ICON : STYLESHEET;
  };
  const claim = (ctx: Context): Middleware | undefined => {
    const { path } = ctx;
    if (path === '/') return isAuthorizationRequest(ctx) ? authorize : undefined;
    // The library's router ignores case and a trailing slash: so does this dispatch, or `/v1/oauth/TOKEN/`
    // would reach the library without the token endpoint's own steps. Other /v1/oauth paths are not ours.
    const normalized = path.toLowerCase().replace(/\/$/, '');
    if (normalized === TOKEN_PATH) return token;
    if (normalized === REGISTRATION_PATH) return register;
    // Revocation authenticates the client as the token endpoint does: its wrong secrets count the same way.
    if (normalized === REVOCATION_PATH) return revoke;
    if (normalized === SESSION_END_CONFIRM_PATH || PROVIDER_DOCUMENTS.has(normalized)) return provider;
    if (normalized.startsWith('/v1/oauth/')) return undefined;
    if ((path === STYLESHEET_PATH || path === ICON_PATH) && ctx.method === 'GET') return assets;
    if (ctx.method === 'GET' && RESUME.test(path) && ctx.cookies.get('_interaction_resume')) return resume;
    if (path.startsWith('/interaction/') || within(path, '/account') || within(path, '/v1/apps') || path.startsWith('/confirm/')) return pages;
    if (path.startsWith('/recognition/') || path === RECOGNITION_COMPONENT_PATH) return pages;
    return undefined;
  };
  const asAddressedToIssuer = issuerOrigin(deps.provider.issuer);

  return function authorizationServer(ctx: Context, next: Next) {
    const handler = claim(ctx);
    if (!handler) return next();
    return asAddressedToIssuer(ctx, () => handler(ctx, next));
  };
}

/**
 * The library answers a failure of its own (a database error, say) as `server_error` with the words
 * "oops! something went wrong"; a JSON client gets ours instead, with the request id to quote. (A
 * browser's page is rendered by renderAuthorizationError; the error itself is logged on the library's
 * `server_error` event, see logServerErrors.)
 */
function plainServerErrors(provider: Middleware): Middleware {
  return async function answerServerErrors(ctx: Context, next: Next) {
    await provider(ctx, next);
    const body = ctx.body as { error?: unknown } | undefined;
    if (ctx.status >= 500 && typeof body === 'object' && body?.error === 'server_error') {
      const requestId = String(ctx.state.requestId);
      ctx.body = { error: 'server_error', error_description: internalErrorMessage(requestId), request_id: requestId };
    }
  };
}

/**
 * An unexpected failure on a hosted page is logged with the request id and answered with a page (a
 * browser is on the other end), not the API's JSON. Domain errors and the JSON API go on to the API's
 * error handler, which words and logs them.
 */
function pagesFailingAsPages(pages: Middleware, logger: Logger): Middleware {
  return async function failAsPage(ctx: Context, next: Next) {
    try {
      await pages(ctx, next);
    } catch (error) {
      if (error instanceof DomainError || ctx.path.startsWith('/v1/')) throw error;
      const requestId = String(ctx.state.requestId);
      logger.error({ err: error, req_id: requestId, method: ctx.method, path: ctx.path }, 'hosted page failed');
      answerOAuthError(ctx, 500, 'server_error', internalErrorMessage(requestId));
    }
  };
}

function within(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

function isAuthorizationRequest(ctx: Context): boolean {
  return ctx.method === 'GET' && (ctx.query.response_type !== undefined || ctx.query.client_id !== undefined);
}

function registrationLimit(limits: AbuseLimits) {
  return async function limitRegistrations(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'POST') return next();
    try {
      await limits.registration(ctx.ip);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      ctx.status = 429;
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      ctx.body = { error: 'too_many_requests', error_description: error.message };
      return;
    }
    return next();
  };
}

/** Registration is open to browser-based agents too: any origin may register, without credentials. */
async function registrationCors(ctx: Context, next: Next): Promise<void> {
  ctx.set('Access-Control-Allow-Origin', '*');
  if (ctx.method === 'OPTIONS') {
    ctx.set({
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      'Access-Control-Max-Age': '3600',
    });
    ctx.status = 204;
    return;
  }
  return next();
}
