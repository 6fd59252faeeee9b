/**
 * The composition root: the only module that sees every folder. It opens the database, applies the
 * migrations and reference data, builds the services, and hands the REST door what it needs.
 */
import { setTimeout } from 'node:timers/promises';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import { Redis } from 'ioredis';
import { ApiKeyVerifier } from './authz/api-key-verifier.js';
import { BearerVerifier } from './authz/bearer-verifier.js';
import { TOOL_ENDPOINT_PATH, toolEndpoint, type AgentLimits } from './mcp/endpoint.js';
import { ToolCallLimits } from './authz/tool-call-limits.js';
import type { ToolServices } from './mcp/tool.js';
import { ToolServers } from './mcp/tool-server.js';
import { TOOLS } from './mcp/tools/index.js';
import { loadSigningKeys, publicKeySet, type SigningKeys } from './authz/keys.js';
import { sweepExpiredOidcModels } from './authz/oidc-adapter.js';
import { AbuseLimits, type AbusePolicy, type Limit } from './authz/abuse-limits.js';
import { accountRoutes } from './authz/account-routes.js';
import { createAuthorizationServer, logServerErrors, resourceServers } from './authz/authorization-server.js';
import { authorizationRoutes } from './authz/authorization-routes.js';
import { ConnectedApps } from './authz/connected-apps.js';
import { interactionRoutes } from './authz/interaction-routes.js';
import { CsrfTokens } from './authz/pages/csrf.js';
import { ICON, STYLESHEET_PATH } from './authz/pages/html.js';
import { PartnerClientRegistry } from './authz/partner-clients.js';
import { tokenResponseExtras } from './authz/token-endpoint.js';
import { SecretBox } from './core/crypto/secret-box.js';
import type { PartnerClients } from './core/oauth/client-rules.js';
import { SignInCodes, sweepExpiredCodes } from './core/sign-in/sign-in-codes.js';
import { KnownNetworks } from './core/sign-in/known-networks.js';
import { PairwiseIds } from './core/users/pairwise-ids.js';
import { FailedAuthGuard } from './authz/failed-auth-guard.js';
import { UsageLimiter } from './authz/usage-limiter.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './core/db/database.js';
import { migrateToLatest } from './core/db/migrate.js';
import { ProviderCatalog } from './core/flights/provider-catalog.js';
import { createLogger, type Logger } from './core/logger.js';
import { PartnerService } from './core/partners/service.js';
import { buildHttpApp } from './rest/http-app.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import type { Route } from './rest/route-table.js';
import { docsRoutes } from './rest/routes/docs.js';
import { oauthOperations } from './rest/documented/oauth.js';
import { toolEndpointOperations } from './rest/documented/tool-endpoint.js';
import { demoCredentialsPath } from './seeds/demo-partner.js';
import { flightProviderRoutes } from './rest/routes/flight-providers.js';
import { passengerRoutes } from './rest/routes/passengers.js';
import { preferenceRoutes } from './rest/routes/preferences.js';
import { contactChangeRoutes } from './rest/routes/contact-change.js';
import { ContactChanges } from './core/users/contact-change.js';
import { PreferencesService } from './core/preferences/service.js';
import { PassengerService } from './core/passengers/service.js';
import { ProfilePhotos } from './core/users/profile-photos.js';
import { offerRoutes } from './rest/routes/offers.js';
import { OfferService } from './core/flights/offers.js';
import { providerAOffers } from './providers/flights/provider-a/normalizer.js';
import { providerBOffers } from './providers/flights/provider-b/normalizer.js';
import { providerCOffers } from './providers/flights/provider-c/normalizer.js';
import { providerDOffers } from './providers/flights/provider-d/normalizer.js';
import { ProviderDAdapter } from './providers/flights/provider-d/adapter.js';
import { providerDSandbox } from './providers/flights/provider-d/sandbox.js';
import { FlightSearchService } from './core/flights/flight-search.js';
import { ProviderAAdapter } from './providers/flights/provider-a/adapter.js';
import { providerASandbox } from './providers/flights/provider-a/sandbox.js';
import { ProviderBAdapter } from './providers/flights/provider-b/adapter.js';
import { providerBSandbox } from './providers/flights/provider-b/sandbox.js';
import { ProviderCAdapter } from './providers/flights/provider-c/adapter.js';
import { providerCSandbox } from './providers/flights/provider-c/sandbox.js';
import { providerEOffers } from './providers/flights/provider-e/normalizer.js';
import { ProviderEAdapter } from './providers/flights/provider-e/adapter.js';
import { providerESandbox } from './providers/flights/provider-e/sandbox.js';
import type { FlightProvider } from './core/flights/flight-provider.js';
import { healthRoutes } from './rest/routes/health.js';
import { userRoutes } from './rest/routes/users.js';
import { discoveryRoutes } from './rest/routes/discovery.js';
import { UserService } from './core/users/service.js';
import type { Mailer, SmsSender } from './core/ports.js';
import { SmtpMailer } from './providers/mail/smtp-mailer.js';
import { SandboxMailer, SandboxSms } from './providers/sandbox-outbox/client.js';
import { outboxSandbox } from './providers/sandbox-outbox/sandbox.js';
import { UnconfiguredSms } from './providers/sms/unconfigured-sms.js';
import { systemClock, type Clock } from './core/clock.js';
import { seedReferenceData } from './seeds/index.js';

