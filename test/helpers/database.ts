/**
 * A fresh PostgreSQL database per test file (each ava worker), created on the server of DATABASE_URL
 * and dropped afterwards. Refuses any database whose name lacks "test", so a test run can never touch
 * real data. It is a copy of a template migrated once per set of migrations (a hash of their files in
 * its name), so that each test file does not apply every migration again; `empty` gives a database
 * with no schema, for the tests of the migrations themselves.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import knexFactory from 'knex';
import pg from 'pg';
import { migrateToLatest } from '../../core/db/migrate.js';
import { installJobSchema } from '../../jobs/job-runner.js';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/travel_test';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function assertTestDatabaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/test/i.test(name)) {
    throw new Error(`Refusing to run tests against the database "${name}": its name must contain "test".`);
  }
  return name;
}

export async function createTestDatabase(baseUrl = process.env.DATABASE_URL || DEFAULT_TEST_DATABASE_URL, options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const baseName = assertTestDatabaseName(baseUrl);
  const name = `${baseName}_${process.pid}_${randomBytes(3).toString('hex')}`.toLowerCase();
  assertTestDatabaseName(`postgres://x/${name}`);
  const server = new URL(baseUrl);
  server.pathname = '/postgres';
  const template = options.empty ? undefined : await migratedTemplate(baseUrl, server.href);
  await withClient(server.href, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => withClient(server.href, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * Names the migrations as they are now, and the job runner's schema (pg-boss's version): a changed or
 * added migration, or another pg-boss, makes another template.
 */
function migrationsDigest(): string {
  const directory = new URL('../../core/db/migrations/', import.meta.url);
  const hash = createHash('sha256');
  hash.update((createRequire(import.meta.url)('pg-boss/package.json') as { version: string }).version);
  for (const file of fs.readdirSync(directory).sort()) hash.update(file).update(fs.readFileSync(new URL(file, directory)));
  return hash.digest('hex').slice(0, 12);
}

/**
 * The template of this run's migrations, migrated once: test files starting together take turns on an
 * advisory lock, the first builds it under a temporary name and renames it when it is whole.
 */
async function migratedTemplate(baseUrl: string, serverUrl: string): Promise<string> {
  const template = `${assertTestDatabaseName(baseUrl)}_template_${migrationsDigest()}`.toLowerCase();
  await withClient(serverUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
    if ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount) return;
    const building = `${template}_building`;
    await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${building}"`);
    const url = new URL(baseUrl);
    url.pathname = `/${building}`;
    const knex = knexFactory({ client: 'pg', connection: url.href, pool: { min: 0, max: 1 } });
    try {
      await migrateToLatest(knex, serverUrl);
      // pg-boss's schema too, as every service's start makes sure of it: a test file's start is spared it.
      await installJobSchema(knex);
    } finally {
      await knex.destroy();
    }
    await client.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    // Ending the session releases the lock.
  });
  return template;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
