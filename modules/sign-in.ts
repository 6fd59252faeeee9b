/**
 * The authorization server: oidc-provider, the sign-in and consent pages, the token endpoint's extras,
 * connected apps, and the limits on unauthenticated sign-in mail and registrations. Its expired rows,
 * sign-in codes and old sign-in networks are swept.
 */
import { componentPageOrigins, ownOrigins } from '../config.js';
import type { Middleware } from 'koa';
import { AbuseLimits, type AbusePolicy } from '../authz/abuse-limits.js';
import { accountRoutes } from '../authz/account-routes.js';
import { createAuthorizationServer, logServerErrors, resourceServers } from '../authz/authorization-server.js';
import { authorizationRoutes } from '../authz/authorization-routes.js';
import { confirmRoutes, oidcClientNames } from '../authz/confirm-routes.js';
import { ClientCredentialsVerifier } from '../authz/client-credentials.js';
import { ConnectedApps } from '../authz/connected-apps.js';
import type { FailedAuthGuard } from '../authz/failed-auth-guard.js';
import { GrantStandingConsents } from '../authz/standing-consents.js';
import { interactionRoutes } from '../authz/interaction-routes.js';
import { sweepExpiredOidcModels } from '../authz/oidc-adapter.js';
import { CsrfTokens } from '../authz/pages/csrf.js';
import { browserSessions } from '../authz/browser-sessions.js';
import { recognitionRoutes } from '../authz/recognition-routes.js';
import { tokenResponseExtras } from '../authz/token-endpoint.js';
import { limitFailedClientSecrets } from '../authz/token-failed-auth.js';
import type { StandingConsents } from '../core/identity/contracts.js';
import { RecognitionTokens } from '../core/identity/recognition-tokens.js';
import { PreferencesService } from '../core/preferences/service.js';
import { PurchaseConfirmations } from '../core/purchases/confirmations.js';
import { SpendingLimits } from '../core/purchases/spending-limits.js';
import { KnownNetworks } from '../core/sign-in/known-networks.js';
import { SignInCodes, sweepExpiredCodes } from '../core/sign-in/sign-in-codes.js';
import { PairwiseIds } from '../core/users/pairwise-ids.js';
import { oauthOperations } from '../rest/documented/oauth.js';
import type { ClientCredentialsCheck } from '../rest/client-auth.js';
import type { SessionCheck } from '../rest/session-auth.js';
import type { Capability, SharedPieces } from './capability.js';

export function signInModule(
  shared: SharedPieces,
  options: { abusePolicy?: Partial<AbusePolicy>; /** Counts failed client credentials (identity API, token endpoint) with the failed API keys. */ failedAuth: FailedAuthGuard },
): Capability & {
  authorizationServer: Middleware;
  sessions: SessionCheck;
  /** The identity API's Basic client credentials check, against this server's client store. */
  clientCredentials: ClientCredentialsCheck;
  /** For the identity module: the consents it follows, the ids and tokens it resolves. */
  consents: StandingConsents;
  pairwiseIds: PairwiseIds;
  recognitionTokens: RecognitionTokens;
  /** The limits on sign-in mail (the admin command line resets an address's in sandbox mode). */
  signInLimits: AbuseLimits;
  /** The e-mail codes of the hosted sign-in (the hosted checkout signs travelers in with them too). */
  signInCodes: SignInCodes;
} {
  const { config, db, clock, keys } = shared;
  const signInNetworks = new KnownNetworks({ db: db.knex, clock });
  const limits = new AbuseLimits({ redis: shared.redis, keyPrefix: shared.rateLimitKeyPrefix, policy: options.abusePolicy, signInNetworks });
  const toolResource = `${config.baseUrl}/v1/mcp`;
  const resources = resourceServers({ apiResource: config.baseUrl, toolResource });
  const provider = createAuthorizationServer({
    authUrl: config.authUrl,
    apiResource: config.baseUrl,
    toolResource,
    db: db.knex,
    clock,
    secrets: shared.secrets,
    jwks: keys.jwks,
    cookieKeys: keys.cookieKeys,
    secureCookies: config.authUrl.startsWith('https://'),
    sandbox: config.sandbox,
    clientMetadataTestOrigins: config.clientMetadataTestOrigins,
  });
  provider.proxy = config.trustProxy;
  logServerErrors(provider, shared.logger);
  const pairwiseIds = new PairwiseIds(db.knex);
  const recognitionTokens = new RecognitionTokens({ db: db.knex, clock });
  const csrf = new CsrfTokens(keys.cookieKeys);
  // Sign-in codes are stored as an HMAC under the newest cookie key.
  const codes = new SignInCodes({ db: db.knex, mailer: shared.mailer, sms: shared.sms, clock, hashKey: keys.cookieKeys[0] as string });
  const spendingLimits = new SpendingLimits({ db: db.knex, clock });
  const preferences = new PreferencesService({ db: db.knex, clock });
  const consents = new GrantStandingConsents({ db: db.knex, clock, provider });
  const apps = new ConnectedApps({ db: db.knex, clock, provider, pairwiseIds, recognitionTokens, resources, spendingLimits });
  // The purchase confirmation page's side of core/purchases: the agent named as the traveler knows it.
  const confirmations = new PurchaseConfirmations({ db: db.knex, clock, limits: spendingLimits, authUrl: config.authUrl, clientNames: oidcClientNames(provider) });
  // Whose pages may change things on the traveler's cookies (core/cross-site.ts): the hosted pages' forms
  // and /v1/apps, ours only (the sign-in pages' and the API's exact origins); the payment routes a
  // browser calls with the session, also the partner pages of COMPONENT_ORIGINS (their credentialed CORS).
  const own = ownOrigins(config);
  const authorizationServer = authorizationRoutes({
    provider,
    logger: shared.logger,
    limits,
    tokenExtras: tokenResponseExtras({ db: db.knex, clock, pairwiseIds }),
    tokenFailedAuth: limitFailedClientSecrets(options.failedAuth),
    resources,
    pages: [
      interactionRoutes({ provider, limits, codes, csrf, db: db.knex, clock, resources, spendingLimits, preferences, allowedOrigins: own }).routes() as Middleware,
      accountRoutes({ provider, apps, users: shared.users, csrf, authUrl: config.authUrl, spendingLimits, preferences, allowedOrigins: own }).routes() as Middleware,
      confirmRoutes({ provider, confirmations, users: shared.users, csrf, authUrl: config.authUrl, allowedOrigins: own }).routes() as Middleware,
      recognitionRoutes({ provider, db: db.knex, consents, tokens: recognitionTokens, csrf, sandbox: config.sandbox, allowedOrigins: own }).routes() as Middleware,
    ],
  });
  return {
    authorizationServer,
    clientCredentials: new ClientCredentialsVerifier(provider, options.failedAuth),
    consents,
    pairwiseIds,
    recognitionTokens,
    signInLimits: limits,
    signInCodes: codes,
    sessions: browserSessions(provider, csrf, config.authUrl, componentPageOrigins(config)),
    documented: oauthOperations(),
    sweepers: [() => sweepExpiredOidcModels(db.knex, clock), () => sweepExpiredCodes(db.knex, clock), () => signInNetworks.sweepExpired(), () => recognitionTokens.sweepExpired()],
  };
}
