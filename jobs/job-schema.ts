/**
 * The job runner's schema (pg-boss's own) as part of the embedded database's prepared image, so that a
 * fresh data directory starts with it made instead of making it at the first start. Loads pg-boss only
 * when an image is built: a start that finds the image pays nothing for it.
 */
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { SchemaExtra } from '../core/db/database.js';

const pgBossVersion = (createRequire(import.meta.url)('pg-boss/package.json') as { version: string }).version;

export const jobSchema: SchemaExtra = {
  key: `pg-boss ${pgBossVersion}`,
  async install(knex: Knex) {
    const { installJobSchema } = await import('./job-runner.js');
    await installJobSchema(knex);
  },
};
