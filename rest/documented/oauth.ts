/**
 * The authorization server's endpoints as the API reference shows them: token, registration, revocation,
 * discovery and the key set. authz/ serves them (oidc-provider and our token endpoint steps), not the route
 * table: this is their documentation only, handed to the document by the composition root. The answers
 * and their wording are the server's own; test/openapi-reference.test.ts holds the real ones to these
 * schemas.
 */
import {
  AUTHORIZATION_CODE_GRANT_EXAMPLE,
  AuthorizationServerMetadata,
  ClientRegistration,
  ClientRegistrationRequest,
  CODE_EXCHANGE_ANSWER,
  CONFIDENTIAL_REGISTRATION_EXAMPLE,
  JsonWebKeySet,
  OAuthError,
  PUBLIC_REGISTRATION_EXAMPLE,
  REFRESH_ANSWER,
  REFRESH_TOKEN_GRANT_EXAMPLE,
  RefreshTokenGrant,
  RevocationRequest,
  TokenRequest,
  TokenResponse,
} from '../../core/oauth/schemas.js';
import type { DocumentedOperation, NamedExample, ResponseSpec } from '../route-table.js';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** Client authentication by Basic or in the form; `{}`: a public client sends only `client_id`. */
const CLIENT_AUTH: Record<string, string[]>[] = [{ OAuthClient: [] }, {}];

const example = (summary: string, value: unknown): NamedExample => ({ summary, value });
const oauthError = (error: string, description: string) => example(error, { error, error_description: description });

function errors(description: string, examples: Record<string, NamedExample>, headers?: Record<string, string>): ResponseSpec {
  return { description, schema: OAuthError, examples, ...(headers ? { headers } : {}) };
}

const SERVER_ERROR = errors('Something failed on our side; retry later.', { server_error: oauthError('server_error', 'oops! something went wrong') });

const INVALID_CLIENT = errors(
  'Client authentication failed: unknown client, wrong secret, or a registration that expired (30 days after its last token exchange).',
  { invalid_client: oauthError('invalid_client', 'client authentication failed') },
  { 'WWW-Authenticate': '`Basic realm="<issuer>", error="invalid_client", error_description="client authentication failed"`' },
);

const token: DocumentedOperation = {
  method: 'POST',
  path: '/v1/oauth/token',
  operationId: 'exchangeToken',
  summary: 'Exchange a code, or refresh, for an access token',
  description:
    "The token endpoint (RFC 6749). `authorization_code`: your backend exchanges the `code` from the redirect, with the PKCE `code_verifier` and the same `redirect_uri`, form-encoded only; the answer has the access token (15 minutes), the refresh token and `svc_guid`, the traveler's stable id for your client. `refresh_token`: form-encoded or JSON; the answer has a new access token only (the refresh token is never rotated, lasts 30 days and never gains scopes). Confidential clients authenticate with Basic (`client_secret_basic`) or `client_id` and `client_secret` in the body (`client_secret_post`); public clients send `client_id` only. No `x-api-key` is needed (one sent is ignored).",
  tags: ['OAuth'],
  security: CLIENT_AUTH,
  body: {
    [FORM]: {
      schema: TokenRequest,
      examples: {
        authorization_code: example('The code exchange', AUTHORIZATION_CODE_GRANT_EXAMPLE),
        refresh_token: example('A refresh', REFRESH_TOKEN_GRANT_EXAMPLE),
      },
    },
    [JSON_TYPE]: { schema: RefreshTokenGrant },
  },
  responses: {
    200: {
      description: 'The tokens. `scope` is what the token carries: the scopes asked for that the traveler granted.',
      schema: TokenResponse,
      headers: { 'Cache-Control': '`no-store`.' },
      examples: { authorization_code: example('After the code exchange', CODE_EXCHANGE_ANSWER), refresh_token: example('After a refresh', REFRESH_ANSWER) },
    },
    400: errors('The grant or the request is not valid. Both `invalid_grant` and `invalid_scope` on a refresh mean: send the traveler through the authorization flow again.', {
      invalid_grant: oauthError('invalid_grant', 'grant request is invalid'),
      invalid_scope: oauthError('invalid_scope', 'the traveler has turned off every permission this app had: send them through the authorization flow again'),
      invalid_request: oauthError('invalid_request', 'Only the refresh grant may be sent as JSON: send the code exchange as application/x-www-form-urlencoded.'),
      unsupported_grant_type: oauthError('unsupported_grant_type', 'unsupported grant_type requested'),
      invalid_client: oauthError(
        'invalid_client',
        'this client is public (token_endpoint_auth_method none): send client_id in the body, without Basic credentials',
      ),
    }),
    401: INVALID_CLIENT,
    500: SERVER_ERROR,
  },
};

