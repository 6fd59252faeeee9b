/**
 * A token request's form body, read ahead of oidc-provider (which reads its own body: no parser runs
 * before it) once per request, and handed back to it as the same bytes in a fresh stream. The token endpoint's own steps (the
 * failed-secret count, the canonical `resource`) read the form this way; a body past the library's limit
 * is handed on unread, for the library to refuse, and a stream that fails mid-body fails the library's read
 * as it would have.
 */
import { Readable } from 'node:stream';
import type { Context } from 'koa';

/** oidc-provider's own limit on a request body. */
const BODY_LIMIT_BYTES = 56 * 1024;

/** Where the form read is kept for the request's later steps: read once, whatever reads it. */
const READ = Symbol('replayed form');

/** The form, or undefined when the body is not a form, is too large, or could not be read. */
export async function readReplayedForm(ctx: Context): Promise<URLSearchParams | undefined> {
  const state = ctx.state as { [READ]?: URLSearchParams | null };
  if (state[READ] !== undefined) return state[READ] ?? undefined;
  if (!ctx.is('application/x-www-form-urlencoded')) return undefined;
  const original = ctx.req;
  const chunks = original[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const read: Buffer[] = [];
  let size = 0;
  let complete = false;
  let failure: unknown;
  try {
    while (size <= BODY_LIMIT_BYTES) {
      const chunk = await chunks.next();
      if (chunk.done) {
        complete = true;
        break;
      }
      read.push(chunk.value);
      size += chunk.value.length;
    }
  } catch (error) {
    // The client went away mid-body, say: the library meets the same failure, and answers it as before.
    failure = error;
  }
  async function* replay() {
    yield* read;
    if (failure) throw failure;
    if (!complete) for (let chunk = await chunks.next(); !chunk.done; chunk = await chunks.next()) yield chunk.value;
  }
  // A body read whole (nearly every one) is handed on as it is: no generator to step through.
  present(ctx, complete ? Readable.from(read, { objectMode: false }) : Readable.from(replay(), { objectMode: false }));
  const form = complete ? new URLSearchParams(Buffer.concat(read).toString('utf8')) : undefined;
  state[READ] = form ?? null;
  return form;
}

/** Hands the library `form` instead of the body read (a step that rewrote it). */
export function replaceForm(ctx: Context, form: URLSearchParams): void {
  (ctx.state as { [READ]?: URLSearchParams | null })[READ] = form;
  const body = Buffer.from(form.toString());
  ctx.req.headers['content-length'] = String(body.length);
  delete ctx.req.headers['transfer-encoding'];
  present(ctx, Readable.from([body]));
}

/** The library reads the body from ctx.req, with its headers. */
function present(ctx: Context, stream: Readable): void {
  ctx.req = Object.assign(stream, { headers: ctx.req.headers, socket: ctx.req.socket }) as unknown as Context['req'];
}
