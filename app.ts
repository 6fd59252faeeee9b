/**
 * The composition root: the only module that sees every folder. It opens the database, applies the
 * migrations and reference data, builds the pieces every capability shares, lists the capability
 * modules (modules/), and mounts what they return: routes, tools, sandboxes, and the background jobs it
 * hands to the job runner every instance shares.
 */
import { setTimeout } from 'node:timers/promises';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { Redis } from 'ioredis';
import type { AdminDeps } from './admin/commands.js';
import type { AbusePolicy, Limit } from './authz/abuse-limits.js';
import { ApiKeyVerifier } from './authz/api-key-verifier.js';
import { BearerVerifier } from './authz/bearer-verifier.js';
import { FailedAuthGuard } from './authz/failed-auth-guard.js';
import { loadSigningKeys, publicKeySet } from './authz/keys.js';
import { ICON, STYLESHEET_PATH } from './authz/pages/html.js';
import { PartnerClientRegistry } from './authz/partner-clients.js';
import { PublishableOrigins } from './authz/publishable-origins.js';
import { ToolCallLimits } from './authz/tool-call-limits.js';
import { UsageLimiter } from './authz/usage-limiter.js';
import type { Config } from './config.js';
import { systemClock, type Clock } from './core/clock.js';
import { SecretBox } from './core/crypto/secret-box.js';
import { openDatabase, type Database } from './core/db/database.js';
import { migrateToLatest } from './core/db/migrate.js';
import type { JobDefinition } from './core/jobs.js';
import type { BookingService } from './core/bookings/service.js';
import type { CheckoutSessionService } from './core/checkout/service.js';
import type { FlightSearchService } from './core/flights/flight-search.js';
import type { ProviderCatalog } from './core/flights/provider-catalog.js';
import { createLogger, type Logger } from './core/logger.js';
import type { PartnerClients } from './core/oauth/client-rules.js';
import { PartnerService } from './core/partners/service.js';
import type { PaymentMethodService } from './core/payment-methods/service.js';
import type { Mailer, SmsSender } from './core/ports.js';
import { UserService } from './core/users/service.js';
import { TOOL_ENDPOINT_PATH, toolEndpoint, type AgentLimits } from './mcp/endpoint.js';
import type { Tool, ToolServices } from './mcp/tool.js';
import { accountsModule } from './modules/accounts.js';
import { bookingsModule } from './modules/bookings.js';
import { cardsModule } from './modules/cards.js';
import { checkoutModule } from './modules/checkout.js';
import { webhooksModule, type WebhookOptions } from './modules/webhooks.js';
import type { Capability, OwnPortApp, SharedPieces } from './modules/capability.js';
import { demoAirlineModule } from './modules/demo-airline.js';
import { demoTravelModule } from './modules/demo-travel.js';
import { JobRunner } from './jobs/job-runner.js';
import { jobSchema } from './jobs/job-schema.js';
import { identityModule } from './modules/identity.js';
import { messagingModule } from './modules/messaging.js';
import { offersModule } from './modules/offers.js';
import { platformModule } from './modules/platform.js';
import { signInModule } from './modules/sign-in.js';
import { toolEndpointOperations } from './rest/documented/tool-endpoint.js';
import { buildHttpApp } from './rest/http-app.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { docsRoutes } from './rest/routes/docs.js';
import { demoCredentialsPath } from './seeds/demo-partner.js';
import { seedReferenceData } from './seeds/index.js';

export const API_VERSION = '1.0.0';

/** How often the sweep of expired rows runs (one instance at a time), and the recovery pass. */
const SWEEP_CRON = '*/10 * * * *';
const RECOVERY_EVERY_SECONDS = 10;

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
  /** How webhook endpoints' host names are resolved (tests answer for names of their own). */
  resolveHost?: WebhookOptions['resolveHost'];
  /** How long a pooled database connection may sit idle before it is closed (tests shorten it). */
  databaseIdleTimeoutMs?: number;
  /**
   * The database, already being opened: main.ts starts it before loading this module, so that the
   * embedded database starts in its worker while the main thread loads the code. Absent: opened here.
   * Either way, the service owns it and closes it.
   */
  databaseOpening?: Promise<Database>;
}

