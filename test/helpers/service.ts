/**
 * The whole service on a fresh test database, listening on a free port: tests talk to it over real HTTP.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createService, type Service, type ServiceOptions } from '../../app.js';
import { loadConfig, type Config } from '../../config.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

export interface RunningService {
  url: string;
  config: Config;
  service: Service;
  /** Stops the own-port servers (the card vault sandbox), as an outside system going down would. */
  closeOwnPortServers(): Promise<void>;
  close(): Promise<void>;
}

export function tempDir(prefix = 'tp-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Starts a service; pass `database` to share one database between several instances, or `embedded` to
 * run on the embedded PostgreSQL in the data directory (the default a newcomer gets), as `npm start` does.
 */
export async function startService(
  env: Record<string, string> = {},
  options: ServiceOptions & { database?: TestDatabase; embedded?: boolean; /** A retry's own: the database is this call's to drop. */ ownsDatabase?: boolean; attempt?: number } = {},
): Promise<RunningService> {
  const database = options.embedded ? undefined : (options.database ?? (await createTestDatabase()));
  const dataDir = tempDir();
  // The ports are known before the service is built: its sandbox adapters call it back over HTTP.
  const [port, vaultPort, demoAirlinePort, demoTravelPort] = (await freePorts(4)) as [number, number, number, number];
  const config = loadConfig({
    VAULT_PORT: String(vaultPort),
    DEMO_AIRLINE_PORT: String(demoAirlinePort),
    DEMO_TRAVEL_PORT: String(demoTravelPort),
    ...(database ? { DATABASE_URL: database.url } : {}),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SANDBOX: '1',
    PORT: String(port),
    // The address the test talks to is the issuer's and the API's too (localhost may resolve to ::1).
    BASE_URL: `http://127.0.0.1:${port}`,
    ...env,
  });
  // Every test request comes from 127.0.0.1: the per-address limits on sign-in mail and registration
  // would stop a test file part-way. Tests of those limits pass their own policy.
  const service = await createService(config, {
    ...options,
    abusePolicy: {
      signInCodesPerNetwork: { points: 100_000, duration: 60 },
      registrationsPerNetwork: { points: 100_000, duration: 60 },
      ...options.abusePolicy,
    },
  });
  const servers = [
    { server: http.createServer(service.app.callback()), port },
    ...service.ownPortApps.map((own) => ({ server: http.createServer(own.app.callback()), port: own.port })),
  ];
  // As main.ts does: an idle connection outlives the client's reuse of it (a server closing it at 5 s
  // races a loaded test's next request on it, which then fails as "fetch failed").
  for (const { server } of servers) server.keepAliveTimeout = 65_000;
  const stop = async (server: http.Server) => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    for (const each of servers) await listenOn(each.server, each.port);
  } catch (error) {
    // Another test file took a port between freePort() and now (four files start at once): start
    // again on other ports, with the same database.
    for (const { server } of servers) await stop(server);
    await service.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || (options.attempt ?? 0) >= 3) throw error;
    return startService(env, { ...options, ...(database ? { database } : {}), ownsDatabase: !options.database || options.ownsDatabase, attempt: (options.attempt ?? 0) + 1 });
  }
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    service,
    async closeOwnPortServers() {
      for (const { server } of servers.slice(1)) await stop(server);
    },
    async close() {
      for (const { server } of servers) await stop(server);
      await service.close();
      if (database && (!options.database || options.ownsDatabase)) await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function listenOn(server: http.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A port that was free a moment ago (the kernel picks it; a clash right after is very unlikely). */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0] as number;
}

/**
 * `count` ports free a moment ago, all different: each probe stays open until the last is taken, since
 * the kernel may hand a just-closed port out again at once.
 */
export async function freePorts(count: number): Promise<number[]> {
  const probes = Array.from({ length: count }, () => net.createServer());
  for (const probe of probes) await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const ports = probes.map((probe) => (probe.address() as AddressInfo).port);
  await Promise.all(probes.map((probe) => new Promise<void>((resolve) => probe.close(() => resolve()))));
  return ports;
}

export function uniquePrefix(): string {
  return `test:${randomBytes(6).toString('hex')}`;
}
