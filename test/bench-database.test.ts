/**
 * `npm run bench` on DATABASE_URL: the database it names is created when it does not exist yet (as the
 * tests create theirs), and only one whose name says it is for benchmarks or tests.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import test from 'ava';
import pg from 'pg';
import { databaseCpu, databaseCpuBetween, isLocalDatabase } from '../bench/database-cpu.js';
import { ensureDatabase } from '../bench/ensure-database.js';
import { DEFAULT_TEST_DATABASE_URL } from './helpers/database.js';

const server = new URL(process.env.DATABASE_URL || DEFAULT_TEST_DATABASE_URL);
const urlOf = (name: string) => Object.assign(new URL(server.href), { pathname: `/${name}` }).href;

async function onServer(sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

test('a missing database is created, an existing one is used as it is', async (t) => {
  const name = `travel_bench_${randomBytes(4).toString('hex')}`;
  try {
    await ensureDatabase(urlOf(name));
    t.is((await onServer('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount, 1);
    await t.notThrowsAsync(ensureDatabase(urlOf(name)), 'the second run finds it');
  } finally {
    await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
});

test('a database whose name says neither bench nor test is refused, naming it', async (t) => {
  await t.throwsAsync(ensureDatabase(urlOf('travel')), { message: /DATABASE_URL names "travel".*"bench" or "test"/ });
});

test('the local PostgreSQL server’s CPU time grows by what a statement makes it work, and never goes below zero', async (t) => {
  if (!isLocalDatabase(server.href) || databaseCpu() === undefined) return t.pass('the test database runs on another machine: its processes cannot be read');
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  let before: ReturnType<typeof databaseCpu>;
  try {
    before = databaseCpu();
    await client.query('SELECT count(*) FROM generate_series(1, 3000000)');
    const spent = databaseCpuBetween(before as NonNullable<typeof before>, databaseCpu() as NonNullable<typeof before>);
    t.true(spent >= 50_000, `counting three million rows cost the server ${spent} µs of CPU`);
    t.true(spent < 60_000_000, 'and not a minute');
  } finally {
    await client.end();
  }
  // Its backend has gone with what it spent: the time since is not negative.
  await setTimeout(200);
  t.true(databaseCpuBetween(before as NonNullable<typeof before>, databaseCpu() as NonNullable<typeof before>) >= 0);
});
