/**
 * The specification's error envelopes, as schemas for the OpenAPI document, and what each status
 * answers when a route says nothing more particular (the messages are the ones the service sends).
 * Every envelope also carries `request_id` and `doc_url` (error-handler.ts adds them to every answer).
 */
import { z } from 'zod';
import { ERROR_DOCS_PATH, errorDocUrl } from '../core/error-catalog.js';
import { internalErrorMessage } from '../core/errors.js';
import { UnknownGuidError, UnknownTokenError } from '../core/identity/errors.js';
import { CLIENT_AUTH_MESSAGES } from '../core/oauth/client-authentication.js';
import type { ErrorExample } from './route-table.js';

/** The origin of the examples of shared schemas (the document's own examples name its server). */
export const EXAMPLE_ORIGIN = 'https://api.example.com';
/** The request id every example shows. */
export const EXAMPLE_REQUEST_ID = '0b6c3f2e-5d14-4a8b-9e71-c2f4a8d39e06';

const RequestId = z
  .string()
  .describe('The id of this request, also in the `X-Request-Id` header of the answer (yours, when you sent a sane one): quote it to support, who find the request in our log under it.');
const DocUrl = z
  .url()
  .describe(`Where the code is explained: its section of the errors page, \`<BASE_URL>${ERROR_DOCS_PATH}#<code>\`.`);

/** An example envelope as the service answers it: with the example request id and the code's doc_url. */
export function withReferences<T extends { code: string }>(example: T, origin = EXAMPLE_ORIGIN): T & { request_id: string; doc_url: string } {
  return { ...example, request_id: EXAMPLE_REQUEST_ID, doc_url: errorDocUrl(origin, example.code) };
}

const TotalBreakdown = z.object({
  base_amount: z.string().nullable(),
  tax_amount: z.string().nullable(),
  services_amount: z.string(),
  seats_amount: z.string(),
  total_amount: z.string(),
  currency: z.string(),
});

export const ErrorResponse = z
  .object({
    message: z.string().describe('What went wrong and what to do next, in words for a developer or an agent.'),
    status_code: z.number().int().describe('The HTTP status, repeated.'),
    code: z.string().describe('A stable snake_case code to branch on, e.g. `not_found`, `rate_limited`.'),
    details: z.string().optional().describe('More about a provider-forwarded error.'),
    request_id: RequestId,
    doc_url: DocUrl,
    order_id: z.string().nullable().optional().describe('On 409 `price_changed`: the provider order to pay at the new total (retryProviderBooking), or null: price the offer again and book anew.'),
    previous_total_amount: z.string().optional().describe('On 409 `price_changed`: the total the booking was asked at.'),
    new_total_amount: z.string().optional().describe('On 409 `price_changed`: the provider’s total now.'),
    currency: z.string().optional().describe('On 409 `price_changed` and `total_changed`: the currency of both totals.'),
    expected_total: z.object({ amount: z.string(), currency: z.string() }).optional().describe('On 409 `total_changed`: the `expected_total` you sent.'),
    current_total: TotalBreakdown.optional().describe('On 409 `total_changed`: the total now, in parts: show it to the traveler, then book again with it as `expected_total`.'),
  })
  .meta({
    id: 'ErrorResponse',
    description: 'The standard error envelope.',
    examples: [
      withReferences({
        message: 'There is no offer 8d3f6b2a-91c4-4e7d-b5a8-0f2c6e9d1b47 of provider_b that you can reach: create one first (createProviderOffer over REST, or create_offer from a search_flights result).',
        status_code: 404,
        code: 'offer_not_found',
      }),
    ],
  });

export const FieldError = z
  .object({
    field: z.string().describe('Dotted path of the field in the request, e.g. `passengers.0.born_on`.'),
    rule: z.string().describe('The rule that failed: `required`, `type`, `min_length`, `max_length`, `pattern`, `enum`, `unknown_field`, ...'),
    message: z.string().describe('What the field must be.'),
  })
  .meta({ id: 'FieldError', examples: [{ field: 'date_of_birth', rule: 'date', message: 'date_of_birth must be a valid date' }] });

const VALIDATION_MESSAGE = 'The request is not valid: see `fields` for each rule that failed.';

