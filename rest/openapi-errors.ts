/**
 * The error answers of a route for the OpenAPI document: the statuses every route of its kind can answer
 * (credentials, rate limit, body) and the ones it declares, each in the envelope the service really sends,
 * with the answer it gives as a named example. Where one status comes in two envelopes (a bad API key or a
 * bad token), each has its example. Examples carry `request_id` and `doc_url` as every error answer does,
 * the link on the document's own server.
 */
import { z } from 'zod';
import {
  BEARER_ERROR_DESCRIPTIONS,
  BODY_VALIDATION_EXAMPLE,
  ERROR_DESCRIPTIONS,
  ERROR_EXAMPLES,
  ErrorResponse,
  EXPIRED_TOKEN_EXAMPLE,
  IdentityErrorResponse,
  identityNotFoundExample,
  insufficientScopeExample,
  invalidClientExample,
  MULTIPART_UNREADABLE_EXAMPLE,
  notAllowedExample,
  OAuthClientErrorResponse,
  OAuthErrorResponse,
  OTHER_TRAVELER_EXAMPLE,
  PARAMETER_VALIDATION_EXAMPLE,
  ValidationErrorResponse,
  withReferences,
} from './envelopes.js';
import { ResolveIdentityRequest } from '../core/identity/schemas.js';
import { CLIENT_AUTH_MESSAGES } from '../core/oauth/client-authentication.js';
import type { ErrorExample, NamedExample, ResponseSpec, Route } from './route-table.js';

const RATE_LIMIT_HEADERS = {
  'Retry-After': 'Seconds to wait before the next request.',
  RateLimit: 'Where you stand in the policy closest to running out (the one that refused, on a 429): `"per_second";r=0;t=1`, or `"per_day";r=3;t=41230` once fewer of the day’s requests remain than of the second’s.',
  'RateLimit-Policy': 'Your plan’s policies: `"per_second";q=25;w=1, "per_day";q=100000;w=86400`.',
};

/** `origin` is the document's server (BASE_URL), where the examples' `doc_url` points. */
export function routeErrors(route: Route, origin: string): Record<number, ResponseSpec> {
  const statuses = new Set<number>(route.errors ?? []);
  // Client credentials answer no 403: there is no allowlist or scope behind them.
  if (route.auth !== 'none') (route.auth === 'client_basic' ? [401, 429] : [401, 403, 429]).forEach((status) => statuses.add(status));
  if (route.body || route.query || route.upload) statuses.add(400);
  if (route.body || route.upload) [413, 415].forEach((status) => statuses.add(status));
  statuses.add(500);
  return Object.fromEntries([...statuses].sort((a, b) => a - b).map((status) => [status, errorSpec(route, status, origin)]));
}

function errorSpec(route: Route, status: number, origin: string): ResponseSpec {
  const standard = (answered: number, example: ErrorExample) => withReferences(standardEnvelope(answered, example), origin);
  const oauth = <T extends { code: string }>(example: T) => withReferences(example, origin);
  const bearer = route.auth === 'api_key_and_bearer';
  const description = (bearer ? BEARER_ERROR_DESCRIPTIONS[status] : undefined) ?? ERROR_DESCRIPTIONS[status] ?? 'Error';
  // A traveler's token fails in the OAuth envelope, the partner's key in the standard one.
  const keyOrToken = z.union([ErrorResponse, OAuthErrorResponse]);
  if (route.auth === 'client_basic' && [400, 401, 404].includes(status)) return clientRouteError(route, status, origin);
  if (status === 400) return { description, ...badRequest(route, origin) };
  if (status === 401 && bearer) {
    return {
      description,
      schema: keyOrToken,
      headers: { 'WWW-Authenticate': 'The Bearer challenge, with `error="invalid_token"` when a token was sent.' },
      examples: {
        api_key: named('The API key is unknown or revoked', standard(401, ERROR_EXAMPLES[401] as ErrorExample)),
        token: named('The access token has expired', oauth(EXPIRED_TOKEN_EXAMPLE)),
      },
    };
  }
  if (status === 403) {
    const examples: Record<string, NamedExample> = { not_allowed: named('Not on your route allowlist', standard(403, notAllowedExample(route.operationId))) };
    if (!bearer) return { description, schema: ErrorResponse, examples };
    if (route.scope) examples.insufficient_scope = named(`The token lacks ${route.scope}`, oauth(insufficientScopeExample(route.scope)));
    if (route.path.includes('{userid}')) examples.other_traveler = named('Another traveler’s id in the path', standard(403, OTHER_TRAVELER_EXAMPLE));
    return { description, schema: keyOrToken, headers: { 'WWW-Authenticate': 'On `insufficient_scope`: the RFC 6750 challenge naming the scope.' }, examples };
  }
  const example = standard(status, route.errorExamples?.[status] ?? ERROR_EXAMPLES[status] ?? (ERROR_EXAMPLES[500] as ErrorExample));
  return {
    description,
    schema: ErrorResponse,
    ...(status === 429 ? { headers: RATE_LIMIT_HEADERS } : {}),
    examples: { [example.code]: named(example.code, example) },
  };
}

