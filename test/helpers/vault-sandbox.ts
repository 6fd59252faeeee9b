/**
 * The card vault sandbox on a port of its own, over a fresh migrated test database, with a clock the
 * test moves by hand.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { SecretBox } from '../../core/crypto/secret-box.js';
import type { Logger } from '../../core/logger.js';
import { openDatabase } from '../../core/db/database.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import { SANDBOX_VAULT_KEY } from '../../config.js';
import { vaultSandbox } from '../../providers/vault/sandbox.js';
import { createTestDatabase } from './database.js';

export interface RunningVault {
  url: string;
  knex: Knex;
  clock: { now(): Date; advance(ms: number): void };
  close(): Promise<void>;
}

export async function startVaultSandbox(options: { logger?: Logger } = {}): Promise<RunningVault> {
  const database = await createTestDatabase();
  const db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 4 });
  await migrateToLatest(db.knex);
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
  const app = vaultSandbox({ db: db.knex, clock, secrets: new SecretBox([randomBytes(32).toString('base64')]), serviceKeys: [SANDBOX_VAULT_KEY], logger: options.logger });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    knex: db.knex,
    clock,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await db.close();
      await database.drop();
    },
  };
}
