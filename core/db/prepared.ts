/**
 * Hot reads as named prepared statements: the SQL is parsed and planned once per connection, and the
 * query builder is skipped. Worth it only on paths that run on nearly every request (the traveler behind
 * a token); everything else goes through knex. With a transaction, its own connection is used.
 */
import type { Knex } from 'knex';

interface PgConnection {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export async function queryPrepared<Row>(db: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  return run<Row>(db, { name, text, values });
}

/**
 * The same without a name: parsed and planned at each call. For lookups by key in tables that grow fast
 * (offers): PostgreSQL moves a named statement to a generic plan after five calls and keeps it, and one
 * made while the table was nearly empty (a new database) reads the whole table instead of its primary
 * key until an ANALYZE comes (never, with autovacuum off or on the embedded database): a read of one
 * offer took 20 ms among 25,000 in the benchmark. Planning a lookup by key costs microseconds.
 */
export async function queryPlannedEachCall<Row>(db: Knex, text: string, values: unknown[]): Promise<Row[]> {
  return run<Row>(db, { text, values });
}

async function run<Row>(db: Knex, query: { name?: string; text: string; values: unknown[] }): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as PgConnection;
  try {
    return (await connection.query(query)).rows as Row[];
  } finally {
    await db.client.releaseConnection(connection);
  }
}
