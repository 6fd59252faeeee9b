/**
 * A database of the booking benchmark's own, beside the one DATABASE_URL names, made for one run and
 * dropped after it. The booking server generates its encryption key in a fresh data directory each run,
 * and a kept database would hold secrets sealed under an earlier run's key (the vault's fingerprint key
 * among them: every new card would fail); fresh rows also keep one run's figures from depending on how
 * many bookings earlier runs left.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { benchDatabaseName } from './ensure-database.js';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/** `stem`: the new database's name before its random ending; by default the bench database's, `_bookings`. */
export async function freshDatabase(baseUrl: string, stem = `${benchDatabaseName(baseUrl)}_bookings`): Promise<FreshDatabase> {
  const name = `${stem}_${randomBytes(3).toString('hex')}`.toLowerCase();
  const server = new URL(baseUrl);
  server.pathname = '/postgres';
  await onServer(server.href, `CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => onServer(server.href, `DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`) };
}

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
