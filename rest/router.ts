/**
 * Serves the route table: for each route, the credentials it needs, its body parser if it has a body,
 * then its input parsed with its zod schemas and its handler. Also the answers for paths no route
 * serves: 404, or 405 with `Allow` when the path exists under other methods.
 */
import compose from 'koa-compose';
import type { Context, Middleware, Next } from 'koa';
import { InvalidClientError } from '../core/errors.js';
import { checkInput } from '../core/input-checks.js';
import { PUBLISHABLE_KEY_OPERATIONS } from '../core/partners/schemas.js';
import { parseOrThrow } from '../core/validation.js';
import { requireBearer, type BearerCheck } from './bearer-auth.js';
import { jsonBody } from './body.js';
import { componentCors } from './component-cors.js';
import { imageUpload } from './upload.js';
import { requireClientCredentials, type ClientCredentialsCheck } from './client-auth.js';
import { requireApiKey, type PartnerAuthDeps } from './partner-auth.js';
import { RouteDispatch } from './route-dispatch.js';
import { publishablePreflight, varyOnOrigin, type PublishableOriginCheck } from './publishable-cors.js';
import { requirePageSession, requireSession, type BrowserSession, type SessionCheck } from './session-auth.js';
import { HttpProblem } from './problems.js';
import { JSON_TYPE, type Route } from './route-table.js';
import { pageSecurityHeaders } from './security-headers.js';

const pageHeaders = pageSecurityHeaders();

export interface AuthDeps extends PartnerAuthDeps {
  bearer: BearerCheck;
  /** The traveler's browser session (routes that take it); without it those routes take partners only. */
  sessions?: SessionCheck;
  /**
   * Origins of partner pages whose scripts may call the session routes with the traveler's cookie
   * (credentialed CORS, component-cors.ts); none: only pages of our own origin can.
   */
  componentOrigins?: readonly string[];
  /** OAuth client credentials (the identity API); without it, `client_basic` routes refuse every caller. */
  clients?: ClientCredentialsCheck;
  /**
   * Whether an origin is listed by some active publishable key: the checkout's routes answer a CORS
   * preflight for it (publishable-cors.ts). Without it, no preflight is answered.
   */
  publishableOrigins?: PublishableOriginCheck;
}

export function buildRouter(routes: Route[], auth: AuthDeps): RouteDispatch {
  const router = new RouteDispatch();
  const cors = componentCors(auth.componentOrigins ?? []);
  const preflighted = new Set<string>();
  // The checkout's routes answer CORS for pages holding a publishable key, each path for its own methods.
  const publishable = new Map<string, string[]>();
  for (const route of routes.filter(takesPublishableKey)) publishable.set(route.path, [...(publishable.get(route.path) ?? []), route.method]);
  for (const [path, methods] of publishable) router.add('OPTIONS', path, [publishablePreflight(methods, auth.publishableOrigins)]);
  for (const route of routes) {
    const chain: Middleware[] = [];
    if (takesPublishableKey(route)) chain.push(varyOnOrigin);
    if (takesBrowserSession(route)) {
      chain.push(cors.headers);
      if (!preflighted.has(route.path)) {
        preflighted.add(route.path);
        router.add('OPTIONS', route.path, [cors.preflight]);
      }
    }
    chain.push(credentialsOf(route, auth));
    if (route.page) chain.push(pageHeaders);
    if (route.body) chain.push(jsonBody());
    if (route.upload) chain.push(imageUpload(route.upload));
    chain.push(runHandler(route, auth));
    router.add(route.method, route.path, chain);
  }
  return router;
}

/** A script's fetch from a browser may call it with the session cookie (pages are opened, not fetched). */
function takesBrowserSession(route: Route): boolean {
  return !route.page && (route.auth === 'session' || route.auth === 'api_key_and_bearer_or_session');
}

/** One of the checkout's operations, on a route that takes an API key: a publishable key may call it. */
function takesPublishableKey(route: Route): boolean {
  return PUBLISHABLE_KEY_OPERATIONS.has(route.operationId) && route.auth.startsWith('api_key');
}

