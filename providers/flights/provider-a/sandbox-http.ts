/**
 * What every endpoint of provider_a's sandbox shares: its bearer-token check, its error body
 * (`{errors:[{status, code, title, detail, source?}]}` with numeric codes; `source` is a `pointer` into a
 * body, or the query `parameter`), and the flight numbers that make
 * any call slow or fail.
 */
import type { Context } from 'koa';
import { answerSlowly } from '../sandbox-timing.js';
import { MAGIC_FLIGHT_NUMBERS, SANDBOX_TOKEN_PREFIX } from './magic-values.js';

export function authorized(ctx: Context): boolean {
  if (ctx.get('authorization').startsWith(`Bearer ${SANDBOX_TOKEN_PREFIX}`)) return true;
  fail(ctx, 401, 38192, 'Access token expired', 'The access token provided in the Authorization header is expired or not valid.');
  return false;
}

export function fail(ctx: Context, status: number, code: number, title: string, detail: string, pointer?: string): void {
  ctx.status = status;
  ctx.body = { errors: [{ status, code, title, detail, ...(pointer ? { source: { pointer } } : {}) }] };
}

/** A 400 naming the query parameter at fault (a GET has no body to point into), as Amadeus's search does. */
export function failParameter(ctx: Context, code: number, title: string, detail: string, parameter: string, example?: string): void {
  ctx.status = 400;
  ctx.body = { errors: [{ status: 400, code, title, detail, source: { parameter, ...(example ? { example } : {}) } }] };
}

/**
 * The slow and failing flight numbers; true when the answer was given (or the caller is gone). A slow call
 * waits `slowMs`, longer than the caller's timeout for that step, unless the caller hangs up first.
 */
export async function steered(ctx: Context, flight: string, slowMs: number): Promise<boolean> {
  if (flight === MAGIC_FLIGHT_NUMBERS.slow) {
    if (!(await answerSlowly(ctx, slowMs))) return true;
  }
  if (flight === MAGIC_FLIGHT_NUMBERS.systemError) {
    fail(ctx, 500, 141, 'SYSTEM ERROR HAS OCCURRED', 'Please retry later.');
    return true;
  }
  return false;
}
