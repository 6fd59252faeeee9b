/** How sandboxes play a provider that answers too slowly. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'koa';

/**
 * Waits `ms` before answering, or less if the caller hangs up (it timed out): nothing stays open. The
 * response's `close` says the caller is gone; the request's fires as soon as a POST's body has been read.
 */
export async function answerSlowly(ctx: Context, ms: number): Promise<void> {
  const gone = new AbortController();
  ctx.res.once('close', () => gone.abort());
  await sleep(ms, undefined, { signal: gone.signal }).catch(() => undefined);
}
