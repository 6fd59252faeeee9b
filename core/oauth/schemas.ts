/**
 * What the authorization server sends and takes (specification: OAuth and discovery, Token response):
 * token, registration and revocation, the discovery documents, the key set and the OAuth error. The
 * library in authz/ parses the requests itself; these schemas describe its wire for the API reference, and
 * the tests hold its real answers to them.
 */
import { z } from 'zod';
import { CONSENT_SCOPE_NAMES, IDENTITY_SCOPES } from '../scopes.js';
import { CLIENT_LIMITS } from './client-rules.js';

const ISSUER = 'https://api.example.com';
const CLIENT_ID = '5c1e8a3d-2f7b-4a96-8d04-b3e7f1c6a925';
const REDIRECT_URI = 'https://app.example.com/oauth/callback';
const REFRESH_TOKEN = 'bhw-rw4QbCIZLkA2f1yk8ViB_NskSYilkIYXHzzBCYg';
/** An access token for the REST API: a JWT whose payload carries the traveler, the scopes and the audience. */
const ACCESS_TOKEN =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCIsImtpZCI6ImtTMXJWcTdwVzNuRDBmTHg5Y0VoVDJtWWJBNnVKOG9aZ1E0aU41dFJ2WHMifQ.eyJjdXN0b206dXNlcl9pZCI6IjRmOWMyZDhlLTdiMWEtNGMzZS05YTU3LTJlOGQ2YjBmMTNhNCIsImVtYWlsIjoiYW1lbGlhLmhhcnRAZXhhbXBsZS5jb20iLCJwaG9uZV9udW1iZXIiOiIrNDQ3NzAwOTAwMTIzIiwianRpIjoiY1dvNEozTlVRT0RLekp1ZDZxUzFhWmlGRDJRZ1UwRllzdHdlWHlfZkhNNCIsInN1YiI6IjRmOWMyZDhlLTdiMWEtNGMzZS05YTU3LTJlOGQ2YjBmMTNhNCIsImlhdCI6MTgwMzI4NjgwMCwiZXhwIjoxODAzMjg3NzAwLCJzY29wZSI6InByb2ZpbGUucmVhZCBwYXNzZW5nZXJzLnJlYWQiLCJjbGllbnRfaWQiOiI1YzFlOGEzZC0yZjdiLTRhOTYtOGQwNC1iM2U3ZjFjNmE5MjUiLCJpc3MiOiJodHRwczovL2FwaS5leGFtcGxlLmNvbSIsImF1ZCI6Imh0dHBzOi8vYXBpLmV4YW1wbGUuY29tIn0.mAqddnuIW2a50Zg0bhWFbkUnALKAyjAAgEJfkd5aZMtRXGRPr2-ZEqqIFJt6VrPBu8wgvaWVS5xGUpoVi8dbUNot8fjjPErgU4PgdspnHZuUGZOMV3IJ0yhXbzS648lEhtlFC0CcqcRWCVqaxMSruzCedU1cOVw_piL2yfRu4bJI9U6Rb3nbvUJ5v2uXzbZWAP1Q22Lb9Pc8qICnf5boWX4cPdl8Nguh0WDPdaHs8sc9N3Y35SkWwGq_StJcUUSeL604HE60KxdNGowViXfGbipeOlYz1DfkBB3SXf8gEBA6V7Php6FIMkgHc9W9BxB2clhSfZurMbdmQlfjMgQFQQ';

export const AUTHORIZATION_CODE_GRANT_EXAMPLE = {
  grant_type: 'authorization_code',
  code: '5r7BPaWjEO5eKdGsJWoGhhRiKP_GpoDTm0M5ooBx23g',
  code_verifier: 'AemLHMRQGjCb2SEbtd41cU9ZC4zHu9_gJRNvfQ16VaC91-8b_FH6vftEFKaUGHBq',
  redirect_uri: REDIRECT_URI,
};

export const REFRESH_TOKEN_GRANT_EXAMPLE = { grant_type: 'refresh_token', refresh_token: REFRESH_TOKEN };

const clientCredentials = {
  client_id: z.string().optional().describe('Required for a public client; a confidential one may send it here with `client_secret` instead of Basic.'),
  client_secret: z.string().optional().describe('`client_secret_post`: the secret in the body instead of Basic.'),
};

export const AuthorizationCodeGrant = z
  .object({
    grant_type: z.literal('authorization_code'),
    code: z.string().describe('The `code` the browser brought back to your redirect URI; it lasts 60 seconds and works once.'),
    code_verifier: z.string().min(43).max(128).describe('The PKCE verifier whose S256 hash was the `code_challenge`.'),
    redirect_uri: z.string().describe('The same redirect URI as in the authorization request.'),
    resource: z.string().optional().describe('The audience, if the authorization request named one: `<BASE_URL>/v1/mcp` for the tool endpoint.'),
    ...clientCredentials,
  })
  .meta({
    id: 'AuthorizationCodeGrant',
    description: 'The code exchange, form-encoded only.',
    examples: [AUTHORIZATION_CODE_GRANT_EXAMPLE],
  });

