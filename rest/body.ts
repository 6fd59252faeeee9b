/**
 * JSON request bodies, parsed only on the routes that declare one (never in front of the authorization
 * server, which reads its own). Too large is 413, not JSON is 415, unreadable JSON is 400; so is JSON
 * nested too deep or holding text PostgreSQL cannot store (core's input checks, before any schema).
 */
import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { checkInput } from '../core/input-checks.js';
import { HttpProblem } from './problems.js';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export function jsonBody(limitBytes = DEFAULT_BODY_LIMIT_BYTES) {
  const parse = koaBody({
    json: true,
    jsonTypes: ['application/json', 'application/*+json'],
    jsonLimit: limitBytes,
    jsonStrict: true,
    urlencoded: false,
    text: false,
    multipart: false,
    patchNode: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  const limitText = describeBytes(limitBytes);

  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    if (!hasBody(ctx)) {
      ctx.request.body = undefined;
      return next();
    }
    if (!ctx.is('application/json', 'application/*+json')) {
      throw new HttpProblem(
        415,
        'unsupported_media_type',
        `This route accepts JSON only: send the body with Content-Type: application/json (got ${ctx.get('content-type') || 'none'}).`,
      );
    }
    const declared = Number(ctx.get('content-length'));
    if (declared > limitBytes) throw tooLarge(limitText);
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      throw translate(error, limitText);
    }
    checkInput(ctx.request.body);
    return next();
  };
}

function hasBody(ctx: Context): boolean {
  return ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length')) > 0;
}

function translate(error: unknown, limitText: string): unknown {
  const { status, type, code } = (error ?? {}) as { status?: unknown; type?: unknown; code?: unknown };
  if (status === 413 || type === 'entity.too.large') return tooLarge(limitText);
  if (status === 415 || type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new HttpProblem(415, 'unsupported_media_type', 'Send the body as UTF-8 JSON, uncompressed or gzip-encoded.');
  }
  // zlib's errors carry no HTTP status: a body whose compression is broken is the client's mistake.
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return new HttpProblem(400, 'invalid_body', 'The request body could not be decompressed: check its Content-Encoding.');
  }
  if (isClientError(status)) {
    return new HttpProblem(
      400,
      'invalid_json',
      'The request body is not valid JSON: send a JSON object or array with Content-Type: application/json.',
    );
  }
  return error;
}

function isClientError(status: unknown): boolean {
  return typeof status === 'number' && status >= 400 && status < 500;
}

function tooLarge(limitText: string): HttpProblem {
  return new HttpProblem(413, 'payload_too_large', `The request body is too large: this route accepts at most ${limitText}.`);
}

function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
