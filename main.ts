/**
 * Starts the service: configuration, database, HTTP server, the admin socket (embedded database only),
 * the demo partner in sandbox mode, and a graceful stop on SIGTERM/SIGINT.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAdminSocket } from './admin/socket.js';
import { createService } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DataDirectoryLockedError } from './core/db/lock.js';
import { demoCredentialsPath, ensureDemoPartner } from './seeds/demo-partner.js';
import { stopServer } from './shutdown.js';

async function start(config: Config): Promise<void> {
  const service = await createService(config);
  const { logger } = service;
  const admin = service.db.embedded ? await startAdminSocket(config.dataDir, { partners: service.partners }, logger) : undefined;

  if (config.sandbox) {
    const demo = await ensureDemoPartner(service.partners, config.dataDir);
    if (demo) {
      console.log(
        [
          '',
          'Sandbox demo partner created. Its API key is shown this once:',
          `  x-api-key: ${demo.api_key}`,
          `It is also kept in ${demoCredentialsPath(config.dataDir)}.`,
          `Try: curl -H "x-api-key: ${demo.api_key}" ${config.baseUrl}/v1/flights/providers/provider_a/capabilities`,
          '',
        ].join('\n'),
      );
    }
  }

  const server = http.createServer(service.app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  logger.info({ port, base_url: config.baseUrl, embedded_db: service.db.embedded, sandbox: config.sandbox }, 'listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    await stopServer(server, config.shutdownGraceSeconds * 1000, () =>
      logger.warn('grace period over: closing the connections still open'),
    );
    await admin?.close();
    await service.close();
    logger.info('stopped');
    logger.flush();
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

try {
  await start(loadConfig());
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirectoryLockedError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(`The service could not start: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
}
