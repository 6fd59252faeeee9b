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
import type { Logger } from '../core/logger.js';
import type { SecretBox } from '../core/crypto/secret-box.js';
import { BECOME_PUBLIC, clientNameProblem, redirectUriCountProblem, redirectUriProblem } from '../core/oauth/client-rules.js';
import { scopesToReask } from '../core/scope-requests.js';
import { CONSENT_SCOPE_NAMES, IDENTITY_SCOPES, isConsentScope, REASKABLE_SCOPES } from '../core/scopes.js';
import { findUserById } from '../core/users/store.js';
import { ACCOUNT_CLIENT_ID } from './account-client.js';
import { AIRLINE_PROPERTY, clientKindOf, isPartnerKind } from './client-kinds.js';
import { canonicalResource as canonicalResourceOf } from './resource-indicators.js';
import { isSandboxDemoClient, SANDBOX_DEMO_PROPERTY } from './sandbox-demo-client.js';
import { ClientMetadataDocuments } from './client-metadata-documents.js';
import { isUrlClientId } from './client-metadata-url.js';
import { decidedOnTen, declinedScopes, findGrantId } from './grants.js';
import { oidcAdapterFactory } from './oidc-adapter.js';
import { takeUser, type AccountUser } from './refresh-reads.js';
import { renderAuthorizationError } from './pages/error-page.js';

export const ACCESS_TOKEN_SECONDS = 900;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/** Consent (granted and declined scopes) is kept until the traveler revokes it; five years bounds it. */
const GRANT_SECONDS = 5 * 365 * 24 * 3600;
/** A signed-in session on the hosted pages (later authorization requests skip the code). */
const SESSION_SECONDS = 24 * 3600;
const INTERACTION_SECONDS = 3600;
const CODE_SECONDS = 60;

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
  /**
   * Cookies are Secure when the issuer is https; the session cookie is then also SameSite=None, so that
   * the recognition frame, third party on an airline's page, sees the traveler's session (decisions §11).
   */
  secureCookies: boolean;
  /** Sandbox mode: the demo airline's client (sandbox_demo) may keep its loopback redirect. */
  sandbox?: boolean;
  /**
   * Tests only (empty unless NODE_ENV=test): http://127.0.0.1:<port> origins whose client metadata
   * documents may be fetched, though they are neither https nor public addresses.
   */
  clientMetadataTestOrigins?: readonly string[];
}

/** The resource servers (RFC 8707) tokens can be issued for; each is the audience of its tokens. */
export function resourceServers(deps: Pick<AuthorizationServerDeps, 'apiResource' | 'toolResource'>): string[] {
  return [deps.apiResource, deps.toolResource];
}

