/**
 * The token endpoint's share of the failed-credential limits (failed-auth-guard.ts). A client secret sent
 * with client_secret_basic or client_secret_post is put to the guard before oidc-provider checks it, and
 * what the library answers is counted:
 * - 401 `invalid_client` (an unknown client id, a wrong or expired secret): a failure of that client id
 *   from the caller's network, and of the network;
 * - a token response: the secret is right, and known so on every instance (the identity API's Basic
 *   credentials are the same secret, and count as the same credential).
 * A caller past a budget gets 429 in the endpoint's own dialect (RFC 6749 §5.2's JSON, as the
 * registration limit answers), with Retry-After, and the library never sees the request.
 * A request that presents no secret guesses none (a public client proves itself with its code verifier or
 * refresh token): it is neither refused nor counted here.
 */
import { Readable } from 'node:stream';
import type { Context, Next } from 'koa';
import { RateLimitedError } from '../core/errors.js';
import { parseBasic } from './client-credentials.js';
import type { Credential, FailedAuthGuard } from './failed-auth-guard.js';

/** oidc-provider's own limit on a request body: a larger one is the library's to refuse. */
const BODY_LIMIT_BYTES = 56 * 1024;

export function limitFailedClientSecrets(guard: Pick<FailedAuthGuard, 'assertAllowed' | 'recordFailure' | 'recordSuccess'>) {
  return async function limitClientSecrets(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'POST') return next();
    const credential = await presentedSecret(ctx);
    if (!credential) return next();
    try {
      await guard.assertAllowed(ctx.ip, credential);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      ctx.status = 429;
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: error.code, error_description: error.message };
      return;
    }
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    if (ctx.status === 401 && body?.error === 'invalid_client') await guard.recordFailure(ctx.ip, credential);
    else if (ctx.status === 200) await guard.recordSuccess(credential);
  };
}

/**
 * The client id and secret the request authenticates with, read as the library reads them: the Basic
 * header, or else `client_id` and `client_secret` in the form body. (Both at once, or a malformed header,
 * is the library's 400 to answer, not a failed secret.)
 */
async function presentedSecret(ctx: Context): Promise<Credential | undefined> {
  const authorization = ctx.get('authorization');
  if (authorization !== '') {
    const basic = parseBasic(authorization);
    return basic && { kind: 'oauth_client', id: basic.clientId, secret: basic.secret };
  }
  if (!ctx.is('application/x-www-form-urlencoded')) return undefined;
  const form = await readForm(ctx);
  const id = form?.get('client_id');
  const secret = form?.get('client_secret');
  return id && secret ? { kind: 'oauth_client', id, secret } : undefined;
}

/**
 * Reads the form body and hands the library the same bytes in a fresh stream (it reads its own body: no
 * parser runs before it). Past the library's limit, the body is handed on unread, to be refused there.
 */
async function readForm(ctx: Context): Promise<URLSearchParams | undefined> {
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
  // The headers and the socket stay reachable (the address, the protocol), as the later steps expect.
  ctx.req = Object.assign(Readable.from(replay(), { objectMode: false }), { headers: original.headers, socket: original.socket }) as unknown as Context['req'];
  return complete ? new URLSearchParams(Buffer.concat(read).toString('utf8')) : undefined;
}
