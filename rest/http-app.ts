/**
 * The Koa application of the REST door: request id and log line, the error envelopes, security
 * headers, the tool endpoint and the authorization server (both handed in; each claims only its own
 * paths), the route table, and the 404/405 answers.
 */
import Koa, { type Middleware } from 'koa';
import type { Logger } from '../core/logger.js';
import { errorHandler } from './error-handler.js';
import { requestLog } from './request-log.js';
import type { Route } from './route-table.js';
import { buildRouter, noRouteMatched, type AuthDeps } from './router.js';
import { apiSecurityHeaders } from './security-headers.js';

export interface HttpAppOptions {
  logger: Logger;
  /** BASE_URL: error envelopes link the errors page published there (`doc_url`). */
  publicOrigin: string;
  routes: Route[];
  auth: AuthDeps;
  trustProxy: boolean;
  /** Routers of the sandboxes (outside systems' stand-ins), served beside the API in sandbox mode. */
  sandboxes?: Middleware[];
  /**
   * The authorization server and its pages: it claims its own paths (the root's authorization requests,
   * /v1/oauth/*, the hosted pages) and passes the rest on, so it runs before the API's router.
   */
  authorizationServer?: Middleware;
  /** Keys that sign cookies (the authorization server's sessions and sign-in attempts). */
  cookieKeys?: string[];
  /** The agent tool endpoint (the MCP door): it claims /v1/mcp and answers there itself. */
  toolEndpoint?: Middleware;
  /** Hosted pages served by doors of their own (the hosted checkout): each claims only its own paths. */
  hostedPages?: Middleware[];
}

export function buildHttpApp(options: HttpAppOptions): Koa {
  // Behind one proxy, the client's address is the last one in X-Forwarded-For, the one our proxy added:
  // the ones before it are whatever the client wrote (maxIpsCount: 1).
  const app = new Koa({ proxy: options.trustProxy, maxIpsCount: options.trustProxy ? 1 : 0, keys: options.cookieKeys });
  // Errors are answered by errorHandler; what reaches Koa's own handler is a socket-level failure.
  app.on('error', (error: Error, ctx?: Koa.Context) => options.logger.warn({ err: error, req_id: ctx?.state.requestId }, 'connection error'));

  const router = buildRouter(options.routes, options.auth);
  app.use(requestLog(options.logger));
  app.use(errorHandler(options.logger, options.publicOrigin));
  app.use(apiSecurityHeaders());
  if (options.toolEndpoint) app.use(options.toolEndpoint);
  if (options.authorizationServer) app.use(options.authorizationServer);
  for (const pages of options.hostedPages ?? []) app.use(pages);
  app.use(router.middleware());
  for (const sandbox of options.sandboxes ?? []) app.use(sandbox);
  app.use(noRouteMatched(router));
  return app;
}
