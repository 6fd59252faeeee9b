/** How sandboxes play a provider that answers too slowly. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';

/**
 * Waits `ms` before answering, or less if the caller hangs up (it timed out): nothing stays open. The
 * response's `close` says the caller is gone; the request's fires as soon as a POST's body has been read.
 * True when the caller still waits; false when it hung up, and what it asked must then not be done.
 */
export async function answerSlowly(ctx: Context, ms: number): Promise<boolean> {
  const gone = new AbortController();
  const hangUp = () => gone.abort();
  ctx.res.once('close', hangUp);
  await sleep(ms, undefined, { signal: gone.signal }).catch(() => undefined);
  ctx.res.off('close', hangUp);
  return !gone.signal.aborted && !callerGone(ctx);
}

/** The caller hung up (it timed out): whatever it asked for must not happen. */
export function callerGone(ctx: Context): boolean {
  return ctx.res.destroyed || ctx.req.socket.destroyed;
}
