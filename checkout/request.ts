/**
 * What the hosted checkout's JSON API reads of a request: its small JSON body (the page's own script is the
 * only sender), and the two credentials the page sends as headers. No cookie is read or set.
 */
import type { Context } from 'koa';
import { checkInput } from '../core/input-checks.js';
import { ValidationError } from '../core/errors.js';

export const SECRET_HEADER = 'x-checkout-secret';
export const TRAVELER_HEADER = 'x-checkout-traveler';

/** The page's choices are small: passengers, seats and bags of one offer. */
const BODY_LIMIT_BYTES = 64 * 1024;

export function clientSecretOf(ctx: Context): string {
  return ctx.get(SECRET_HEADER);
}

export function travelerTokenOf(ctx: Context): string | undefined {
  return ctx.get(TRAVELER_HEADER) || undefined;
}

/** The JSON body, or `{}` when there is none; anything else is a validation error naming `body`. */
export async function jsonBodyOf(ctx: Context): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw bodyProblem(`the body is larger than ${BODY_LIMIT_BYTES / 1024} KB`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  if (!ctx.is('application/json')) throw bodyProblem('send the body as application/json');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bodyProblem('the body is not valid JSON');
  }
  checkInput(body);
  return body;
}

function bodyProblem(message: string): ValidationError {
  return new ValidationError([{ field: 'body', rule: 'json', message }]);
}