/** A body with a field that does not fit and one that is not in the schema. */
export const BODY_VALIDATION_EXAMPLE = {
  message: VALIDATION_MESSAGE,
  code: 'validation_error',
  fields: {
    date_of_birth: { field: 'date_of_birth', rule: 'date', message: 'date_of_birth must be a valid date' },
    nickname: { field: 'nickname', rule: 'unknown_field', message: 'nickname is not a known field: remove it' },
  },
};

export const ValidationErrorResponse = z
  .object({
    message: z.string(),
    code: z.literal('validation_error'),
    fields: z.record(z.string(), FieldError).describe('One entry per field that failed, keyed by its path.'),
    request_id: RequestId,
    doc_url: DocUrl,
  })
  .meta({
    id: 'ValidationErrorResponse',
    description: 'The validation error envelope: the request body, query or path is invalid.',
    examples: [withReferences(BODY_VALIDATION_EXAMPLE)],
  });

/** A path or query that does not fit: `{userid}` is neither `me` nor a UUID. */
export const PARAMETER_VALIDATION_EXAMPLE = {
  message: VALIDATION_MESSAGE,
  code: 'validation_error',
  fields: { userid: { field: 'userid', rule: 'one_of', message: 'userid does not match any of the accepted shapes' } },
};

export const OAuthErrorResponse = z
  .object({
    error: z.enum(['invalid_token', 'insufficient_scope']),
    error_description: z.string(),
    scope: z.string().optional().describe('On 403: the scope the operation needs.'),
    code: z.string(),
    request_id: RequestId,
    doc_url: DocUrl,
  })
  .meta({
    id: 'OAuthErrorResponse',
    description: 'The OAuth error envelope for bearer token failures; `WWW-Authenticate: Bearer` carries the same.',
    examples: [withReferences(insufficientScopeExample('passengers.write'))],
  });

export const OAuthClientErrorResponse = z
  .object({
    error: z.literal('invalid_client'),
    error_description: z.string(),
    code: z.literal('invalid_client'),
    request_id: RequestId,
    doc_url: DocUrl,
  })
  .meta({
    id: 'OAuthClientErrorResponse',
    description: 'The OAuth error envelope for client authentication failures of the identity API (RFC 6749 §5.2); on 401 `WWW-Authenticate: Basic` too.',
    examples: [withReferences(invalidClientExample(CLIENT_AUTH_MESSAGES.failed))],
  });

export const IdentityErrorResponse = z
  .object({
    error: z.enum(['unknown_guid', 'unknown_token']),
    code: z.enum(['unknown_guid', 'unknown_token']).describe('The same as `error`.'),
    message: z.string().describe('What to do: delete the stored guid, re-recognize, retry once.'),
    request_id: RequestId,
    doc_url: DocUrl,
  })
  .meta({
    id: 'IdentityErrorResponse',
    description:
      'The identity error envelope: the one 404 of the identity API. Unknown, revoked, expired, used, malformed and another client’s guids or tokens all answer this same body (only `request_id` differs), on purpose.',
    examples: [withReferences(identityNotFoundExample('unknown_guid'))],
  });

export function identityNotFoundExample(code: 'unknown_guid' | 'unknown_token'): { error: string; code: string; message: string } {
  const error = code === 'unknown_guid' ? new UnknownGuidError() : new UnknownTokenError();
  return { error: code, code, message: error.message };
}

export function invalidClientExample(description: string): { error: string; error_description: string; code: string } {
  return { error: 'invalid_client', error_description: description, code: 'invalid_client' };
}

export const EXPIRED_TOKEN_EXAMPLE = {
  error: 'invalid_token',
  error_description: 'The access token has expired: refresh it with your refresh token, or sign the traveler in again.',
  code: 'invalid_token',
};

export function insufficientScopeExample(scope: string): { error: string; error_description: string; scope: string; code: string } {
  const description = `This operation needs the "${scope}" scope, which the traveler has not granted to your client: ask for it in a new authorization request.`;
  return { error: 'insufficient_scope', error_description: description, scope, code: 'insufficient_scope' };
}

