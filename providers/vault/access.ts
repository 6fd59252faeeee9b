/**
 * Who is calling the vault, from the `BT-API-KEY` header, and what each kind of key may do:
 *
 * - the service's private keys: sessions, and tokens created, read, updated and deleted;
 * - the processor's key: detokenization only;
 * - session keys (`POST /sessions`): creating tokens only, for 10 minutes, each token then carries the
 *   session's owner.
 *
 * No key, or one the vault does not know (or an expired session's): 401. A key without the permission: 403.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Clock } from '../../core/clock.js';
import { problems } from './problems.js';
import type { VaultStore } from './store.js';

export type Caller = { kind: 'service' } | { kind: 'processor' } | { kind: 'session'; owner: string; origin: string };
export type CallerKind = Caller['kind'];

export const API_KEY_HEADER = 'bt-api-key';

export interface VaultKeys {
  serviceKeys: readonly string[];
  processorKeys: readonly string[];
}

/** Middleware factories that let through only the kinds of key named; the caller is then `ctx.state.caller`. */
export function vaultAccess(keys: VaultKeys, store: VaultStore, clock: Clock) {
  if (keys.serviceKeys.length === 0) throw new Error('The vault sandbox needs at least one service key');
  const service = keys.serviceKeys.map(digest);
  const processor = keys.processorKeys.map(digest);

  async function identify(key: string): Promise<Caller> {
    if (key === '') throw problems.missingKey();
    const presented = digest(key);
    if (service.some((known) => timingSafeEqual(known, presented))) return { kind: 'service' };
    if (processor.some((known) => timingSafeEqual(known, presented))) return { kind: 'processor' };
    const session = await store.findSession(key);
    if (session && session.expiresAt > clock.now()) return { kind: 'session', owner: session.owner, origin: session.origin };
    throw problems.unknownKey();
  }

  return function allow(...kinds: CallerKind[]) {
    return async function checkKey(ctx: Context, next: Next): Promise<void> {
      const caller = await identify(ctx.get(API_KEY_HEADER));
      if (!kinds.includes(caller.kind)) throw problems.forbidden();
      ctx.state.caller = caller;
      await next();
    };
  };
}

/** Digests of equal length, so that keys are compared in constant time whatever their lengths. */
function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
