/** provider_b's error body (Duffel-like): `{errors:[{type, code, title, message, documentation_url}], meta}`. */
import type { Context } from 'koa';

export function answerError(ctx: Context, status: number, type: string, code: string, title: string, message: string): void {
  ctx.status = status;
  ctx.body = {
    errors: [{ type, code, title, message, documentation_url: `https://sandbox.invalid/docs/errors#${code}` }],
    meta: { status, request_id: `sandbox-${code}` },
  };
}

export const notFound = (ctx: Context, what: string) => answerError(ctx, 404, 'invalid_request_error', 'not_found', 'Not found', `The ${what} was not found.`);