export const BEARER_ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'The x-api-key header is missing, unknown or revoked (standard envelope), or the access token is missing, invalid or expired (OAuth envelope, `invalid_token`, and `WWW-Authenticate: Bearer`).',
  403: "The operation is not on your allowlist, a publishable key was sent (`publishable_key_not_allowed`: use your secret key), the token belongs to another partner's client, or `{userid}` is another traveler (standard envelope); or the token lacks the route's scope (OAuth envelope, `insufficient_scope`, with `scope`).",
};

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid (validation envelope) or its body is not valid JSON.',
  401: 'The x-api-key header is missing, unknown or revoked.',
  403: "Your partner application may not call this operation (route allowlist), or the publishable key may not: outside the checkout's routes (`publishable_key_not_allowed`) or from an origin it does not list (`origin_not_allowed`).",
  404: 'The resource does not exist.',
  405: 'The path exists but not with this method; `Allow` lists the methods.',
  402: 'The card was declined (`card_declined`; `details` says why): ask the traveler for another card.',
  409: 'The request conflicts with the current state.',
  410: 'The resource existed and is gone (for example an expired offer).',
  413: 'The request body is larger than the route accepts (1 MiB unless stated).',
  415: 'The request body is not JSON.',
  422: 'The provider cannot do this with this offer (its capabilities say no, or it refused).',
  429: 'Rate limit reached: wait for `Retry-After` seconds. `RateLimit` and `RateLimit-Policy` describe the budget.',
  500: 'An unexpected error; the body carries a request id to quote to support.',
  501: 'This service does not reach the provider’s system (it is not configured here).',
  502: 'The flight provider failed.',
  503: 'Not ready (for example the database does not answer).',
  504: 'The flight provider did not answer in time.',
};

/** The standard envelope's answer per status, where a route names none of its own. */
export const ERROR_EXAMPLES: Record<number, ErrorExample & { request_id?: string }> = {
  400: { code: 'invalid_json', message: 'The request body is not valid JSON: send a JSON object or array with Content-Type: application/json.' },
  401: {
    code: 'invalid_api_key',
    message: 'The API key in x-api-key is not valid: it is unknown or has been revoked. Use an active key of your partner application.',
  },
  404: { code: 'not_found', message: 'The resource does not exist, or not for your application.' },
  409: { code: 'conflict', message: 'The request conflicts with the current state: read the resource again, then retry.' },
  410: { code: 'gone', message: 'The resource is gone.' },
  413: { code: 'payload_too_large', message: 'The request body is too large: this route accepts at most 1 MiB.' },
  415: {
    code: 'unsupported_media_type',
    message: 'This route accepts JSON only: send the body with Content-Type: application/json (got text/plain).',
  },
  422: {
    code: 'offer_no_longer_available',
    message: 'The airline no longer sells this offer (sold out or withdrawn): search again for another one.',
    details: 'provider_b: sold out or withdrawn',
  },
  429: { code: 'rate_limited', message: 'Rate limit reached: your plan allows 25 requests per second. Retry after 1 s (see Retry-After).' },
  500: {
    code: 'internal_error',
    message: internalErrorMessage(EXAMPLE_REQUEST_ID),
    request_id: EXAMPLE_REQUEST_ID,
  },
  501: { code: 'provider_not_supported', message: 'Calls to provider_a are not supported yet.' },
  502: { code: 'provider_unavailable', message: 'provider_b is not answering as expected just now: try again in a moment.' },
  503: { code: 'not_ready', message: 'The database does not answer yet: retry shortly.' },
  504: { code: 'provider_timeout', message: 'provider_b did not answer within 10 s: try again in a moment.' },
};

export const MULTIPART_UNREADABLE_EXAMPLE: ErrorExample = { code: 'invalid_body', message: 'The multipart form could not be read: send it again.' };

/** The allowlist refusal, naming the operation as the service does. */
export function notAllowedExample(operationId: string): ErrorExample {
  return {
    code: 'operation_not_allowed',
    message: `Your partner application is not allowed to call ${operationId}. Ask the platform team to add it to your route allowlist.`,
  };
}

export const OTHER_TRAVELER_EXAMPLE: ErrorExample = {
  code: 'not_your_user',
  message: 'This token acts for one traveler only: use `me` (or that traveler’s own id) in the path.',
};
