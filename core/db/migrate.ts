import type { Knex } from 'knex';
import { migrations } from './migrations/index.js';

class ListedMigrations implements Knex.MigrationSource<string> {
  async getMigrations(): Promise<string[]> {
    return migrations.map(([name]) => name);
  }

  getMigrationName(name: string): string {
    return name;
  }

  async getMigration(name: string): Promise<Knex.Migration> {
    const found = migrations.find(([candidate]) => candidate === name);
    if (!found) throw new Error(`Unknown migration ${name}`);
    return found[1];
  }
}

export const migrationConfig: Knex.MigratorConfig = {
  migrationSource: new ListedMigrations(),
  tableName: 'knex_migrations',
};

// Any constant will do: it names the lock that instances starting together on one database queue on.
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Applies every pending migration; returns the names applied. Instances that start together on one
 * database take turns through a PostgreSQL advisory lock (knex's own lock table makes the second one
 * fail instead of wait). The embedded database has one connection and one process: no lock needed.
 */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  const pool = (knex.client as { pool?: { max: number } }).pool;
  if (!pool || pool.max < 2) return latest(knex);
  const connection = await knex.client.acquireConnection();
  try {
    await knex.raw('select pg_advisory_lock(?)', [MIGRATION_LOCK_KEY]).connection(connection);
    try {
      return await latest(knex);
    } finally {
      await knex.raw('select pg_advisory_unlock(?)', [MIGRATION_LOCK_KEY]).connection(connection);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

async function latest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}
