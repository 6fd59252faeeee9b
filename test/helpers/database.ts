/**
 * A fresh PostgreSQL database per test file (each ava worker), created on the server of DATABASE_URL
 * and dropped afterwards. Refuses any database whose name lacks "test", so a test run can never touch
 * real data.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

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

export async function createTestDatabase(baseUrl = process.env.DATABASE_URL || DEFAULT_TEST_DATABASE_URL): Promise<TestDatabase> {
  const baseName = assertTestDatabaseName(baseUrl);
  const name = `${baseName}_${process.pid}_${randomBytes(3).toString('hex')}`.toLowerCase();
  assertTestDatabaseName(`postgres://x/${name}`);
  const server = new URL(baseUrl);
  server.pathname = '/postgres';
  await withClient(server.href, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => withClient(server.href, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
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
