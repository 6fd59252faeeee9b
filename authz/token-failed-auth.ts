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
import type { Context, Next } from 'koa';
import { RateLimitedError } from '../core/errors.js';
import { parseBasic } from './client-credentials.js';
import type { Credential, FailedAuthGuard } from './failed-auth-guard.js';
import { readReplayedForm } from './replayed-form.js';

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
  const form = await readReplayedForm(ctx);
  const id = form?.get('client_id');
  const secret = form?.get('client_secret');
  return id && secret ? { kind: 'oauth_client', id, secret } : undefined;
}