export const RefreshTokenGrant = z
  .object({ grant_type: z.literal('refresh_token'), refresh_token: z.string(), ...clientCredentials })
  .meta({
    id: 'RefreshTokenGrant',
    description: 'A new access token from the refresh token, form-encoded or as JSON.',
    examples: [REFRESH_TOKEN_GRANT_EXAMPLE],
  });

export const TokenRequest = z
  .discriminatedUnion('grant_type', [AuthorizationCodeGrant, RefreshTokenGrant])
  .meta({ id: 'TokenRequest', examples: [AUTHORIZATION_CODE_GRANT_EXAMPLE] });

export const CODE_EXCHANGE_ANSWER = {
  access_token: ACCESS_TOKEN,
  expires_in: 900,
  refresh_token: REFRESH_TOKEN,
  scope: 'profile.read passengers.read',
  token_type: 'Bearer',
  svc_guid: 'a6d4f2b8-1e3c-4b7a-9c05-d8e2f1a3b764',
};

export const TokenResponse = z
  .object({
    access_token: z.string().describe("The traveler's access token, an RS256 JWT: send it as `Authorization: Bearer <token>`."),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Seconds the access token lives: 900.'),
    refresh_token: z.string().optional().describe('On the code exchange only: never rotated, lasts 30 days. Keep it on your server.'),
    scope: z.string().optional().describe('What the token carries: the scopes you asked for that the traveler granted, space-separated.'),
    svc_guid: z.uuid().optional().describe("On the code exchange: the traveler's stable id for your client."),
    id_token: z.string().optional().describe('On the code exchange, when `openid` was asked for.'),
  })
  .meta({ id: 'TokenResponse', examples: [CODE_EXCHANGE_ANSWER] });

export const REFRESH_ANSWER = { access_token: ACCESS_TOKEN, expires_in: 900, scope: 'profile.read passengers.read', token_type: 'Bearer' };

/** An agent registering itself: a public client with a loopback redirect. */
export const PUBLIC_REGISTRATION_EXAMPLE = {
  request: { client_name: 'Trip planner agent', redirect_uris: ['http://127.0.0.1:53682/callback'], token_endpoint_auth_method: 'none' },
  answer: {
    application_type: 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    id_token_signed_response_alg: 'RS256',
    require_auth_time: false,
    response_types: ['code'],
    subject_type: 'public',
    token_endpoint_auth_method: 'none',
    dpop_bound_access_tokens: false,
    client_id_issued_at: 1803286800,
    client_id: CLIENT_ID,
    client_name: 'Trip planner agent',
    redirect_uris: ['http://127.0.0.1:53682/callback'],
  },
};

export const ClientRegistrationRequest = z
  .looseObject({
    redirect_uris: z
      .array(z.string().max(CLIENT_LIMITS.redirectUriLength))
      .min(1)
      .max(CLIENT_LIMITS.redirectUris)
      .describe('Where travelers come back to. A public client may use http://localhost:<port> or http://127.0.0.1:<port>; otherwise https only.'),
    client_name: z
      .string()
      .max(CLIENT_LIMITS.nameLength)
      .optional()
      .describe(
        'Shown to the traveler on the consent page, marked as the client’s own claim. Plain text: control characters and bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) are refused with `invalid_client_metadata`.',
      ),
    token_endpoint_auth_method: z
      .enum(['none', 'client_secret_basic', 'client_secret_post'])
      .optional()
      .describe('`none` for a public client (an agent or app without a secret: PKCE proves it); default `client_secret_basic`.'),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
    response_types: z.array(z.literal('code')).optional(),
  })
  .meta({
    id: 'ClientRegistrationRequest',
    description: 'RFC 7591 client metadata; other standard fields are accepted as well.',
    examples: [PUBLIC_REGISTRATION_EXAMPLE.request],
  });

