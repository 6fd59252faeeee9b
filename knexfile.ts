/**
 * For the knex command line against a real server (`DATABASE_URL=... npx knex --knexfile knexfile.ts
 * migrate:status`). The service and `npm run migrate` use core/db directly, which also covers the
 * embedded database.
 */
import type { Knex } from 'knex';
import { migrationConfig } from './core/db/migrate.js';

const config: Knex.Config = {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  migrations: migrationConfig,
  compileSqlOnError: false,
};

export default config;
