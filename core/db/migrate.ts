import type { Knex } from 'knex';
import pg from 'pg';
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
 * Applies every pending migration; returns the names applied. With a PostgreSQL server (`serverUrl`),
 * instances that start together take turns through an advisory lock held on a connection of its own
 * (knex's lock table would make the second one fail instead of wait). The embedded database has a single
 * process by construction and needs none.
 */
export async function migrateToLatest(knex: Knex, serverUrl?: string): Promise<string[]> {
  if (!serverUrl) return latest(knex);
  const lockHolder = new pg.Client({ connectionString: serverUrl });
  await lockHolder.connect();
  try {
    await lockHolder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await latest(knex);
  } finally {
    // Ending the session releases the lock.
    await lockHolder.end();
  }
}

async function latest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}