export const ClientRegistration = z
  .looseObject({
    client_id: z.uuid(),
    client_secret: z.string().optional().describe('For a confidential client only, shown this once.'),
    client_id_issued_at: z.number().int().describe('Unix time.'),
    client_secret_expires_at: z.number().int().optional().describe('0: the secret does not expire (the registration does, 30 days after its last token exchange).'),
    client_name: z.string().optional(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.string(),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
  })
  .meta({
    id: 'ClientRegistration',
    description: 'The registered client (RFC 7591): what was sent, completed with the defaults.',
    examples: [PUBLIC_REGISTRATION_EXAMPLE.answer],
  });

export const CONFIDENTIAL_REGISTRATION_EXAMPLE = {
  request: { client_name: 'Example Air', redirect_uris: [REDIRECT_URI] },
  answer: {
    application_type: 'web',
    grant_types: ['authorization_code', 'refresh_token'],
    id_token_signed_response_alg: 'RS256',
    require_auth_time: false,
    response_types: ['code'],
    subject_type: 'public',
    token_endpoint_auth_method: 'client_secret_basic',
    dpop_bound_access_tokens: false,
    client_id_issued_at: 1803286800,
    client_id: 'b3d816aa-77b8-49c5-8cb6-feff1b9d1d62',
    client_name: 'Example Air',
    client_secret_expires_at: 0,
    client_secret: '3hY3nkBLzpQbwJCrCoigK34Z-w1eZyXBoz1gvw_PCvSj-hNhAd5fYNj4khKpH2udRVQdoalusedimKp7vPGLQw',
    redirect_uris: [REDIRECT_URI],
  },
};

export const RevocationRequest = z
  .object({
    token: z.string().describe('A refresh token issued to your client.'),
    token_type_hint: z.enum(['refresh_token', 'access_token']).optional(),
    ...clientCredentials,
  })
  .meta({ id: 'RevocationRequest', examples: [{ token: REFRESH_TOKEN, token_type_hint: 'refresh_token' }] });

/** The authorization server's: the identity scopes, the ten and the identity surface's loyalty.read. */
const SCOPES_SUPPORTED = [...IDENTITY_SCOPES, ...CONSENT_SCOPE_NAMES];

export const AuthorizationServerMetadata = z
  .looseObject({
    issuer: z.string(),
    authorization_endpoint: z.string().describe('The root path: there is no /authorize.'),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    jwks_uri: z.string(),
    scopes_supported: z
      .array(z.string())
      .describe('Every scope a client may ask for: `openid`, `email`, `profile`, the ten of the REST API and the tool endpoint, and `loyalty.read` of the identity surface (what an airline may read through `/v1/identity/resolve`).'),
    response_types_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
  })
  .meta({
    id: 'AuthorizationServerMetadata',
    description: 'RFC 8414 authorization server metadata (the OpenID discovery document is the same).',
    examples: [
      {
        authorization_endpoint: `${ISSUER}/`,
        claims_parameter_supported: false,
        claims_supported: ['sub', 'email', 'email_verified', 'given_name', 'middle_name', 'family_name', 'sid', 'auth_time', 'iss'],
        code_challenge_methods_supported: ['S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        issuer: ISSUER,
        jwks_uri: `${ISSUER}/.well-known/jwks.json`,
        registration_endpoint: `${ISSUER}/v1/oauth/register`,
        authorization_response_iss_parameter_supported: true,
        response_modes_supported: ['form_post', 'fragment', 'query'],
        response_types_supported: ['code'],
        scopes_supported: SCOPES_SUPPORTED,
        subject_types_supported: ['public'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        token_endpoint: `${ISSUER}/v1/oauth/token`,
        id_token_signing_alg_values_supported: ['RS256'],
        request_uri_parameter_supported: false,
        revocation_endpoint: `${ISSUER}/v1/oauth/revoke`,
        claim_types_supported: ['normal'],
        service_documentation: `${ISSUER}/docs`,
      },
    ],
  });

export const JsonWebKeySet = z
  .object({
    keys: z.array(
      z.looseObject({ kty: z.literal('RSA'), use: z.literal('sig'), kid: z.string(), alg: z.literal('RS256'), e: z.string(), n: z.string() }),
    ),
  })
  .meta({
    id: 'JsonWebKeySet',
    description: 'The public keys that verify access tokens: pick the one whose `kid` the token header names.',
    examples: [
      {
        keys: [
          {
            kty: 'RSA',
            use: 'sig',
            kid: 'kS1rVq7pW3nD0fLx9cEhT2mYbA6uJ8oZgQ4iN5tRvXs',
            alg: 'RS256',
            e: 'AQAB',
            n: 'fasDw5zjqn_-wun6X0wybY84_dPB792PSaYjyWxMLs3J-9eGr-3Gerb2oPpX2RdCHROcOSvJk1XP46WRoExLgS6Hmwc2aQsHTUtIZ1mVj36XlZKtogLYSte6btoraE62BN7TC0-MBLSWHoVfH-5CKUcaVL7qb8AtCrMqV7KIjagIRbdFiHTwQIupGTeoQs7UcSKm6XmOItrFoz8dD3HaMWJNsZ31IM44DY0MYei8M_vu8aMF0m9rXlzcI7UYvUOoUfzuhayDvNeIsne-7_Fl41wXw48v24_o0t0MhUFWflAi-W80NIHHcAl1PQ5X_Dt3iIm8Y8gU65_1jjU6inhBRw',
          },
        ],
      },
    ],
  });

export const OAuthError = z
  .object({
    error: z.string().describe('The OAuth error code: `invalid_request`, `invalid_client`, `invalid_grant`, `invalid_scope`, `invalid_token`, ...'),
    error_description: z.string().describe('What went wrong, in words.'),
    scope: z.string().optional().describe('On `insufficient_scope`: the scope needed.'),
  })
  .meta({
    id: 'OAuthError',
    description: 'The OAuth 2.0 error response (RFC 6749 §5.2, RFC 6750 §3.1) of the authorization server and the tool endpoint.',
    examples: [{ error: 'invalid_grant', error_description: 'grant request is invalid' }],
  });
