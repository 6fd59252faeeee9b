/**
 * The Koa application of the REST door: request id and log line, the error envelopes, security
 * headers, the route table, and the 404/405 answers. The authorization server (next) mounts between the
 * router and the fallback, with no body parser in front of it.
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
  routes: Route[];
  auth: AuthDeps;
  trustProxy: boolean;
  /** Routers of the sandboxes (outside systems' stand-ins), served beside the API in sandbox mode. */
  sandboxes?: Middleware[];
}

export function buildHttpApp(options: HttpAppOptions): Koa {
  const app = new Koa({ proxy: options.trustProxy });
  // Errors are answered by errorHandler; what reaches Koa's own handler is a socket-level failure.
  app.on('error', (error: Error) => options.logger.warn({ err: error }, 'connection error'));

  const router = buildRouter(options.routes, options.auth);
  app.use(requestLog(options.logger));
  app.use(errorHandler(options.logger));
  app.use(apiSecurityHeaders());
  app.use(router.routes());
  for (const sandbox of options.sandboxes ?? []) app.use(sandbox);
  app.use(noRouteMatched(router));
  return app;
}
