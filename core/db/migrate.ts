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

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(migrationConfig)) as [number, string[]];
  return applied;
}
