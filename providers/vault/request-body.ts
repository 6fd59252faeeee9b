/**
 * The JSON body of a vault request, checked against its wire schema. Not JSON: 415; too large: 413;
 * unreadable: 400; text PostgreSQL cannot store or nesting too deep (core's input checks) and every
 * schema failure: the vault's validation problem, per field.
 */
import type { Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { z } from 'zod';
import { inputProblems } from '../../core/input-checks.js';
import { invalidInput, VaultProblem } from './problems.js';

const BODY_LIMIT = '16kb';

const parse = koaBody({
  json: true,
  jsonTypes: ['application/json', 'application/merge-patch+json'],
  jsonLimit: BODY_LIMIT,
  jsonStrict: true,
  urlencoded: false,
  text: false,
  multipart: false,
  patchNode: false,
  parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PATCH],
});

/** The body parsed with `schema`; `types` are the content types the route takes. */
export async function readBody<S extends z.ZodType>(ctx: Context, schema: S, types: string[] = ['application/json']): Promise<z.output<S>> {
  const hasBody = ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length')) > 0;
  let body: unknown = {};
  if (hasBody) {
    if (!ctx.is(types)) throw VaultProblem.of(415, `Send the body as ${types.join(' or ')}.`);
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      const status = (error as { status?: unknown }).status;
      throw status === 413 ? VaultProblem.of(413, `The request body is larger than ${BODY_LIMIT}.`) : VaultProblem.of(400, 'The request body is not valid JSON.');
    }
    body = ctx.request.body;
  }
  const unstorable = inputProblems(body);
  if (unstorable.length > 0) {
    throw VaultProblem.invalid(Object.fromEntries(unstorable.map((problem) => [problem.field, [`${problem.field} contains characters that are not allowed.`]])));
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}
