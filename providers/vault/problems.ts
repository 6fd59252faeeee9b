/**
 * The vault's error answers: RFC 7807 problem details as Basis Theory gives them. A validation problem
 * names each field (`data.number`) with its messages; the others say what is wrong in `detail`.
 */
import type { Context } from 'koa';
import type { z } from 'zod';
import type { FieldProblems } from './card-checks.js';
import { VALIDATION_PROBLEM_TITLE, VALIDATION_PROBLEM_TYPE, type WireProblem } from './wire.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
};

/** Thrown by the sandbox's handlers; its error handler answers it. */
export class VaultProblem extends Error {
  readonly problem: WireProblem;

  constructor(problem: WireProblem) {
    super(problem.detail ?? problem.title);
    this.problem = problem;
  }

  static of(status: number, detail: string): VaultProblem {
    return new VaultProblem({ title: TITLES[status] ?? 'Error', status, detail });
  }

  static invalid(errors: FieldProblems): VaultProblem {
    return new VaultProblem({ type: VALIDATION_PROBLEM_TYPE, title: VALIDATION_PROBLEM_TITLE, status: 400, errors });
  }
}

export const problems = {
  missingKey: () => VaultProblem.of(401, 'The BT-API-KEY header is missing.'),
  unknownKey: () => VaultProblem.of(401, 'The API key is not valid, or it has expired.'),
  forbidden: () => VaultProblem.of(403, 'The API key does not have the permission this operation needs.'),
  tokenNotFound: () => VaultProblem.of(404, 'The token was not found.'),
  routeNotFound: () => VaultProblem.of(404, 'There is no such endpoint.'),
  unexpected: () => VaultProblem.of(500, 'An unexpected error occurred.'),
};

/** A zod failure as the vault's validation problem: one entry per field path, `$` for the body itself. */
export function invalidInput(error: z.ZodError): VaultProblem {
  const errors: FieldProblems = {};
  const add = (path: PropertyKey[], message: string) => {
    const field = path.length === 0 ? '$' : path.map(String).join('.');
    (errors[field] ??= []).push(message);
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add([...issue.path, key], issue.message);
    else add(issue.path, issue.message);
  }
  return VaultProblem.invalid(errors);
}

/** Writes `problem` as the answer. */
export function answerProblem(ctx: Context, problem: WireProblem): void {
  ctx.status = problem.status;
  ctx.body = problem;
  ctx.type = 'application/problem+json';
}