export const API_VERSION = '1.0.0';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface ServiceOptions {
  logger?: Logger;
  clock?: Clock;
  /** Prefix of rate-limit keys in Redis (tests isolate their runs with it). */
  rateLimitKeyPrefix?: string;
  /** Limits on unauthenticated sign-in mail and registrations (tests, whose requests share one address). */
  abusePolicy?: Partial<AbusePolicy>;
  /** Requests one traveler's agent may send the tool endpoint (default: 120 a minute). */
  toolCallLimit?: Limit;
  /** Called if the embedded database dies while the service runs. */
  onEmbeddedCrash?(error: Error): void;
  /** How long a pooled database connection may sit idle before it is closed (tests shorten it). */
  databaseIdleTimeoutMs?: number;
}

export interface Service {
  app: Koa;
  db: Database;
  logger: Logger;
  partners: PartnerService;
  /** Pre-registered OAuth clients of partners (the admin command line). */
  partnerClients: PartnerClients;
  providers: ProviderCatalog;
  /** Flight search through provider_d, and its results turned into offers (the agent tools use it). */
  flightSearch: FlightSearchService;
  mailer: Mailer;
  sms: SmsSender;
  /** Deletes expired authorization-server rows and sign-in codes (also run every few minutes). */
  sweepExpired(): Promise<number>;
  /** Closes Redis and the database (and stops the embedded one). */
  close(): Promise<void>;
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.databasePoolMax,
    idleTimeoutMs: options.databaseIdleTimeoutMs,
    onEmbeddedCrash: options.onEmbeddedCrash,
  });
  let redis: Redis | undefined;
  try {
    await migrateToLatest(db.knex, config.databaseUrl);
    await seedReferenceData(db.knex);
    redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;

    const keys = await loadSigningKeys({ ...config, production: config.env === 'production' });
    const secrets = new SecretBox(keys.dataEncryptionKeys);
    const partners = new PartnerService(db.knex);
    const partnerClients = new PartnerClientRegistry({ db: db.knex, clock, secrets, partners });
    const users = new UserService(db.knex, clock);
    const providers = await ProviderCatalog.load(db.knex);
    const auth = {
      apiKeys: new ApiKeyVerifier(partners, new FailedAuthGuard({ redis, keyPrefix: options.rateLimitKeyPrefix }), {
        cacheSeconds: config.apiKeyCacheSeconds,
      }),
      usage: new UsageLimiter({ redis, keyPrefix: options.rateLimitKeyPrefix }),
      // Tokens for the REST API carry the API's origin as audience (RFC 8707 resource indicator).
      bearer: new BearerVerifier({ jwks: publicKeySet(keys.jwks), issuer: config.authUrl, audiences: [config.baseUrl], clock }),
    };

    const adapters = flightAdapters(config, providers, clock);
    const offers = new OfferService({ db: db.knex, clock, providers, normalizers: [providerAOffers, providerBOffers, providerCOffers, providerDOffers, providerEOffers], adapters, secrets });
    const searcher = adapters.find((adapter) => adapter instanceof ProviderDAdapter);
    const flightSearch = new FlightSearchService({ db: db.knex, clock, providers, normalizer: providerDOffers, searcher, offers });
    const mailer = config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom, logger) : new SandboxMailer(config.sandboxUrl);
    const smsGateway = config.smsUrl ?? (config.sandbox ? config.sandboxUrl : undefined);
    const sms: SmsSender = smsGateway ? new SandboxSms(smsGateway) : new UnconfiguredSms();
    const contactChanges = new ContactChanges({ db: db.knex, mailer, sms, clock, hashKey: keys.cookieKeys[0] as string });
    const routes: Route[] = [
      ...healthRoutes({ checkDatabase: async () => void (await db.knex.raw('select 1')) }),
      ...flightProviderRoutes({ providers }),
      ...offerRoutes({ offers }),
      ...userRoutes({
        users,
        photos: new ProfilePhotos({ db: db.knex, clock, photoUrl: (userId) => `${config.baseUrl}/v1/users/${userId}/profile-photo` }),
      }),
      ...passengerRoutes({ passengers: new PassengerService({ db: db.knex, clock, secrets }), users }),
      ...preferenceRoutes({ preferences: new PreferencesService({ db: db.knex, clock }), users }),
      ...contactChangeRoutes({ changes: contactChanges, users }),
      ...discoveryRoutes({ baseUrl: config.baseUrl, authUrl: config.authUrl }),
    ];
    // The authorization server and the tool endpoint are not in the route table: their documentation joins it here.
    const documented = [...oauthOperations(), ...toolEndpointOperations()];
    let openApi: unknown;
    routes.push(
      ...docsRoutes({
        openApiDocument: () => (openApi ??= buildOpenApiDocument(routes, { serverUrl: config.baseUrl, authUrl: config.authUrl, version: API_VERSION }, documented)),
        landing: {
          baseUrl: config.baseUrl,
          stylesheetPath: STYLESHEET_PATH,
          sandbox: config.sandbox,
          demoCredentialsFile: config.sandbox ? demoCredentialsPath(config.dataDir) : undefined,
        },
        icon: ICON,
      }),
    );

    const sandboxes = config.sandbox ? [outboxSandbox(db.knex).routes() as Middleware, providerASandbox().routes() as Middleware, providerBSandbox(clock).routes() as Middleware, providerCSandbox(clock).routes() as Middleware, providerDSandbox(clock).routes() as Middleware, providerESandbox(clock).routes() as Middleware] : [];

    const signInNetworks = new KnownNetworks({ db: db.knex, clock });
    const limits = new AbuseLimits({ redis, keyPrefix: options.rateLimitKeyPrefix, policy: options.abusePolicy, signInNetworks });
    const authorizationServer = buildAuthorizationServer({ config, db, clock, keys, secrets, mailer, sms, users, limits, logger });
    const app = buildHttpApp({
      logger,
      routes,
      auth,
      trustProxy: config.trustProxy,
      sandboxes,
      authorizationServer,
      cookieKeys: keys.cookieKeys,
      toolEndpoint: buildToolEndpoint({
        config,
        keys,
        clock,
        logger,
        services: { offers, flightSearch, providers },
        limits: new ToolCallLimits({ redis, keyPrefix: options.rateLimitKeyPrefix, limit: options.toolCallLimit }),
      }),
    });
    const sweepExpired = async () =>
      (await sweepExpiredOidcModels(db.knex, clock)) + (await sweepExpiredCodes(db.knex, clock)) + (await flightSearch.sweepExpired()) +
      (await contactChanges.sweepExpired()) + (await signInNetworks.sweepExpired());
    const sweeper = setInterval(() => {
      sweepExpired().catch((error: unknown) => logger.warn({ err: error }, 'sweep of expired rows failed'));
    }, SWEEP_INTERVAL_MS);
    sweeper.unref();
    const connection = redis;
    return {
      app,
      db,
      logger,
      partners,
      partnerClients,
      providers,
      flightSearch,
      mailer,
      sms,
      sweepExpired,
      async close() {
        clearInterval(sweeper);
        connection?.disconnect();
        await db.close();
      },
    };
  } catch (error) {
    redis?.disconnect();
    await db.close();
    throw error;
  }
}

