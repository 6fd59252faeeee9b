/**
 * Request bodies of the hosted pages' forms and of their JSON API (/v1/apps), read here rather than by a
 * general-purpose parser, so that whatever a hostile client sends is a 4xx in the right envelope and never
 * reaches a handler (a parser's own errors would reach the error middleware as 500s):
 * - of the route's type, in UTF-8, uncompressed: 415 otherwise (no browser compresses a form);
 * - at most 16 KiB: 413 otherwise (our largest form, consent, is well under 1 KiB);
 * - a form is never empty (every one carries its CSRF token): 400;
 * - no text PostgreSQL cannot store, and JSON nested at most 64 levels (core's input checks): 400.
 * Forms answer with the hosted pages' error (a page for a browser, the OAuth envelope otherwise); the
 * JSON API with the REST API's standard envelope, or its validation envelope for core's checks.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import { checkInput, inputProblems } from '../../core/input-checks.js';
import { answerOAuthError } from './error-page.js';

const LIMIT_BYTES = 16 * 1024;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

type Refusal = { ok: false; status: 400 | 413 | 415; code: string; message: string };
/** `text` is undefined when the request has no body at all. */
type Read = { ok: true; text: string | undefined } | Refusal;

/** The form as a record without prototype: a name sent twice (the consent page's scopes) is an array. */
export function formBody() {
  return async function readForm(ctx: Context, next: Next): Promise<void> {
    const read = await readBody(ctx, FORM, 'Send the form as application/x-www-form-urlencoded, as the page does.');
    if (!read.ok) return answerOAuthError(ctx, read.status, 'invalid_request', read.message);
    if (!read.text) return answerOAuthError(ctx, 400, 'invalid_request', 'The form arrived empty: go back, reload the page and send it again.');
    const fields = parseForm(read.text);
    if (inputProblems(fields).length > 0) {
      return answerOAuthError(ctx, 400, 'invalid_request', 'The form holds characters that cannot be stored (such as NUL): go back, reload the page and send it again.');
    }
    ctx.request.body = fields;
    return next();
  };
}

/** A JSON body, or undefined without one (the route's schema says whether it needs one). */
export function jsonBody() {
  return async function readJson(ctx: Context, next: Next): Promise<void> {
    const read = await readBody(ctx, JSON_TYPE, 'This route accepts JSON only: send the body with Content-Type: application/json.');
    if (!read.ok) return refuseJson(ctx, read);
    let value: Context['request']['body'];
    if (read.text !== undefined) {
      try {
        value = JSON.parse(read.text);
      } catch {
        return refuseJson(ctx, { ok: false, status: 400, code: 'invalid_json', message: 'The request body is not valid JSON: send a JSON object with Content-Type: application/json.' });
      }
      checkInput(value);
    }
    ctx.request.body = value;
    return next();
  };
}

async function readBody(ctx: Context, type: string, wrongType: string): Promise<Read> {
  if (ctx.get('transfer-encoding') === '' && !(Number(ctx.get('content-length')) > 0)) return { ok: true, text: undefined };
  if (!ctx.is(type)) return refuse(415, 'unsupported_media_type', wrongType);
  const encoding = ctx.get('content-encoding').toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return refuse(415, 'unsupported_media_type', 'Send the body uncompressed, without Content-Encoding.');
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') return refuse(415, 'unsupported_media_type', 'Send the body in UTF-8.');
  if (Number(ctx.get('content-length')) > LIMIT_BYTES) return tooLarge();
  const bytes = await readUpTo(ctx.req, LIMIT_BYTES);
  if (bytes === 'too_large') {
    // Reading stopped mid-body: the rest cannot be told from a next request on this connection.
    ctx.set('Connection', 'close');
    return tooLarge();
  }
  if (bytes === 'cut_short') return refuse(400, 'invalid_body', 'The request body was cut short.');
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return refuse(400, 'invalid_body', 'The request body is not valid UTF-8.');
  }
}

/**
 * The body's bytes; 'too_large' as soon as it passes `limit` (nothing more is read or kept), 'cut_short'
 * if the client went away first.
 */
function readUpTo(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large' | 'cut_short'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | 'too_large' | 'cut_short') => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.pause();
      finish('too_large');
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onGone = () => finish('cut_short');
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
  });
}

function parseForm(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = fields[name];
    if (previous === undefined) fields[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else fields[name] = [previous, value];
  }
  return fields;
}

function refuse(status: Refusal['status'], code: string, message: string): Refusal {
  return { ok: false, status, code, message };
}

function tooLarge(): Refusal {
  return refuse(413, 'payload_too_large', `The request body is too large: send at most ${LIMIT_BYTES / 1024} KiB.`);
}

/** The REST API's standard envelope (rest/ renders it for thrown errors; authz cannot import rest/). */
function refuseJson(ctx: Context, refusal: Refusal): void {
  ctx.status = refusal.status;
  ctx.body = { message: refusal.message, status_code: refusal.status, code: refusal.code };
}
