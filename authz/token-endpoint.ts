/**
 * What the token endpoint does beyond oidc-provider:
 * - the refresh grant also accepted as a JSON body (the specification's clients send it so);
 * - on the code exchange, `svc_guid`: the traveler's pairwise id for this client;
 * - on refresh, a new access token only (the refresh token is never rotated, so it is not echoed);
 * - every successful exchange keeps a dynamically registered client alive for another 30 days.
 */
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { Context, Next } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../core/clock.js';
import type { PairwiseIds } from '../core/users/pairwise-ids.js';
import { extendDynamicClient } from './oidc-adapter.js';

export const TOKEN_PATH = '/v1/oauth/token';
const JSON_LIMIT_BYTES = 16 * 1024;

/**
 * Re-presents a JSON refresh request as the form the library reads. Only the refresh grant: the code
 * exchange stays form-encoded, as RFC 6749 has it.
 */
export async function jsonRefreshBody(ctx: Context, next: Next): Promise<void> {
  if (ctx.method !== 'POST' || !ctx.is('application/json')) return next();
  let body: unknown;
  try {
    body = JSON.parse((await readLimited(ctx.req, JSON_LIMIT_BYTES)).toString('utf8'));
  } catch {
    return oauthError(ctx, 400, 'invalid_request', 'The body is not valid JSON of at most 16 KiB.');
  }
  if (!isFlatObject(body)) {
    return oauthError(ctx, 400, 'invalid_request', 'The JSON body must be an object whose values are strings.');
  }
  if (body.grant_type !== 'refresh_token') {
    return oauthError(
      ctx,
      400,
      'invalid_request',
      'Only the refresh grant may be sent as JSON: send the code exchange as application/x-www-form-urlencoded.',
    );
  }
  const form = Buffer.from(new URLSearchParams(body).toString());
  ctx.req.headers['content-type'] = 'application/x-www-form-urlencoded';
  ctx.req.headers['content-length'] = String(form.length);
  // The original stream is spent: the library reads the re-encoded body from a fresh one.
  ctx.req = Object.assign(Readable.from([form]), { headers: ctx.req.headers }) as unknown as Context['req'];
  return next();
}

export function tokenResponseExtras(deps: { db: Knex; clock: Clock; pairwiseIds: PairwiseIds }) {
  return async function extendTokenResponse(ctx: Context, next: Next): Promise<void> {
    await next();
    const oidc = (ctx as KoaContextWithOIDC).oidc;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (!oidc || !body || typeof body !== 'object') return;
    if (ctx.status === 401 && body.error === 'invalid_client' && oidc.client?.clientAuthMethod === 'none' && /^Basic /i.test(ctx.get('authorization'))) {
      // The specification's answer to Basic credentials on a client not registered for them.
      ctx.status = 400;
      ctx.remove('WWW-Authenticate');
      body.error_description = 'this client is public (token_endpoint_auth_method none): send client_id in the body, without Basic credentials';
      return;
    }
    if (ctx.status !== 200) return;
    const clientId = oidc.client?.clientId;
    const grantType = oidc.params?.grant_type;
    if (grantType === 'refresh_token') {
      // A new access token only: the refresh token is not rotated, and identity claims came with the code.
      delete body.refresh_token;
      delete body.id_token;
    }
    if (grantType === 'authorization_code' && clientId) {
      const accountId = oidc.entities.AuthorizationCode?.accountId;
      if (accountId) body.svc_guid = await deps.pairwiseIds.guidFor(accountId, clientId);
    }
    if (clientId && !oidc.client?.['partner_id']) await extendDynamicClient(deps.db, deps.clock, clientId);
  };
}

function oauthError(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  // Answered before the client is known: readable from any origin (it holds nothing secret).
  ctx.set({ 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' });
  ctx.body = { error, error_description: description };
}

function isFlatObject(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string')
  );
}

async function readLimited(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
