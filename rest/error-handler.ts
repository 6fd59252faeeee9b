/**
 * The one place where errors become HTTP responses, in the specification's envelopes plus a stable
 * `code`. Domain kinds are mapped here and nowhere else. Anything unexpected is logged in full and
 * answered with a generic message and the request id: never a stack, SQL or a vendor's words.
 *
 * Every envelope with a `code` also carries `request_id` (the X-Request-Id of the answer, under which the
 * log has the request) and `doc_url` (the code's section of the errors page, on BASE_URL): those rendered
 * here, and the standard envelopes a part that cannot throw into this door wrote itself (the hosted
 * pages' JSON API refuses unreadable bodies so). The authorization server's own OAuth answers carry no
 * `code` and are left as the library words them; so are the tool endpoint's, which its door words.
 */
import type { Context, Next } from 'koa';
import {
  DomainError,
  InsufficientScopeError,
  InvalidClientError,
  InvalidTokenError,
  internalErrorMessage,
  RateLimitedError,
  ValidationError,
  type ErrorKind,
} from '../core/errors.js';
import { errorDocUrl } from '../core/error-catalog.js';
import { UnknownIdentityError } from '../core/identity/errors.js';
import type { Logger } from '../core/logger.js';
import { HttpProblem } from './problems.js';

export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  validation: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rate_limited: 429,
  price_changed: 409,
  provider_rejected: 422,
  provider_unavailable: 502,
  provider_timeout: 504,
  // 402 as Stripe answers a refused card: the request was right, the card was not.
  payment_declined: 402,
  unprocessable: 422,
  not_implemented: 501,
};

/** `publicOrigin` is BASE_URL, where the errors page is published. */
export function errorHandler(logger: Logger, publicOrigin: string) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      render(ctx, error, logger, publicOrigin);
      addReferences(ctx, publicOrigin);
      return;
    }
    if (isWrittenEnvelope(ctx)) addReferences(ctx, publicOrigin);
  };
}

/** The request id to quote and the code's documentation, after the envelope's own fields. */
function addReferences(ctx: Context, publicOrigin: string): void {
  const body = ctx.body as Record<string, unknown>;
  ctx.body = { ...body, request_id: String(ctx.state.requestId), doc_url: errorDocUrl(publicOrigin, String(body.code)) };
}

/** `{message, status_code, code}` written by a middleware of this app instead of thrown. */
function isWrittenEnvelope(ctx: Context): boolean {
  if (ctx.status < 400) return false;
  const body: unknown = ctx.body;
  return isPlainObject(body) && typeof body.code === 'string' && typeof body.status_code === 'number';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function render(ctx: Context, error: unknown, logger: Logger, publicOrigin: string): void {
  if (error instanceof ValidationError) {
    ctx.status = 400;
    ctx.body = { message: error.message, code: error.code, fields: error.fields };
    return;
  }
  if (error instanceof InsufficientScopeError || error instanceof InvalidTokenError) {
    bearerChallenge(ctx, error);
    return;
  }
  if (error instanceof InvalidClientError) {
    clientChallenge(ctx, error, publicOrigin);
    return;
  }
  if (error instanceof UnknownIdentityError) {
    // The identity envelope (`{error}`), alike for every cause: the message is fixed text (rule 2).
    ctx.status = 404;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { error: error.code, code: error.code, message: error.message };
    return;
  }
  if (error instanceof DomainError) {
    const status = STATUS_BY_KIND[error.kind];
    if (error instanceof RateLimitedError) ctx.set('Retry-After', String(error.retryAfterSeconds));
    standard(ctx, status, error.code, error.message, error.details);
    ctx.body = { ...(ctx.body as object), ...error.extras };
    return;
  }
  if (error instanceof HttpProblem) {
    ctx.set(error.headers);
    standard(ctx, error.status, error.code, error.message);
    return;
  }
  const requestId = String(ctx.state.requestId);
  logger.error({ err: error, req_id: requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
  ctx.status = 500;
  ctx.body = {
    message: internalErrorMessage(requestId),
    status_code: 500,
    code: 'internal_error',
    request_id: requestId,
  };
}

/**
 * Bearer token failures answer in the OAuth envelope with the RFC 6750 challenge, so that OAuth client
 * libraries recognise them: 401 `invalid_token` (get a new token), 403 `insufficient_scope` (ask the
 * traveler for `scope`).
 */
function bearerChallenge(ctx: Context, error: DomainError): void {
  const scope = error instanceof InsufficientScopeError ? error.scope : undefined;
  const challenge = [`error="${error.code}"`, `error_description="${error.message.replace(/["\\]/g, "'")}"`];
  if (scope) challenge.push(`scope="${scope}"`);
  ctx.set('WWW-Authenticate', `Bearer ${challenge.join(', ')}`);
  ctx.status = scope ? 403 : 401;
  ctx.body = scope
    ? { error: error.code, error_description: error.message, scope, code: error.code }
    : { error: error.code, error_description: error.message, code: error.code };
}

/**
 * OAuth client authentication failures of the identity API (RFC 6749 §5.2): the OAuth envelope; on 401
 * the Basic challenge, as the token endpoint sends it. A 400 (a client not registered for Basic) has none:
 * other credentials would not help.
 */
function clientChallenge(ctx: Context, error: InvalidClientError, realm: string): void {
  ctx.status = STATUS_BY_KIND[error.kind];
  if (ctx.status === 401) ctx.set('WWW-Authenticate', `Basic realm="${realm}", error="invalid_client"`);
  ctx.body = { error: error.code, error_description: error.message, code: error.code };
}

function standard(ctx: Context, status: number, code: string, message: string, details?: string): void {
  ctx.status = status;
  ctx.body = details === undefined ? { message, status_code: status, code } : { message, status_code: status, code, details };
}
