/**
 * Hot reads as named prepared statements: the SQL is parsed and planned once per connection, and the
 * query builder is skipped. Worth it only on paths that run on nearly every request (the traveler behind
 * a token); everything else goes through knex. With a transaction, its own connection is used.
 *
 * Behind a pooler in transaction mode (PgBouncer before 1.21, as Debian ships it) a server connection is
 * ours for one transaction only: a statement named on one would be missing, or named already, on the
 * next. There the same statements go unnamed (parsed and planned at each call).
 */
import type { Knex } from 'knex';

interface PgConnection {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export async function queryPrepared<Row>(db: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  return run<Row>(db, unnamed.has(db.client.config) ? { text, values } : { name, text, values });
}

/** knex configurations (shared by their transactions' clients) whose connections keep no named statement. */
const unnamed = new WeakSet<object>();

/** `knex`'s connections go through a pooler in transaction mode: its prepared statements go unnamed. */
export function withoutNamedStatements(knex: Knex): void {
  unnamed.add(knex.client.config);
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
