/**
 * The production topology on this machine, without containers (the machines here cannot pull images):
 * HAProxy in front of three instances of the service (`node dist/start/main.js`, as `npm start` runs it),
 * on one PostgreSQL reached through PgBouncer in transaction mode, and one Redis. The same processes the
 * compose file runs (README, "Running in production"). Used by the topology tests and `npm run topology`.
 *
 * Beside the instances, a control service in this process on the same database (not behind the
 * balancer) that tests use to create partners and read what was stored.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadSigningKeys } from '../authz/keys.js';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database.js';
import { freePorts, startService, tempDir, uniquePrefix, type RunningService } from '../test/helpers/service.js';

export const HAPROXY = '/usr/sbin/haproxy';
export const PGBOUNCER = '/usr/sbin/pgbouncer';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  /** Its log lines so far (stdout and stderr). */
  output: () => string;
}

export interface Topology {
  /** The load balancer: the one URL partners and travelers use. */
  url: string;
  instances: Instance[];
  /** As the test helpers take a service: requests go to the balancer, setup through the control service. */
  running: RunningService;
  database: TestDatabase;
  /** The environment every instance got (the shared keys, the database through the pooler, Redis). */
  env: Record<string, string>;
  /** Kills the instance with SIGKILL, as a crash would; resolves once it is gone. */
  kill(instance: Instance): Promise<void>;
  stop(): Promise<void>;
}

export function topologyAvailable(): string | undefined {
  const missing = [HAPROXY, PGBOUNCER].filter((binary) => !fs.existsSync(binary));
  return missing.length > 0 ? `${missing.join(' and ')} not installed (apt-get install haproxy pgbouncer)` : undefined;
}

export interface TopologyOptions {
  instances?: number;
  /** Every instance's environment, added to the topology's. */
  env?: Record<string, string>;
  /** One instance's own additions, by its index and port (a provider of its own, say). */
  instanceEnv?: (index: number, port: number) => Record<string, string>;
}

export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const count = options.instances ?? 3;
  const dir = tempDir('tp-topology-');
  fs.chmodSync(dir, 0o755);
  const database = await createTestDatabase();
  const children: ChildProcess[] = [];
  let control: RunningService | undefined;
  try {
    const [balancerPort, bouncerPort, ...ports] = await freePorts(2 + count * 2);
    const url = `http://127.0.0.1:${balancerPort}`;
    const direct = new URL(database.url);
    const pooled = new URL(database.url);
    pooled.port = String(bouncerPort);
    children.push(await startPgBouncer(dir, bouncerPort as number));

    // Every instance signs, seals and sets cookies with the same keys, as production requires.
    const keys = await loadSigningKeys({ jwksPath: undefined, cookieKeys: undefined, dataDir: dir, production: false });
    const env: Record<string, string> = {
      BASE_URL: url,
      DATABASE_URL: pooled.href,
      DATABASE_DIRECT_URL: direct.href,
      DATABASE_TRANSACTION_POOLER: '1',
      DATABASE_POOL_MAX: '10',
      REDIS_URL,
      REDIS_KEY_PREFIX: uniquePrefix(),
      JWKS_PATH: path.join(dir, 'keys', 'jwks.json'),
      COOKIE_KEYS: keys.cookieKeys.join(','),
      DATA_ENCRYPTION_KEY: keys.dataEncryptionKeys.join(','),
      SANDBOX: '1',
      DEMO_AIRLINE_PORT: '0',
      DEMO_TRAVEL_PORT: '0',
      LOG_LEVEL: 'warn',
      JOB_POLL_SECONDS: '0.5',
      ...options.env,
    };
    // The control service first: it applies the migrations, so the instances start on a ready schema.
    control = await startService({ ...env, DATABASE_URL: direct.href, DATABASE_TRANSACTION_POOLER: '0', LOG_LEVEL: 'silent' }, { database, rateLimitKeyPrefix: env.REDIS_KEY_PREFIX });
    const instances = await Promise.all(
      Array.from({ length: count }, (_, index) => {
        const port = ports[index * 2] as number;
        return startInstance(`instance-${index + 1}`, port, ports[index * 2 + 1] as number, dir, { ...env, ...options.instanceEnv?.(index, port) });
      }),
    );
    children.push(...instances.map((instance) => instance.child));
    children.push(await startHaproxy(dir, balancerPort as number, instances));
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, 20_000, 'the balancer to answer');

    const controlService = control;
    const running: RunningService = {
      url,
      config: controlService.config,
      service: controlService.service,
      closeOwnPortServers: () => controlService.closeOwnPortServers(),
      close: () => controlService.close(),
    };
    return {
      url,
      instances,
      running,
      database,
      env,
      async kill(instance) {
        if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
        const gone = new Promise((resolve) => instance.child.once('exit', resolve));
        instance.child.kill('SIGKILL');
        await gone;
      },
      async stop() {
        await stopAll(children);
        await controlService.close();
        await database.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopAll(children);
    await control?.close();
    await database.drop();
    throw error;
  }
}

/** PgBouncer in transaction mode, trusting local connections as the test PostgreSQL does. */
async function startPgBouncer(dir: string, port: number): Promise<ChildProcess> {
  const config = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(path.join(dir, 'userlist.txt'), '"postgres" ""\n', { mode: 0o644 });
  fs.writeFileSync(
    config,
    [
      '[databases]',
      '* = host=127.0.0.1 port=5432',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 40',
      // node-postgres sends extra_float_digits at connect; PgBouncer passes on only what it knows.
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  // PgBouncer will not run as root: it drops to the postgres user (its config readable by it).
  const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(PGBOUNCER, [...asUser, config], { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForPort(port, child, 'PgBouncer');
  return child;
}

async function startInstance(name: string, port: number, vaultPort: number, dir: string, env: Record<string, string>): Promise<Instance> {
  const dataDir = path.join(dir, name);
  fs.mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, [new URL('../start/main.js', import.meta.url).pathname], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', VAULT_PORT: String(vaultPort), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, 60_000, `${name} to be ready`, () => {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
  });
  return { name, port, child, output: () => output };
}

/**
 * HAProxy, round robin, checking each instance's readiness every half second: an instance that stops
 * answering is out after two failed checks. A request whose connection failed is sent to another
 * instance (it never reached the first); one in flight when its instance died is not resent (the
 * client retries it, with its idempotency key). Idle connections to the instances close after 10 s,
 * before the instances' own 65 s.
 */
async function startHaproxy(dir: string, port: number, instances: Instance[]): Promise<ChildProcess> {
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    config,
    [
      'global',
      '  maxconn 4000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout http-keep-alive 10s',
      '  option redispatch',
      '  retries 2',
      '  retry-on conn-failure',
      'frontend web',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      '  default-server inter 500 fall 2 rise 2',
      ...instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`),
      '',
    ].join('\n'),
  );
  const child = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForPort(port, child, 'HAProxy');
  return child;
}

async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(
    async () => {
      const net = await import('node:net');
      return new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
        socket.on('error', () => resolve(false));
      });
    },
    10_000,
    `${name} to listen`,
    () => {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    },
  );
}

export async function waitFor(check: () => Promise<boolean>, ms: number, what: string, each?: () => void): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    each?.();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(100);
  }
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(killed);
    }),
  );
}
