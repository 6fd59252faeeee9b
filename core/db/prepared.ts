/**
 * Hot reads as named prepared statements: the SQL is parsed and planned once per connection, and the
 * query builder is skipped. Worth it only on paths that run on nearly every request (the traveler behind
 * a token); everything else goes through knex. With a transaction, its own connection is used.
 */
import type { Knex } from 'knex';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export async function queryPrepared<Row>(db: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as PgConnection;
  try {
    return (await connection.query({ name, text, values })).rows as Row[];
  } finally {
    await db.client.releaseConnection(connection);
  }
}
