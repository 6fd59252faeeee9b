/**
 * The OAuth 2.0 authorization server: oidc-provider configured for this product. The protocol is the
 * library's; what is ours is said here: where it lives, what it stores (PostgreSQL, through our
 * adapter, so that any instance answers any step), what a token carries, who may register, and the
 * consent rules that the library leaves to us (per scope, remembered per traveler and client).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/crypto/secret-box.js';
import { redirectUriProblem } from '../core/oauth/client-rules.js';
import { IDENTITY_SCOPES, SCOPE_NAMES } from '../core/scopes.js';
import { findUserById, type UserRow } from '../core/users/store.js';
import { ACCOUNT_CLIENT_ID } from './account-client.js';
import { findGrantId } from './grants.js';
import { oidcAdapterFactory } from './oidc-adapter.js';
import { renderAuthorizationError } from './pages/error-page.js';

export const ACCESS_TOKEN_SECONDS = 900;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/** Consent (granted and declined scopes) is kept until the traveler revokes it; five years bounds it. */
const GRANT_SECONDS = 5 * 365 * 24 * 3600;
/** A signed-in session on the hosted pages (later authorization requests skip the code). */
const SESSION_SECONDS = 24 * 3600;
const INTERACTION_SECONDS = 3600;
const CODE_SECONDS = 60;

const TEN = new Set<string>(SCOPE_NAMES);

export interface AuthorizationServerDeps {
  /** The issuer: where the authorization endpoint (the root path) and the hosted pages live. */
  authUrl: string;
  /** The REST API's origin: the default audience of access tokens. */
  apiResource: string;
  /** The agent tool endpoint: the other audience a client may ask for with `resource`. */
  toolResource: string;
  db: Knex;
  clock: Clock;
  secrets: SecretBox;
  jwks: { keys: object[] };
  cookieKeys: string[];
  /** Cookies are Secure when the issuer is https. */
  secureCookies: boolean;
}

/** The resource servers (RFC 8707) tokens can be issued for; each is the audience of its tokens. */
export function resourceServers(deps: Pick<AuthorizationServerDeps, 'apiResource' | 'toolResource'>): string[] {
  return [deps.apiResource, deps.toolResource];
}