export interface Service {
  app: Koa;
  /** Applications the caller serves on ports of their own (the card vault sandbox), each with its port. */
  ownPortApps: OwnPortApp[];
  db: Database;
  logger: Logger;
  partners: PartnerService;
  /** Pre-registered OAuth clients of partners (the admin command line). */
  partnerClients: PartnerClients;
  providers: ProviderCatalog;
  /** Flight search through provider_d, and its results turned into offers (the agent tools use it). */
  flightSearch: FlightSearchService;
  /** Saved payment methods (the admin command line imports legacy cards with it). */
  paymentMethods: PaymentMethodService;
  mailer: Mailer;
  sms: SmsSender;
  /** What the admin command line works with when it comes through this service's admin socket. */
  admin: AdminDeps;
  /** Bookings (tests drive recovery through it). */
  bookings: BookingService;
  /** Checkout sessions (the hosted checkout opens, completes and fails them). */
  checkoutSessions: CheckoutSessionService;
  /** The durable job queue (tests enqueue and start its work). */
  jobs: JobRunner;
  /** Deletes expired authorization-server rows and sign-in codes (a background job runs it every 10 minutes). */
  sweepExpired(): Promise<number>;
  /** Finishes or compensates bookings a dead process left mid-saga (a background job runs it every 10 s). */
  recover(): Promise<number>;
  /**
   * Starts taking background jobs (recovery, sweeps, deliveries, deadlines), shared with every instance
   * through PostgreSQL. Call it once the service listens: jobs call the sandboxes this process serves.
   */
  startBackgroundWork(): Promise<void>;
  /** From now on readiness fails (503 `shutting_down`): the load balancer stops sending requests here. */
  drain(): void;
  /** Takes no more jobs, and waits up to `timeoutMs` for those running. */
  stopBackgroundWork(timeoutMs: number): Promise<void>;
  /** Stops taking jobs (waiting for running ones a moment), then closes Redis and the database. */
  close(): Promise<void>;
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = await (options.databaseOpening ??
    openDatabase({
      databaseUrl: config.databaseUrl,
      transactionPooler: config.databaseTransactionPooler,
      dataDir: config.dataDir,
      poolMax: config.databasePoolMax,
      idleTimeoutMs: options.databaseIdleTimeoutMs,
      onEmbeddedCrash: options.onEmbeddedCrash,
      fromPreparedSchema: true,
      schemaExtra: jobSchema,
    }));
  let redis: Redis | undefined;
  const jobs = new JobRunner(db.knex, logger, { pollSeconds: config.jobPollSeconds });
  const keyPrefix = options.rateLimitKeyPrefix ?? config.redisKeyPrefix;
  const draining = { draining: false };
  // Read, or on a fresh data directory generated (an RSA key pair, off the event loop), while the
  // database is brought up to date.
  const keysLoading = loadSigningKeys({ ...config, production: config.env === 'production' });
  keysLoading.catch(() => undefined);
  try {
    await migrateToLatest(db.knex, config.databaseUrl ? config.databaseDirectUrl : undefined);
    await seedReferenceData(db.knex);
    redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;

    const keys = await keysLoading;
    const secrets = new SecretBox(keys.dataEncryptionKeys);
    const partners = new PartnerService(db.knex, { sandbox: config.sandbox });
    const partnerClients = new PartnerClientRegistry({ db: db.knex, clock, secrets, partners });
    const messaging = await messagingModule({ config, db, logger });
    const shared: SharedPieces = {
      config,
      db,
      clock,
      logger,
      secrets,
      keys,
      redis,
      rateLimitKeyPrefix: keyPrefix,
      users: new UserService(db.knex, clock),
      jobs,
      mailer: messaging.mailer,
      sms: messaging.sms,
    };

    // The capabilities, in the order their routes, tools and reference sections are listed.
    // Invalid API keys and invalid client credentials (identity API, token endpoint) are counted together,
    // per credential and per network of the caller; credentials known to be right pass (failed-auth-guard.ts).
    const failedAuth = new FailedAuthGuard({ redis, keyPrefix });
    const signIn = signInModule(shared, { abusePolicy: options.abusePolicy, failedAuth });
    const offers = await offersModule(shared);
    const cards = await cardsModule(shared);
    const webhooks = webhooksModule(shared, { resolveHost: options.resolveHost });
    const bookings = bookingsModule(shared, { ...offers, paymentMethods: cards.paymentMethods, processor: cards.processor, events: webhooks.events });
    const checkout = checkoutModule(shared, {
      ...offers,
      bookings: bookings.bookings,
      paymentMethods: cards.paymentMethods,
      signIn: { codes: signIn.signInCodes, limits: signIn.signInLimits },
      events: webhooks.events,
    });
    const identity = identityModule(shared, signIn);
    const capabilities: Capability[] = [
      platformModule(shared, draining),
      messaging,
      signIn,
      accountsModule(shared),
      identity,
      offers,
      checkout,
      cards,
      bookings,
      webhooks,
      await demoAirlineModule(shared),
      await demoTravelModule(shared, { partners }),
    ];

    const routes = capabilities.flatMap((capability) => capability.routes ?? []);
    // The authorization server and the tool endpoint are not in the route table: their documentation joins it.
    const documented = [...capabilities.flatMap((capability) => capability.documented ?? []), ...toolEndpointOperations()];
    let openApi: unknown;
    routes.push(
      ...docsRoutes({
        openApiDocument: () => (openApi ??= buildOpenApiDocument(routes, { serverUrl: config.baseUrl, authUrl: config.authUrl, version: API_VERSION }, documented)),
        landing: {
          baseUrl: config.baseUrl,
          stylesheetPath: STYLESHEET_PATH,
          sandbox: config.sandbox,
          demoCredentialsFile: config.sandbox ? demoCredentialsPath(config.dataDir) : undefined,
          demoAirlineUrl: config.demoAirline ? `${config.demoAirline.url}/` : undefined,
          demoTravelUrl: config.demoTravel ? `${config.demoTravel.url}/` : undefined,
        },
        icon: ICON,
        authUrl: config.authUrl,
      }),
    );

    const app = buildHttpApp({
      logger,
      publicOrigin: config.baseUrl,
      routes,
      auth: {
        apiKeys: new ApiKeyVerifier(partners, failedAuth, { cacheSeconds: config.apiKeyCacheSeconds }),
        usage: new UsageLimiter({ redis, keyPrefix }),
        // Tokens for the REST API carry the API's origin as audience (RFC 8707 resource indicator).
        bearer: new BearerVerifier({ jwks: publicKeySet(keys.jwks), issuer: config.authUrl, audiences: [config.baseUrl], clock }),
        sessions: signIn.sessions,
        // The identity API's callers: airlines' backends, with their OAuth client's Basic credentials.
        clients: signIn.clientCredentials,
        componentOrigins: config.componentOrigins,
        // The origins of active publishable keys: the checkout's routes answer their CORS preflights.
        publishableOrigins: new PublishableOrigins(partners, { cacheSeconds: config.apiKeyCacheSeconds }),
      },
      trustProxy: config.trustProxy,
      sandboxes: capabilities.flatMap((capability) => capability.sandboxes ?? []).map((sandbox) => sandbox.routes() as Middleware),
      authorizationServer: signIn.authorizationServer,
      hostedPages: capabilities.flatMap((capability) => capability.hostedPages ?? []),
      cookieKeys: keys.cookieKeys,
      toolEndpoint: buildToolEndpoint({
        shared,
        tools: capabilities.flatMap((capability) => capability.tools ?? []),
        // Each module hands in the services its own tools call; together they are every tool's.
        services: Object.assign({}, ...capabilities.map((capability) => capability.toolServices ?? {})) as ToolServices,
        limits: new ToolCallLimits({ redis, keyPrefix, limit: options.toolCallLimit }),
      }),
    });
    const sweepers = capabilities.flatMap((capability) => capability.sweepers ?? []);
    const sweepExpired = async () => {
      let swept = 0;
      for (const sweep of sweepers) swept += await sweep();
      return swept;
    };
    const recoveries = capabilities.flatMap((capability) => capability.recoveries ?? []);
    const recover = async () => {
      let recovered = 0;
      for (const recovery of recoveries) recovered += await recovery();
      return recovered;
    };
    const jobDefinitions: JobDefinition[] = [
      // Deletes only what expired: one instance at a time is plenty.
      { name: 'sweep-expired', singleton: true, timeoutSeconds: 600, every: { cron: SWEEP_CRON }, run: async () => void (await sweepExpired()) },
      // Safe on several instances at once (each booking's lease is taken by one): not a singleton, so that
      // an instance that dies mid-pass holds up no other.
      {
        name: 'recover-bookings',
        timeoutSeconds: 120,
        every: { seconds: RECOVERY_EVERY_SECONDS },
        run: async () => {
          const recovered = await recover();
          if (recovered > 0) logger.info({ recovered }, 'bookings recovered');
        },
      },
      ...capabilities.flatMap((capability) => capability.jobs ?? []),
    ];
    // Before the first request: a change that enqueues a job needs its queue.
    await jobs.install(jobDefinitions);
    const connection = redis;
    return {
      app,
      ownPortApps: capabilities.flatMap((capability) => capability.ownPortApps ?? []),
      db,
      logger,
      partners,
      partnerClients,
      providers: offers.providers,
      flightSearch: offers.flightSearch,
      paymentMethods: cards.paymentMethods,
      mailer: messaging.mailer,
      sms: messaging.sms,
      bookings: bookings.bookings,
      checkoutSessions: checkout.checkoutSessions,
      admin: { partners, clients: partnerClients, paymentMethods: cards.paymentMethods, sandbox: config.sandbox, signInLimits: signIn.signInLimits },
      jobs,
      sweepExpired,
      recover,
      startBackgroundWork: () => jobs.start(jobDefinitions),
      drain() {
        draining.draining = true;
      },
      stopBackgroundWork: (timeoutMs) => jobs.stop(timeoutMs),
      async close() {
        await jobs.stop().catch((error: unknown) => logger.warn({ err: error }, 'the job runner did not stop cleanly'));
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
 *
 * The MCP SDK behind it (some 900 KB of code, and the zod schemas it builds as it loads) and the tool
 * servers load on the endpoint's first request rather than at every start, many of which never serve it.
 */
function buildToolEndpoint(deps: { shared: SharedPieces; tools: Tool[]; services: ToolServices; limits: AgentLimits }): Middleware {
  const { config, keys, clock, logger } = deps.shared;
  const resourceUrl = `${config.baseUrl}${TOOL_ENDPOINT_PATH}`;
  const load = async (): Promise<Middleware> => {
    const [{ ConfirmationPrompts }, { confirmationStateCodec }, { ToolServers }, { ProtocolHandler }] = await Promise.all([
      import('./mcp/purchase-confirmation.js'),
      import('./mcp/request-state.js'),
      import('./mcp/tool-server.js'),
      import('./mcp/protocol-handler.js'),
    ]);
    // The state of a purchase awaiting confirmation is signed with a key every instance derives alike.
    const confirmations = new ConfirmationPrompts(confirmationStateCodec(keys.cookieKeys[0] as string));
    const servers = new ToolServers(deps.tools, { services: deps.services, logger, docsOrigin: new URL(config.baseUrl).origin, confirmations });
    return toolEndpoint({
      servers,
      protocol: new ProtocolHandler(servers, logger),
      tokens: new BearerVerifier({ jwks: publicKeySet(keys.jwks), issuer: config.authUrl, audiences: [resourceUrl], clock }),
      limits: deps.limits,
      resourceUrl,
      scopes: [...new Set(deps.tools.flatMap((tool) => tool.scopes))],
    });
  };
  let endpoint: Middleware | undefined;
  let loading: Promise<Middleware> | undefined;
  // Not an async function: once loaded, every request of the service passes through here, and pays no
  // promise of its own.
  return function serveToolsOnceLoaded(ctx, next) {
    if (endpoint) return endpoint(ctx, next);
    // Until then, every other request passes by without loading it (the endpoint makes the same check).
    if (ctx.path.replace(/\/+$/, '') !== TOOL_ENDPOINT_PATH) return next();
    loading ??= load().catch((error: unknown) => {
      // A failed load (a broken install) is tried again by the next request rather than remembered.
      loading = undefined;
      throw error;
    });
    return loading.then((loaded) => {
      endpoint = loaded;
      return loaded(ctx, next);
    });
  };
}

const REDIS_FIRST_CONNECT_WAIT_MS = 2000;

/**
 * No offline queue: while Redis is unreachable, commands fail at once and the limiters' in-memory
 * insurance counts instead of requests waiting. The service waits briefly for the first connection, so
 * that the budget is shared from the first request, but starts without Redis rather than not at all.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  // Loaded only when configured: a development start has no Redis.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis error'));
  // Not events.once: it would reject on the first connection error, which ioredis retries by itself.
  const ready = new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  await Promise.race([ready, setTimeout(REDIS_FIRST_CONNECT_WAIT_MS)]);
  if (redis.status !== 'ready') logger.warn('Redis is not reachable yet: counting rate limits in memory until it is');
  return redis;
}