/**
 * The agent tool endpoint. Its tokens carry its own URL as audience (RFC 8707): a token for the REST API
 * does not open it, nor one of its tokens the REST API.
 */
function buildToolEndpoint(deps: { config: Config; keys: SigningKeys; clock: Clock; logger: Logger; services: ToolServices; limits: AgentLimits }): Middleware {
  const resourceUrl = `${deps.config.baseUrl}${TOOL_ENDPOINT_PATH}`;
  return toolEndpoint({
    servers: new ToolServers(TOOLS, { services: deps.services, logger: deps.logger }),
    tokens: new BearerVerifier({ jwks: publicKeySet(deps.keys.jwks), issuer: deps.config.authUrl, audiences: [resourceUrl], clock: deps.clock }),
    limits: deps.limits,
    resourceUrl,
    scopes: [...new Set(TOOLS.flatMap((tool) => tool.scopes))],
  });
}

/** The adapters of the flight providers whose systems are configured (or sandboxed). */
function flightAdapters(config: Config, providers: ProviderCatalog, clock: Clock): FlightProvider[] {
  const adapters: FlightProvider[] = [];
  if (config.providerA) {
    adapters.push(new ProviderAAdapter({ baseUrl: config.providerA.url, token: config.providerA.token, capabilities: providers.capabilities('provider_a'), clock }));
  }
  if (config.providerB) {
    adapters.push(new ProviderBAdapter({ baseUrl: config.providerB.url, token: config.providerB.token, capabilities: providers.capabilities('provider_b'), clock }));
  }
  if (config.providerC) {
    adapters.push(new ProviderCAdapter({ baseUrl: config.providerC.url, token: config.providerC.token, capabilities: providers.capabilities('provider_c'), clock }));
  }
  if (config.providerD) {
    adapters.push(new ProviderDAdapter({ baseUrl: config.providerD.url, token: config.providerD.token, capabilities: providers.capabilities('provider_d'), clock }));
  }
  if (config.providerE) {
    adapters.push(new ProviderEAdapter({ baseUrl: config.providerE.url, token: config.providerE.token, capabilities: providers.capabilities('provider_e'), clock }));
  }
  return adapters;
}

