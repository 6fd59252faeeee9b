/**
 * The benchmark runs on the database that DATABASE_URL names, as the tests do: when that database does
 * not exist yet on the server, it is created (its name must contain "bench" or "test", so that a run can
 * never be pointed at real data by mistake and fill it with benchmark rows).
 */
import pg from 'pg';

const DUPLICATE_DATABASE = '42P04';

export async function ensureDatabase(url: string): Promise<void> {
  const name = benchDatabaseName(url);
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.href });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // Two runs starting together: the other one created it.
    if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
  } finally {
    await client.end();
  }
}

/** The database's name, once it says it is for benchmarks or tests. */
export function benchDatabaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/bench|test/i.test(name)) {
    throw new Error(`DATABASE_URL names "${name}": the benchmark writes rows, so use a database whose name contains "bench" or "test".`);
  }
  return name;
}
