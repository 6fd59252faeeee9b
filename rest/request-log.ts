/**
 * Gives every request an id (the caller's `x-request-id` when it is a sane token, else a new UUID),
 * returns it in `x-request-id`, and writes one log line when the response is done. One line and no child
 * logger per request: a child logger per request costs more than everything else on a cheap route. No
 * headers, query strings or bodies are logged, so no secret can be.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../core/logger.js';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } finally {
      logger.info(
        {
          req_id: requestId,
          method: ctx.method,
          path: ctx.path,
          // A response written by another library (the tool endpoint's transport) bypasses Koa's status.
          status: ctx.respond === false ? ctx.res.statusCode : ctx.status,
          ms: Math.round((performance.now() - started) * 100) / 100,
          op: ctx.state.operationId,
          partner_id: ctx.state.partner?.partnerId,
          client_id: ctx.state.client?.clientId,
        },
        'request',
      );
    }
  };
}
