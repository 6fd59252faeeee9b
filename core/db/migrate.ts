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
  if (!serverUrl) return (await allRecorded((sql) => knex.raw(sql))) ? [] : latest(knex);
  const lockHolder = new pg.Client({ connectionString: serverUrl });
  await lockHolder.connect();
  try {
    if (await allRecorded((sql) => lockHolder.query(sql))) return [];
    await lockHolder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await latest(knex);
  } finally {
    // Ending the session releases the lock.
    await lockHolder.end();
  }
}

/**
 * Nearly every start finds every migration run already. Two cheap reads say so, where knex's migrator
 * spends a dozen queries on the catalog and its lock table (a third of a second on the embedded
 * database). Anything else (a table missing, a migration not recorded, or one recorded that this version
 * does not know) goes through knex, which applies or refuses.
 */
async function allRecorded(query: (sql: string) => Promise<{ rows: unknown[] }>): Promise<boolean> {
  const [table] = (await query("select to_regclass('knex_migrations') as name")).rows as [{ name: string | null }];
  if (!table.name) return false;
  const recorded = new Set(((await query('select name from knex_migrations')).rows as { name: string }[]).map((row) => row.name));
  return recorded.size === migrations.length && migrations.every(([name]) => recorded.has(name));
}

async function latest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}