export function createAuthorizationServer(deps: AuthorizationServerDeps): Provider {
  const resources = resourceServers(deps);
  // Every refresh names its grant's resource as the service wrote it: a served resource already in its
  // canonical form is answered without parsing it again.
  const canonical = new Set(resources.filter((resource) => canonicalResourceOf(resource, resources) === resource));
  const canonicalResource = (indicator: string) => (canonical.has(indicator) ? indicator : canonicalResourceOf(indicator, resources));

  const clientMetadataDocuments = new ClientMetadataDocuments({ clock: deps.clock, testOrigins: deps.clientMetadataTestOrigins ?? [] });

  const configuration: Configuration = {
    // A client_id that is an https URL is resolved from its metadata document (client-metadata-documents.ts).
    adapter: oidcAdapterFactory(deps.db, deps.clock, deps.secrets, clientMetadataDocuments) as unknown as Configuration['adapter'],
    jwks: deps.jwks as Configuration['jwks'],
    cookies: {
      keys: deps.cookieKeys,
      // The session cookie. SameSite=None needs Secure, so on plain http (local sandbox) it stays Lax: the
      // demo airline is then another port of the same host, same site, and the cookie still reaches the frame.
      long: { httpOnly: true, sameSite: deps.secureCookies ? 'none' : 'lax', secure: deps.secureCookies },
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
    // Also what discovery lists in scopes_supported: the ten and the identity surface's loyalty.read.
    scopes: [...IDENTITY_SCOPES, ...CONSENT_SCOPE_NAMES],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'middle_name', 'family_name'],
    },
    findAccount: async (_ctx, accountId) => {
      // A refresh read its traveler with the client (refresh-reads.ts); anything else reads it here.
      const user = takeUser(accountId) ?? (await findUserById(deps.db, accountId));
      return user ? account(user) : undefined;
    },
    extraTokenClaims: async (ctx, token) => {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (!accountId) return undefined;
      const user = ctx.oidc.account ? (ctx.oidc.account as unknown as { user: AccountUser }).user : await findUserById(deps.db, accountId);
      if (!user) return undefined;
      const carried = typeof token.scope === 'string' ? token.scope.split(' ').filter(isConsentScope) : [];
      let legacy = false;
      if (carried.length === 0) {
        // Scopes rule 8: a legacy grant (a partner client's, which never involved any of the ten) is
        // authorized by the traveler's own rights, and the token says so. Any other token without a scope
        // the traveler decides on means they turned off or declined everything: there is no consent left.
        // A token carrying loyalty.read alone is scoped (no REST route takes it).
        const grant = ctx.oidc.entities.Grant;
        legacy = isPreRegistered(ctx.oidc.client) && (!grant || decidedOnTen(grant).size === 0);
        if (!legacy) {
          throw new errors.InvalidScope(
            'the traveler has turned off every permission this app had: send them through the authorization flow again',
            '',
          );
        }
      }
      return {
        'custom:user_id': user.id,
        email: user.email,
        phone_number: user.phone_number,
        ...(legacy ? { legacy: true } : {}),
        // A partner client's token works only with that partner's API key (see rest/bearer-auth.ts).
        ...(ctx.oidc.client?.['partner_id'] ? { partner_id: ctx.oidc.client['partner_id'] } : {}),
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
      properties: ['partner_id', AIRLINE_PROPERTY, SANDBOX_DEMO_PROPERTY],
      validator: (ctx, key, value, metadata) => {
        // The validator also runs on every client loaded from storage: the rules added since a client was
        // stored (its name, how many redirect URIs) bind new registrations, and never lock out a stored one.
        // A client described by a metadata document is read afresh each time: every rule binds it.
        const registering =
          (ctx as KoaContextWithOIDC | undefined)?.oidc?.route === 'registration' || isUrlClientId(String(metadata['client_id'] ?? ''));
        if (key === SANDBOX_DEMO_PROPERTY) {
          // Only the sandbox's own start-up writes it (modules/demo-airline.ts).
          if (value !== undefined && registering) throw new errors.InvalidClientMetadata(`${SANDBOX_DEMO_PROPERTY} cannot be registered`);
          return;
        }
        if (key === AIRLINE_PROPERTY) {
          // Only the admin command line marks airlines (decisions §13), and only partner clients.
          if (value !== undefined && registering) throw new errors.InvalidClientMetadata(`${AIRLINE_PROPERTY} cannot be registered: airline clients are marked by the operator`);
          if (value !== undefined && value !== true) throw new errors.InvalidClientMetadata(`${AIRLINE_PROPERTY} must be true when set`);
          if (value === true && typeof metadata['partner_id'] !== 'string') throw new errors.InvalidClientMetadata(`${AIRLINE_PROPERTY} needs partner_id: only a partner's client is an airline`);
          return;
        }
        if (key !== 'partner_id') return;
        // Only the admin command line makes partner clients; registration cannot claim to be one.
        if (value !== undefined && registering) {
          throw new errors.InvalidClientMetadata('partner_id cannot be registered: partner clients are created by the operator');
        }
        // The library takes a description starting with "redirect_uris" for invalid_redirect_uri, any
        // other for invalid_client_metadata (RFC 7591 §3.2.2).
        const name = metadata['client_name'];
        const nameProblem = registering && typeof name === 'string' ? clientNameProblem(name) : undefined;
        if (nameProblem) throw new errors.InvalidClientMetadata(`client_name ${nameProblem}`);
        const uris = (metadata['redirect_uris'] as string[] | undefined) ?? [];
        const countProblem = registering ? redirectUriCountProblem(uris.length) : undefined;
        if (countProblem) throw new errors.InvalidClientMetadata(countProblem);
        const type = metadata['token_endpoint_auth_method'] === 'none' ? 'public' : 'confidential';
        // The one exception to the loopback rule: the sandbox's demo airline, a confidential client on
        // http://<auth host>:<demo port>/, honoured only when this server runs in sandbox mode.
        if (!registering && isSandboxDemoClient(metadata, deps.sandbox === true)) return;
        for (const uri of uris) {
          const problem = redirectUriProblem(uri, type, BECOME_PUBLIC.registration);
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
        // An agent's tokens are for the tool endpoint only (decisions §13): asked for nothing, it gets that.
        defaultResource: (_ctx, client) => (client && clientKindOf(client) === 'agent' ? deps.toolResource : deps.apiResource),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          const resource = canonicalResource(indicator);
          if (!resource) {
            throw new errors.InvalidTarget(`unknown resource: use ${resources.join(' or ')}`);
          }
          // So every purchase of an agent passes the traveler's confirmation and its spending limit (§10):
          // the REST API, where a partner's key would let it book without them, is not the agent's to ask.
          // Also at refresh: a grant an agent got for the API before this rule renews nothing.
          if (resource !== deps.toolResource && client && clientKindOf(client) === 'agent') {
            throw new errors.InvalidTarget(`an agent's tokens are for the tool endpoint only: ask for resource=${deps.toolResource}, or send no resource`);
          }
          return {
            // The identity scopes and loyalty.read belong here too, or they would vanish from the token
            // response's scope (the client reads what it got there, Scopes rule 2).
            scope: [...IDENTITY_SCOPES, ...CONSENT_SCOPE_NAMES].join(' '),
            audience: resource,
            accessTokenTTL: ACCESS_TOKEN_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    enabledJWA: { idTokenSigningAlgValues: ['RS256'] },
    discovery: {
      service_documentation: `${deps.authUrl}/docs`,
      // A client may use the https URL of its metadata document as its client_id, without registering.
      client_id_metadata_document_supported: true,
    },
  };
  return new Provider(deps.authUrl, configuration);
}

/** A partner's or an airline's client (the demo airline's too): the legacy behaviour of Scopes rule 8 is theirs. */
function isPreRegistered(client: KoaContextWithOIDC['oidc']['client']): boolean {
  return client ? isPartnerKind(clientKindOf(client)) : false;
}

function account(user: AccountUser) {
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

/** Reasons of the consent prompt that end the request with 400 `invalid_scope` (our consent handler answers). */
export const REFUSED_SCOPE_REQUESTS = {
  /** Every scope the request names was declined before (rule 5), and none of them is asked again (rule 9). */
  allDeclined: 'all_scopes_declined',
  /**
   * A partner client asks for no scope (legacy, rule 8), but the traveler has already decided on
   * scopes for it: legacy rights would override those decisions, so the client must name its scopes.
   */
  legacyOnScopedGrant: 'legacy_request_on_scoped_grant',
} as const;

/** The reason of the consent prompt asking again for a declined scope the request names (Scopes rule 9). */
export const REASK_DECLINED_SCOPE = 'reask_declined_scope';

/**
 * The library's prompts (login, then consent), with two checks of ours in front of consent, for requests
 * that must end in 400 `invalid_scope` instead of a code (or the library's redirect with
 * `access_denied`), and one after the library's: the library never asks for a scope the grant has
 * declined, and rule 9 wants `loyalty.read` asked again when a request names it. With `prompt=none` the
 * library redirects with the first reason's error (`invalid_scope`, or `consent_required`).
 */
function consentPolicy() {
  const policy = interactionPolicy.base();
  const consent = policy.get('consent');
  const { Check } = interactionPolicy;
  const requestedScopes = (ctx: KoaContextWithOIDC) => [...ctx.oidc.requestParamScopes].filter(isConsentScope);
  const declinedOf = (ctx: KoaContextWithOIDC) => (ctx.oidc.grant ? declinedScopes(ctx.oidc.grant) : new Set<string>());
  // Asked again only until the traveler answers: once this request carries their consent, a scope they
  // declined again stays declined and the code is issued without it (no loop back to the page).
  const toReask = (ctx: KoaContextWithOIDC) => (ctx.oidc.result?.consent ? [] : scopesToReask(requestedScopes(ctx), declinedOf(ctx)));
  consent?.checks.add(
    new Check(REFUSED_SCOPE_REQUESTS.allDeclined, 'every requested scope was declined before', 'invalid_scope', (ctx) => {
      const requested = requestedScopes(ctx);
      const declined = declinedOf(ctx);
      const refused = requested.length > 0 && requested.every((scope) => declined.has(scope)) && toReask(ctx).length === 0;
      return refused ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );
  consent?.checks.add(
    new Check(REFUSED_SCOPE_REQUESTS.legacyOnScopedGrant, 'the traveler decided on scopes for this client', 'invalid_scope', (ctx) => {
      const legacyRequest = isPreRegistered(ctx.oidc.client) && requestedScopes(ctx).length === 0;
      const scoped = ctx.oidc.grant ? decidedOnTen(ctx.oidc.grant).size > 0 : false;
      return legacyRequest && scoped ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
    }),
    1,
  );
  consent?.checks.add(
    new Check(REASK_DECLINED_SCOPE, `the request names ${[...REASKABLE_SCOPES].join(', ')}, which the traveler declined before`, 'consent_required', (ctx) =>
      toReask(ctx).length > 0 ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
  );
  return policy;
}

/**
 * The library turns an unexpected failure (the database gone, say) into `server_error` and emits it; only
 * its debug output would say what failed. Each one is logged with the error and the request id that the
 * traveler's page or the client's answer quotes.
 */
export function logServerErrors(provider: Provider, logger: Logger): void {
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) => {
    logger.error({ err: error, req_id: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'authorization server error');
  });
}
