/** The specification's error envelopes, as schemas for the OpenAPI document. */
import { z } from 'zod';

export const ErrorResponse = z
  .object({
    message: z.string().describe('What went wrong and what to do next, in words for a developer or an agent.'),
    status_code: z.number().int().describe('The HTTP status, repeated.'),
    code: z.string().describe('A stable snake_case code to branch on, e.g. `not_found`, `rate_limited`.'),
    details: z.string().optional().describe('More about a provider-forwarded error.'),
    request_id: z.string().optional().describe('On 5xx: quote it to support.'),
  })
  .meta({ id: 'ErrorResponse', description: 'The standard error envelope.' });

export const FieldError = z
  .object({
    field: z.string().describe('Dotted path of the field in the request, e.g. `passengers.0.born_on`.'),
    rule: z.string().describe('The rule that failed: `required`, `type`, `min_length`, `max_length`, `pattern`, `enum`, `unknown_field`, ...'),
    message: z.string().describe('What the field must be.'),
  })
  .meta({ id: 'FieldError' });

export const ValidationErrorResponse = z
  .object({
    message: z.string(),
    code: z.literal('validation_error'),
    fields: z.record(z.string(), FieldError).describe('One entry per field that failed, keyed by its path.'),
  })
  .meta({ id: 'ValidationErrorResponse', description: 'The validation error envelope: the request body, query or path is invalid.' });

export const OAuthErrorResponse = z
  .object({
    error: z.enum(['invalid_token', 'insufficient_scope']),
    error_description: z.string(),
    scope: z.string().optional().describe('On 403: the scope the operation needs.'),
    code: z.string(),
  })
  .meta({
    id: 'OAuthErrorResponse',
    description: 'The OAuth error envelope for bearer token failures; `WWW-Authenticate: Bearer` carries the same.',
  });

export const BEARER_ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'The x-api-key header is missing, unknown or revoked (standard envelope), or the access token is missing, invalid or expired (OAuth envelope, `invalid_token`).',
  403: "The operation is not on your allowlist (standard envelope), or the token lacks the route's scope (OAuth envelope, `insufficient_scope`, with `scope`).",
};

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid (validation envelope) or its body is not valid JSON.',
  401: 'The x-api-key header is missing, unknown or revoked.',
  403: 'Your partner application may not call this operation (route allowlist).',
  404: 'The resource does not exist.',
  405: 'The path exists but not with this method; `Allow` lists the methods.',
  409: 'The request conflicts with the current state.',
  410: 'The resource existed and is gone (for example an expired offer).',
  413: 'The request body is larger than the route accepts (1 MiB unless stated).',
  415: 'The request body is not JSON.',
  429: 'Rate limit reached: wait for `Retry-After` seconds. `RateLimit` and `RateLimit-Policy` describe the budget.',
  500: 'An unexpected error; the body carries a request id to quote to support.',
  502: 'The flight provider failed.',
  503: 'Not ready (for example the database does not answer).',
  504: 'The flight provider did not answer in time.',
};
