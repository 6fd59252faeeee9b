/**
 * Starts the service: configuration, database, HTTP server, the admin socket (embedded database only),
 * the demo partner in sandbox mode, and a graceful stop on SIGTERM/SIGINT.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Service } from './app.js';
import type { Config } from './config.js';
import { applyV8Settings, enableCompileCache } from './core/runtime.js';
import type * as demoPartner from './seeds/demo-partner.js';

const MEMORY_RELEASE_DELAY_MS = 1000;

// First, before any other module loads (hence the dynamic imports below): V8's settings, then Node's
// compile cache, which keeps V8's compiled code of every module on disk, so that later starts skip
// compiling some 1,700 of them.
applyV8Settings();
enableCompileCache();

const { ConfigError, loadConfig } = await import('./config.js');
const { openDatabase } = await import('./core/db/database.js');
const { jobSchema } = await import('./jobs/job-schema.js');
const { DataDirectoryLockedError } = await import('./core/db/lock.js');
const { createLogger } = await import('./core/logger.js');

async function start(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  // The database first: the embedded one starts in its worker thread while this thread loads the rest.
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    transactionPooler: config.databaseTransactionPooler,
    dataDir: config.dataDir,
    poolMax: config.databasePoolMax,
    fromPreparedSchema: true,
    schemaExtra: jobSchema,
    onEmbeddedCrash: (error) => {
      logger.fatal({ err: error }, 'the embedded database stopped: exiting');
      process.exit(1);
    },
  });
  // Its failure (a locked data directory) is awaited and reported by createService, after the import.
  database.catch(() => undefined);
  // The worker thread is a lock and a few callbacks away, and loading modules does not yield to them:
  // it is let start before this thread loads the service's code.
  await new Promise((resolve) => setImmediate(resolve));
  // Loaded once the configuration is known good: a bad variable stops the process with its one line,
  // before any library prints notices of its own (oidc-provider warns about Node.js 20 at import).
  // node:http too: loading it takes some 60 ms that the worker's start need not wait for.
  const [{ default: http }, app, { startAdminSocket }, { releaseUnusedMemory }, seeds, { stopServer }] = await Promise.all([
    import('node:http'),
    import('./app.js'),
    import('./admin/socket.js'),
    import('./core/memory.js'),
    import('./seeds/demo-partner.js'),
    import('./shutdown.js'),
  ]).catch(async (error: unknown) => {
    // The database's worker would keep the process alive.
    await database.then((db) => db.close()).catch(() => undefined);
    throw error;
  });
  const service = await app.createService(config, { logger, databaseOpening: database });
  let admin: Awaited<ReturnType<typeof startAdminSocket>> | undefined;
  const server = http.createServer(service.app.callback());
  server.keepAliveTimeout = 65_000;
  // Sandboxes that must have an origin of their own (the card vault) listen on ports of their own.
  const ownPortServers = service.ownPortApps.map((own) => ({ own, server: http.createServer(own.app.callback()) }));
  try {
    // The ports first: a port in use stops the start before anything is created (the demo partner's key
    // is shown once, and would be lost with a process that could not serve it).
    await listen(server, config.port, config.host, 'PORT');
    for (const { own, server: ownServer } of ownPortServers) await listen(ownServer, own.port, config.host, own.portVariable);
    if (service.db.embedded) admin = await startAdminSocket(config.dataDir, service.admin, logger);
    if (config.sandbox) await announceDemoPartner(service, config, seeds);
  } catch (error) {
    server.close();
    for (const { server: ownServer } of ownPortServers) ownServer.close();
    await admin?.close();
    await service.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  logger.info({ port, base_url: config.baseUrl, embedded_db: service.db.embedded, sandbox: config.sandbox, node: process.version }, 'listening');
  for (const { own } of ownPortServers) logger.info({ port: own.port, name: own.name }, 'listening on its own port');
  // Background jobs, shared with every instance through PostgreSQL: the recovery pass first among them
  // (bookings a process that died left mid-saga), then sweeps, deliveries and deadlines as they fall due.
  service
    .startBackgroundWork()
    .catch((error: unknown) => logger.error({ err: error }, 'background jobs could not start: recovery, sweeps and webhook deliveries wait for another instance'))
    // The start's work is done: what it needed goes back to the system, a moment later, so that the
    // collection (tens of ms of a blocked thread) does not hold up the first requests.
    .finally(() => setTimeout(releaseUnusedMemory, MEMORY_RELEASE_DELAY_MS).unref());

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (config.shutdownDrainSeconds > 0) {
      // Unready first, still serving: the load balancer's health checks move traffic elsewhere.
      service.drain();
      logger.info({ signal, drain_seconds: config.shutdownDrainSeconds }, 'stopping: unready, serving until the load balancer has moved away');
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainSeconds * 1000));
    }
    logger.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    const graceOver = () => logger.warn('grace period over: closing the connections still open');
    await Promise.all([
      // No new job is taken; one running gets the grace period too (this process still serves the
      // sandboxes it may call), and one still running then is taken again elsewhere after its timeout.
      service.stopBackgroundWork(config.shutdownGraceSeconds * 1000),
      ...[server, ...ownPortServers.map((own) => own.server)].map((each) => stopServer(each, config.shutdownGraceSeconds * 1000, graceOver)),
    ]);
    await admin?.close();
    await service.close();
    logger.info('stopped');
  };
  // `on`, not `once`: a stop often brings two signals (npm forwards the one the terminal already sent the
  // whole process group; systemd signals every process of the unit), and with the listener gone the
  // second would kill the process in the middle of its graceful stop. `stopping` ignores the repeat.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Binds a port; one that is taken or not ours to use is a start-up error naming its variable. */
async function listen(server: Server, port: number, host: string, variable: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new ConfigError(`${variable}: ${port} is already in use on ${host}: stop the process holding it, or set ${variable} to a free port.`);
    if (error.code === 'EACCES') throw new ConfigError(`${variable}: ${port} needs privileges this process lacks on ${host}: set ${variable} to 1024 or above.`);
    throw error;
  });
}

/** The demo key goes to stderr, for the person starting the service: stdout carries JSON log lines. */
async function announceDemoPartner(service: Service, config: Config, seeds: typeof demoPartner): Promise<void> {
  const demo = await seeds.ensureDemoPartner(service.partners, config.dataDir);
  if (!demo) return;
  console.error(
    [
      '',
      'Sandbox demo partner created. Its API key is shown this once:',
      `  x-api-key: ${demo.api_key}`,
      `It is also kept in ${seeds.demoCredentialsPath(config.dataDir)}.`,
      `Try: curl -H "x-api-key: ${demo.api_key}" ${config.baseUrl}/v1/flights/providers/provider_a/capabilities`,
      '',
    ].join('\n'),
  );
}

try {
  await start(loadConfig());
} catch (error) {
  const known = error instanceof ConfigError || error instanceof DataDirectoryLockedError;
  console.error(known ? (error as Error).message : `The service could not start: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = known ? 2 : 1;
}