/** oidc-provider, the sign-in and consent pages, the token endpoint's extras, and connected apps. */
function buildAuthorizationServer(deps: {
  config: Config;
  db: Database;
  clock: Clock;
  keys: Awaited<ReturnType<typeof loadSigningKeys>>;
  secrets: SecretBox;
  mailer: Mailer;
  sms: SmsSender;
  users: UserService;
  limits: AbuseLimits;
  logger: Logger;
}): Middleware {
  const { config, db, clock, keys } = deps;
  const resources = resourceServers({ apiResource: config.baseUrl, toolResource: `${config.baseUrl}/v1/mcp` });
  const provider = createAuthorizationServer({
    authUrl: config.authUrl,
    apiResource: config.baseUrl,
    toolResource: `${config.baseUrl}/v1/mcp`,
    db: db.knex,
    clock,
    secrets: deps.secrets,
    jwks: keys.jwks,
    cookieKeys: keys.cookieKeys,
    secureCookies: config.authUrl.startsWith('https://'),
  });
  provider.proxy = config.trustProxy;
  logServerErrors(provider, deps.logger);
  const pairwiseIds = new PairwiseIds(db.knex);
  const csrf = new CsrfTokens(keys.cookieKeys);
  // Sign-in codes are stored as an HMAC under the newest cookie key.
  const codes = new SignInCodes({ db: db.knex, mailer: deps.mailer, sms: deps.sms, clock, hashKey: keys.cookieKeys[0] as string });
  const apps = new ConnectedApps({ db: db.knex, clock, provider, pairwiseIds, resources });
  return authorizationRoutes({
    provider,
    logger: deps.logger,
    limits: deps.limits,
    tokenExtras: tokenResponseExtras({ db: db.knex, clock, pairwiseIds }),
    pages: [
      interactionRoutes({ provider, limits: deps.limits, codes, csrf, db: db.knex, clock, resources }).routes() as Middleware,
      accountRoutes({ provider, apps, users: deps.users, csrf, authUrl: config.authUrl }).routes() as Middleware,
    ],
  });
}

const REDIS_FIRST_CONNECT_WAIT_MS = 2000;

/**
 * No offline queue: while Redis is unreachable, commands fail at once and the limiters' in-memory
 * insurance counts instead of requests waiting. The service waits briefly for the first connection, so
 * that the budget is shared from the first request, but starts without Redis rather than not at all.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis error'));
  // Not events.once: it would reject on the first connection error, which ioredis retries by itself.
  const ready = new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  await Promise.race([ready, setTimeout(REDIS_FIRST_CONNECT_WAIT_MS)]);
  if (redis.status !== 'ready') logger.warn('Redis is not reachable yet: counting rate limits in memory until it is');
  return redis;
}