/**
 * The identity API's own answers: client authentication in the OAuth envelope (RFC 6749 §5.2), and the one
 * 404 in the identity envelope, alike for every cause.
 */
function clientRouteError(route: Route, status: number, origin: string): ResponseSpec {
  const client = (description: string) => withReferences(invalidClientExample(description), origin);
  if (status === 401) {
    return {
      description: 'Client authentication failed (OAuth envelope, `invalid_client`): no, malformed or wrong Basic credentials, or an API key or bearer token instead.',
      schema: OAuthClientErrorResponse,
      headers: { 'WWW-Authenticate': '`Basic realm="<BASE_URL>", error="invalid_client"`.' },
      examples: {
        invalid_client: named('Unknown client or wrong secret', client(CLIENT_AUTH_MESSAGES.failed)),
        missing: named('No Basic credentials', client(CLIENT_AUTH_MESSAGES.missing)),
      },
    };
  }
  if (status === 400) {
    const { schema, examples } = badRequest(route, origin);
    return {
      description: 'The body is invalid (validation envelope), or the client is public or registered for client_secret_post (OAuth envelope, `invalid_client`).',
      schema: z.union([schema as z.ZodType, OAuthClientErrorResponse]),
      examples: { ...examples, public_client: named('A public client presented Basic credentials', client(CLIENT_AUTH_MESSAGES.public)) },
    };
  }
  // Only resolve takes recognition tokens; the loyalty-link operations take a guid alone.
  const codes: ('unknown_guid' | 'unknown_token')[] = route.body === ResolveIdentityRequest ? ['unknown_guid', 'unknown_token'] : ['unknown_guid'];
  return {
    description:
      'The guid or token does not resolve: unknown, malformed, disconnected, expired, used or another client’s, all alike (identity envelope). Delete the stored guid, re-recognize, retry once; never retry a 404 without deleting first.',
    schema: IdentityErrorResponse,
    examples: Object.fromEntries(codes.map((code) => [code, named(code, withReferences(identityNotFoundExample(code), origin))])),
  };
}

/** A field that does not fit (validation envelope); with a body, also a body that cannot be read. */
function badRequest(route: Route, origin: string): Pick<ResponseSpec, 'schema' | 'examples'> {
  const own = route.errorExamples?.[400];
  const fallback = route.body || route.upload ? BODY_VALIDATION_EXAMPLE : PARAMETER_VALIDATION_EXAMPLE;
  const validation = named('A field does not fit', withReferences(own?.fields ? { message: own.message, code: own.code, fields: own.fields } : fallback, origin));
  // A route's own 400 of another code (not a field's) is in the standard envelope, beside the validation one.
  const refusal = own && !own.fields ? { [own.code]: named(own.code, withReferences(standardEnvelope(400, own), origin)) } : {};
  if (!route.body && !route.upload) return { schema: own && !own.fields ? z.union([ValidationErrorResponse, ErrorResponse]) : ValidationErrorResponse, examples: { validation, ...refusal } };
  const unreadable = route.upload ? MULTIPART_UNREADABLE_EXAMPLE : (ERROR_EXAMPLES[400] as ErrorExample);
  return {
    schema: z.union([ValidationErrorResponse, ErrorResponse]),
    examples: { validation, ...refusal, [unreadable.code]: named('The body cannot be read', withReferences(standardEnvelope(400, unreadable), origin)) },
  };
}

/** The standard envelope's own fields as the service sends them (withReferences adds the rest). */
function standardEnvelope(status: number, example: ErrorExample) {
  const { message, code, details } = example;
  return { message, status_code: status, code, ...(details ? { details } : {}) };
}

function named(summary: string, value: unknown): NamedExample {
  return { summary, value };
}