/** The last middleware: nothing served the request. */
export function noRouteMatched(router: RouteDispatch) {
  return async function answerUnmatched(ctx: Context): Promise<void> {
    // OPTIONS is answered for every path (the preflights of the session and checkout routes register it on theirs).
    const allowed = router.methodsOf(ctx.path).filter((method) => method !== 'OPTIONS');
    if (allowed.length === 0) {
      throw new HttpProblem(
        404,
        'route_not_found',
        `There is no route ${ctx.method} ${ctx.path}. The routes of this API are listed in /openapi.json and at /docs.`,
      );
    }
    const allow = [...allowed, 'OPTIONS'].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
      return;
    }
    throw new HttpProblem(
      405,
      'method_not_allowed',
      `${ctx.method} is not allowed on ${ctx.path}: use ${allowed.filter((m) => m !== 'HEAD').join(' or ')}.`,
      { Allow: allow },
    );
  };
}

/** The check of the credentials a route takes; the API key check names the operation itself, for the log. */
function credentialsOf(route: Route, auth: AuthDeps): Middleware {
  const partner = compose([requireApiKey(auth, route.operationId), requireBearer(auth.bearer, route.scope)]) as Middleware;
  const browser = compose([nameOperation(route.operationId), requireSession(auth.sessions ?? NO_SESSIONS)]) as Middleware;
  switch (route.auth) {
    case 'none':
      return nameOperation(route.operationId);
    case 'api_key':
      return requireApiKey(auth, route.operationId);
    case 'api_key_and_bearer':
      return partner;
    case 'session':
      return route.page ? compose([nameOperation(route.operationId), requirePageSession(auth.sessions ?? NO_SESSIONS, route.path)]) as Middleware : browser;
    case 'api_key_and_bearer_or_session':
      // A partner always sends its key, or at least a token: only a browser sends neither.
      return (ctx, next) => (ctx.get('x-api-key') === '' && ctx.get('authorization') === '' ? browser(ctx, next) : partner(ctx, next));
    case 'client_basic':
      return compose([nameOperation(route.operationId), requireClientCredentials(auth.clients ?? NO_CLIENTS)]) as Middleware;
  }
}

/** Without a session check (a service without the authorization server), no browser is signed in. */
const NO_SESSIONS: SessionCheck = { current: async () => undefined, csrfToken: () => '', csrfValid: () => false };

/** Without the authorization server there are no OAuth clients to authenticate. */
const NO_CLIENTS: ClientCredentialsCheck = {
  verify: async () => {
    throw new InvalidClientError('This service has no OAuth clients: the identity API is not available here.');
  },
};

function nameOperation(operationId: string): Middleware {
  return function setOperation(ctx: Context, next: Next) {
    ctx.state.operationId = operationId;
    return next();
  };
}

function runHandler(route: Route, auth: AuthDeps): Middleware {
  return async function handle(ctx: Context): Promise<void> {
    // Path and query text reaches the database too: a %00 in it must be a 400, not PostgreSQL's error.
    checkInput((ctx as unknown as { params: unknown }).params);
    if (route.query) checkInput(ctx.query);
    // Routes without a query schema ignore query parameters, as most APIs do.
    const params = route.params ? parseOrThrow(route.params, (ctx as unknown as { params: unknown }).params) : {};
    const query = route.query ? parseOrThrow(route.query, ctx.query) : {};
    const body = route.body ? parseOrThrow(route.body, ctx.request.body) : undefined;
    const headers = route.headers ? parseOrThrow(route.headers, ctx.headers) : {};
    const result = await route.handler({
      params,
      query,
      body,
      headers,
      origin: ctx.get('origin') || undefined,
      partner: ctx.state.partner,
      actor: ctx.state.actor,
      client: ctx.state.client,
      csrfToken: ctx.state.session ? auth.sessions?.csrfToken(ctx.state.session as BrowserSession) : undefined,
      requestId: ctx.state.requestId,
      upload: ctx.state.upload,
    });
    ctx.status = result.status ?? route.status ?? 200;
    if (result.headers) ctx.set(result.headers);
    if (result.body !== undefined) setBody(ctx, result.body);
  };
}

/**
 * A successful answer of plain data is written as JSON text here, typed as Koa types it: given the
 * object, Koa would look its type up and serialize it at the end, a few per cent of a cheap route.
 * Errors stay objects: the error handler adds its references to envelopes written by handlers.
 */
function setBody(ctx: Context, body: unknown): void {
  if (ctx.status < 400 && isPlainData(body) && !ctx.res.hasHeader('content-type')) {
    ctx.set('Content-Type', JSON_TYPE);
    ctx.body = JSON.stringify(body);
    return;
  }
  ctx.body = body;
}

function isPlainData(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}
