/**
 * The composition root: the only module that sees every folder. It opens the database, applies the
 * migrations and reference data, builds the services, and hands the REST door what it needs.
 */
import type Koa from 'koa';
import { Redis } from 'ioredis';
import { ApiKeyVerifier } from './authz/api-key-verifier.js';
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
import { flightProviderRoutes } from './rest/routes/flight-providers.js';
import { healthRoutes } from './rest/routes/health.js';
import { seedReferenceData } from './seeds/index.js';

export const API_VERSION = '1.0.0';

export interface ServiceOptions {
  logger?: Logger;
  /** Prefix of rate-limit keys in Redis (tests isolate their runs with it). */
  rateLimitKeyPrefix?: string;
}

export interface Service {
  app: Koa;
  db: Database;
  logger: Logger;
  partners: PartnerService;
  providers: ProviderCatalog;
  /** Closes Redis and the database (and stops the embedded one). */
  close(): Promise<void>;
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax });
  let redis: Redis | undefined;
  try {
    await migrateToLatest(db.knex);
    await seedReferenceData(db.knex);
    redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;

    const partners = new PartnerService(db.knex);
    const providers = await ProviderCatalog.load(db.knex);
    const auth = {
      apiKeys: new ApiKeyVerifier(partners, { cacheSeconds: config.apiKeyCacheSeconds }),
      usage: new UsageLimiter({ redis, keyPrefix: options.rateLimitKeyPrefix }),
    };

    const routes: Route[] = [
      ...healthRoutes({ checkDatabase: async () => void (await db.knex.raw('select 1')) }),
      ...flightProviderRoutes({ providers }),
    ];
    let openApi: unknown;
    routes.push(...docsRoutes({ openApiDocument: () => (openApi ??= buildOpenApiDocument(routes, { serverUrl: config.baseUrl, version: API_VERSION })) }));

    const app = buildHttpApp({ logger, routes, auth, trustProxy: config.trustProxy });
    const connection = redis;
    return {
      app,
      db,
      logger,
      partners,
      providers,
      async close() {
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

async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  // No offline queue: while Redis is unreachable, commands fail at once and the limiter's in-memory
  // insurance takes over instead of requests waiting.
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis error'));
  await redis.connect();
  return redis;
}