const register: DocumentedOperation = {
  method: 'POST',
  path: '/v1/oauth/register',
  operationId: 'registerClient',
  summary: 'Register an OAuth client (for agents)',
  description:
    'Open dynamic client registration (RFC 7591), for agents and apps that register themselves: no credentials, and any origin may call it (CORS). The answer carries a new UUID `client_id`; a confidential registration (the default, `client_secret_basic`) also gets `client_secret`, shown only then. Redirect URIs: https, not localhost, for a confidential client; a public client (`token_endpoint_auth_method: none`) may also use `http://localhost:<port>` and `http://127.0.0.1:<port>`. A registration lives 30 days after its last successful token exchange. 20 registrations an hour from one address.',
  tags: ['OAuth'],
  security: [],
  body: {
    [JSON_TYPE]: {
      schema: ClientRegistrationRequest,
      examples: {
        public: example('An agent (public client)', PUBLIC_REGISTRATION_EXAMPLE.request),
        confidential: example('A server-side app (confidential client)', CONFIDENTIAL_REGISTRATION_EXAMPLE.request),
      },
    },
  },
  responses: {
    201: {
      description: 'The client is registered.',
      schema: ClientRegistration,
      examples: {
        public: example('An agent (public client)', PUBLIC_REGISTRATION_EXAMPLE.answer),
        confidential: example('A server-side app: with its secret', CONFIDENTIAL_REGISTRATION_EXAMPLE.answer),
      },
    },
    400: errors('The metadata is not acceptable.', {
      invalid_redirect_uri: oauthError(
        'invalid_redirect_uri',
        "redirect_uris: http://app.example.com/oauth/callback must use https:// (a confidential client's redirects are https only)",
      ),
      invalid_client_metadata: oauthError(
        'invalid_client_metadata',
        'client_name must be plain text: U+202E at position 8 is a control or bidirectional formatting character, which could disguise the name travelers see; remove it',
      ),
      invalid_request: oauthError('invalid_request', 'failed to parse the request body'),
    }),
    429: errors(
      'Too many registrations from your network (an IPv4 /24 or IPv6 /64).',
      { too_many_requests: oauthError('too_many_requests', 'Too many client registrations from your network: retry after 1800 s, or reuse a registration you have.') },
      { 'Retry-After': 'Seconds to wait.' },
    ),
    500: SERVER_ERROR,
  },
};

const revoke: DocumentedOperation = {
  method: 'POST',
  path: '/v1/oauth/revoke',
  operationId: 'revokeToken',
  summary: "Revoke your client's refresh token",
  description:
    "Token revocation (RFC 7009), form-encoded, with the same client authentication as the token endpoint. It ends a refresh token issued to your client; the traveler's consent stays (only their Disconnect on the Connected apps page forgets it). An unknown or already revoked token answers 200 as well. Access tokens are JWTs that cannot be revoked: they end at their 15-minute expiry.",
  tags: ['OAuth'],
  security: CLIENT_AUTH,
  body: { [FORM]: { schema: RevocationRequest } },
  responses: {
    200: { description: 'Revoked, or nothing to revoke: an empty body.' },
    400: errors('The request is not valid.', {
      invalid_request: oauthError('invalid_request', 'no client authentication mechanism provided'),
      unsupported_token_type: oauthError('unsupported_token_type', 'Structured JWT Tokens cannot be revoked via the revocation_endpoint'),
    }),
    401: INVALID_CLIENT,
    500: SERVER_ERROR,
  },
};

function discovery(path: string, operationId: string, summary: string, description: string): DocumentedOperation {
  return {
    method: 'GET',
    path,
    operationId,
    summary,
    description,
    tags: ['Discovery'],
    security: [],
    responses: { 200: { description: 'The metadata.', schema: AuthorizationServerMetadata }, 500: SERVER_ERROR },
  };
}

export function oauthOperations(): DocumentedOperation[] {
  return [
    token,
    register,
    revoke,
    discovery(
      '/.well-known/oauth-authorization-server',
      'getAuthorizationServerMetadata',
      'Authorization server metadata (RFC 8414)',
      'Where everything is: the authorization endpoint (the root path), token, registration, revocation, the key set, and `scopes_supported`. OAuth client libraries start here. No credentials.',
    ),
    discovery(
      '/.well-known/openid-configuration',
      'getOpenIdConfiguration',
      'OpenID discovery document',
      'The same metadata at the OpenID Connect discovery path, for clients that look there. No credentials.',
    ),
    {
      method: 'GET',
      path: '/.well-known/jwks.json',
      operationId: 'getJsonWebKeySet',
      summary: 'The keys that verify access tokens',
      description:
        'The RS256 public keys (JWKS) that sign access tokens: verify a token against the key its header names (`kid`), its `iss` (the issuer) and its `aud` (the API, or the tool endpoint). Keys rotate: fetch again when a token names a `kid` you do not have. No credentials.',
      tags: ['Discovery'],
      security: [],
      responses: { 200: { description: 'The key set.', schema: JsonWebKeySet, contentType: 'application/jwk-set+json' }, 500: SERVER_ERROR },
    },
  ];
}