export function createAuthorizationServer(deps: AuthorizationServerDeps): Provider {
  const resources = resourceServers(deps);
  const canonicalResource = (indicator: string) => resources.find((resource) => resource === indicator.replace(/\/+$/, ''));

  const configuration: Configuration = {
    adapter: oidcAdapterFactory(deps.db, deps.clock, deps.secrets) as unknown as Configuration['adapter'],
    jwks: deps.jwks as Configuration['jwks'],
    cookies: {
      keys: deps.cookieKeys,
      long: { httpOnly: true, sameSite: 'lax', secure: deps.secureCookies },
      short: { httpOnly: true, sameSite: 'lax', secure: deps.secureCookies },
    },
    routes: {
      authorization: '/',
      token: '/v1/oauth/token',
      registration: '/v1/oauth/register',
      revocation: '/v1/oauth/revoke',
      jwks: '/.well-known/jwks.json',
      end_session: '/v1/oauth/session/end',
    },
    // The first-party client of the Connected apps page: its sign-in runs through the same pages.
    clients: [
      {
        client_id: ACCOUNT_CLIENT_ID,
        client_name: 'Your Travel Partner account',
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${deps.authUrl}/account/signed-in`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', ...SCOPE_NAMES],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'middle_name', 'family_name'],
    },
    findAccount: async (_ctx, accountId) => {
      const user = await findUserById(deps.db, accountId);
      return user ? account(user) : undefined;
    },
    extraTokenClaims: async (ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (!accountId) return undefined;
      const user = ctx.oidc.account ? (ctx.oidc.account as unknown as { user: UserRow }).user : await findUserById(deps.db, accountId);
      if (!user) return undefined;
      const scopes = typeof token.scope === 'string' ? token.scope.split(' ') : [];
      const client = ctx.oidc.client;
      // Scopes rule 8: a partner client that asked for none of the ten holds a legacy grant, authorized
      // by the traveler's own rights; the claim says so, so that an empty scope is never read as legacy.
      const legacy = Boolean(client?.['partner_id']) && !scopes.some((scope) => TEN.has(scope));
      return {
        'custom:user_id': user.id,
        email: user.email,
        phone_number: user.phone_number,
        ...(legacy ? { legacy: true } : {}),
        // Honoured only on an unscoped token (see core/actor.ts).
        ...(user.is_admin ? { admin: true } : {}),
      };
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      IdToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: CODE_SECONDS,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      Grant: GRANT_SECONDS,
      Session: SESSION_SECONDS,
      Interaction: INTERACTION_SECONDS,
    },
    rotateRefreshToken: false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // A client revoking its own token (RFC 7009) ends that token, not the traveler's consent decisions.
    revokeGrantPolicy: () => false,
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      const grantId =
        ctx.oidc.result?.consent?.grantId ??
        (accountId && clientId ? await findGrantId(deps.db, deps.clock, accountId, clientId) : undefined);
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: {
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
      policy: consentPolicy(),
    },
    extraClientMetadata: {
      properties: ['partner_id'],
      validator: (ctx, key, value, metadata) => {
        if (key !== 'partner_id') return;
        // Only the admin command line makes partner clients; registration cannot claim to be one.
        if (value !== undefined && (ctx as KoaContextWithOIDC | undefined)?.oidc?.route === 'registration') {
          throw new errors.InvalidClientMetadata('partner_id cannot be registered: partner clients are created by the operator');
        }
        const type = metadata['token_endpoint_auth_method'] === 'none' ? 'public' : 'confidential';
        for (const uri of (metadata['redirect_uris'] as string[] | undefined) ?? []) {
          const problem = redirectUriProblem(uri, type);
          if (problem) throw new errors.InvalidClientMetadata(`redirect_uris: ${problem}`);
        }
      },
    },
    clientBasedCORS: (_ctx, origin, client) => {
      // Browser-based (public) clients call the token endpoint from the origin of their redirect.
      if (client.clientAuthMethod !== 'none') return false;
      return (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin);
    },
    renderError: renderAuthorizationError,
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      revocation: {
        enabled: true,
        // A client revokes only what was issued to it (RFC 7009 §2.1).
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
        idFactory: () => randomUUID(),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => deps.apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          const resource = canonicalResource(indicator);
          if (!resource) {
            throw new errors.InvalidTarget(`unknown resource: use ${resources.join(' or ')}`);
          }
          return {
            // The identity scopes belong here too, or they would vanish from the token response's scope.
            scope: [...IDENTITY_SCOPES, ...SCOPE_NAMES].join(' '),
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    discovery: { service_documentation: `${deps.authUrl}/docs` },
  };
  return new Provider(deps.authUrl, configuration);
}

function account(user: UserRow) {
  return {
    accountId: user.id,
    user,
    claims: () => ({
      sub: user.id,
      email: user.email,
      email_verified: true,
      given_name: user.first_name ?? undefined,
      middle_name: user.middle_name ?? undefined,
      family_name: user.last_name ?? undefined,
    }),
  };
}

/** The reason of the consent prompt when every scope the request names was declined before (rule 5). */
export const ALL_SCOPES_DECLINED = 'all_scopes_declined';

/**
 * The library's prompts (login, then consent), with one check of ours in front of consent: a request
 * whose scopes were all declined before must end in 400 `invalid_scope`, which our consent handler
 * answers, instead of the library's redirect with `access_denied`.
 */
function consentPolicy() {
  const policy = interactionPolicy.base();
  const consent = policy.get('consent');
  consent?.checks.add(
    new interactionPolicy.Check(ALL_SCOPES_DECLINED, 'every requested scope was declined before', (ctx) => {
      const requested = [...ctx.oidc.requestParamScopes].filter((scope) => TEN.has(scope));
      if (requested.length === 0) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const declined = new Set(ctx.oidc.grant?.getRejectedOIDCScope().split(' '));
      return requested.every((scope) => declined.has(scope))
        ? interactionPolicy.Check.REQUEST_PROMPT
        : interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );
  return policy;
}
