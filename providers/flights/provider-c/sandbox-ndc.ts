/**
 * How provider_c's sandbox speaks: NDC answers a business error with HTTP 200 and
 * `Errors:[{Code, DescText, TypeCode}]` (beside the order, when one exists); a request it cannot read is
 * 400, a bad token 401 (those two statuses are ours: real NDC hubs differ).
 */
import { randomBytes } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { SANDBOX_TOKEN_PREFIX } from './sandbox-magic.js';
import type { WireOffer } from './wire.js';

export async function authenticate(ctx: Context, next: Next): Promise<void> {
  if (ctx.get('authorization').startsWith(`Bearer ${SANDBOX_TOKEN_PREFIX}`)) return next();
  ndcError(ctx, '401', 'Authentication failed: invalid or missing credentials', 'NotProcessed', 401);
}

/** An NDC error answer; always false, so that a guard can return it. */
export function ndcError(ctx: Context, code: string, text: string, type = 'NotProcessed', status = 200, beside: Record<string, unknown> = {}): false {
  ctx.status = status;
  ctx.body = { Errors: [{ Code: code, DescText: text, TypeCode: type }], ...beside };
  return false;
}

/** The request body read with `schema`, or undefined when the 400 answer was given. */
export function parsed<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> | undefined {
  const result = schema.safeParse(ctx.request.body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  ndcError(ctx, '400', `Invalid request: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(), 'NotProcessed', 400);
  return undefined;
}

/** The flight number the magic values are read from. */
export function flightOf(offer: WireOffer): string | undefined {
  return offer.DataLists.DatedMarketingSegmentList[0]?.MarketingCarrierFlightNumberText;
}

/** Upper-case letters and digits, as airlines write booking references. */
export function code(length: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
}
