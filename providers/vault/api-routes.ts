/**
 * The vault's API (Basis Theory's dialect, decisions §8):
 *
 *   POST   /sessions      service key      {owner, origin} → 201 {session_key, expires_at} (10 minutes)
 *   POST   /tokens        service/session  {type: "card", data, metadata?} → 201 the masked token
 *   GET    /tokens/{id}   service key      → 200 the masked token
 *   PATCH  /tokens/{id}   service key      {metadata} as a JSON merge patch → 200 the masked token
 *   DELETE /tokens/{id}   service key      → 204 (the card is wiped)
 *   POST   /detokenize    processor key    {token_id} → 200 {id, data: {number, ..., cvc at first only}}
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Clock } from '../../core/clock.js';
import type { vaultAccess, Caller } from './access.js';
import { checkCard } from './card-checks.js';
import { problems, VaultProblem } from './problems.js';
import { readBody } from './request-body.js';
import type { StoredToken, VaultStore } from './store.js';
import { WireCreateSession, WireCreateToken, WireDetokenize, WireUpdateToken, type WireDetokenized, type WireToken } from './wire.js';

export const SESSION_LIFETIME_MS = 10 * 60 * 1000;
/** The sandbox's one tenant. */
export const SANDBOX_TENANT_ID = '5a4e0c2b-7f1d-4c3a-9b8e-6d2f1a0c3e4b';

export function apiRoutes(deps: { store: VaultStore; clock: Clock; allow: ReturnType<typeof vaultAccess> }): Router {
  const { store, clock, allow } = deps;
  const router = new Router();

  router.post('/sessions', allow('service'), async (ctx) => {
    const input = await readBody(ctx, WireCreateSession);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
    const sessionKey = await store.createSession({ owner: input.owner, origin: input.origin, frameAncestors: input.frame_ancestors ?? [], expiresAt, now });
    ctx.status = 201;
    ctx.body = { session_key: sessionKey, expires_at: expiresAt.toISOString() };
  });

  router.post('/tokens', allow('service', 'session'), async (ctx) => {
    const input = await readBody(ctx, WireCreateToken);
    const checked = checkCard(input.data, clock.now());
    if ('problems' in checked) throw VaultProblem.invalid(checked.problems);
    const caller = ctx.state.caller as Caller;
    const token = await store.createToken({
      id: randomUUID(),
      card: checked.card,
      metadata: input.metadata ?? {},
      owner: caller.kind === 'session' ? caller.owner : null,
      now: clock.now(),
    });
    ctx.status = 201;
    ctx.body = masked(token);
  });

  router.get('/tokens/:id', allow('service'), async (ctx) => {
    ctx.body = masked(found(await store.findToken(idOf(ctx))));
  });

  router.patch('/tokens/:id', allow('service'), async (ctx) => {
    const input = await readBody(ctx, WireUpdateToken, ['application/merge-patch+json', 'application/json']);
    ctx.body = masked(found(await store.updateMetadata(idOf(ctx), input.metadata, clock.now())));
  });

  router.delete('/tokens/:id', allow('service'), async (ctx) => {
    if (!(await store.deleteToken(idOf(ctx)))) throw problems.tokenNotFound();
    ctx.status = 204;
  });

  router.post('/detokenize', allow('processor'), async (ctx) => {
    const input = await readBody(ctx, WireDetokenize);
    const card = await store.detokenize(input.token_id);
    if (!card) throw problems.tokenNotFound();
    const answer: WireDetokenized = {
      id: card.id,
      data: {
        number: card.number,
        expiration_month: card.expirationMonth,
        expiration_year: card.expirationYear,
        ...(card.cvc === undefined ? {} : { cvc: card.cvc }),
      },
    };
    ctx.body = answer;
  });

  return router;
}

function idOf(ctx: Context): string {
  return String(ctx.params.id);
}

function found(token: StoredToken | undefined): StoredToken {
  if (!token) throw problems.tokenNotFound();
  return token;
}

function masked(token: StoredToken): WireToken {
  return {
    id: token.id,
    type: 'card',
    tenant_id: SANDBOX_TENANT_ID,
    card: { brand: token.brand, last4: token.last4, expiration_month: token.expirationMonth, expiration_year: token.expirationYear },
    fingerprint: token.fingerprint,
    metadata: token.metadata,
    owner: token.owner,
    created_at: token.createdAt.toISOString(),
    modified_at: token.modifiedAt?.toISOString() ?? null,
  };
}
