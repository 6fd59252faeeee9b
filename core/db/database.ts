/**
 * The one way the service reaches its data: knex with the `pg` client, either to the server of
 * DATABASE_URL with a normal pool, or to the embedded PostgreSQL with a pool of exactly one connection.
 */
import type { Knex } from 'knex';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded.js';
import { withoutNamedStatements } from './prepared.js';
import { schemaImage } from './schema-image.js';

// int8 (counts, sums) as JavaScript numbers: every bigint we read fits in 2^53. numeric stays a string,
// which is what money needs.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
// `date` columns stay 'YYYY-MM-DD' strings: turning them into local-time Date objects shifts days.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);
// `timestamp` without time zone holds airport-local times (a booking's departure): kept as their text.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value: string) => value);

/**
 * knex (some 330 modules with lodash) loads on the first open, not with this module: the service's start
 * then launches the embedded database's worker thread first, and loads knex while PGlite starts in it.
 */
async function loadKnex() {
  return (await import('knex')).default;
}

export interface DatabaseOptions {
  /** A postgres:// URL; absent means the embedded PostgreSQL in `dataDir`. */
  databaseUrl: string | undefined;
  /** `databaseUrl` is a pooler in transaction mode (PgBouncer): no named prepared statements (prepared.ts). */
  transactionPooler?: boolean | undefined;
  dataDir: string;
  poolMax: number;
  /** How long a pooled connection may sit idle before the pool closes it (default 30 s). */
  idleTimeoutMs?: number | undefined;
  /** Called if the embedded database dies while the process runs. */
  onEmbeddedCrash?(error: Error): void;
  /**
   * A new embedded database starts as a copy of the prepared, already-migrated schema (schema-image.ts),
   * made on first use, instead of running initdb and every migration: seconds saved on each fresh start.
   * Without it, a new embedded database starts empty.
   */
  fromPreparedSchema?: boolean;
  /** What the prepared schema holds beyond the migrations (the job runner's own schema), if anything. */
  schemaExtra?: SchemaExtra | undefined;
}

/** A schema the service needs that the migrations do not make: part of the prepared image too. */
export interface SchemaExtra {
  /** Changes whenever what `install` makes changes (a library's version): part of the image's key. */
  key: string;
  install(knex: Knex): Promise<void>;
}

export interface Database {
  knex: Knex;
  embedded: boolean;
  /** Closes the pool, then stops the embedded server if there is one. Safe to call twice. */
  close(): Promise<void>;
}

// compileSqlOnError is off everywhere: knex would otherwise put the SQL with its bound values (emails,
// names, ...) into error messages, and error messages reach the log. Even off, it still puts the SQL
// itself in front of PostgreSQL's message: withoutSql takes it back out.
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const knexFactory = await loadKnex();
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: options.databaseUrl, keepAlive: true },
      pool: { min: 0, max: options.poolMax, ...idleTimeout(options.idleTimeoutMs) },
      acquireConnectionTimeout: 10_000,
      compileSqlOnError: false,
    });
    knex.on('query-error', withoutSql);
    if (options.transactionPooler) withoutNamedStatements(knex);
    return { knex, embedded: false, close: once(() => knex.destroy()) };
  }

  const starting = startEmbeddedPostgres(options.dataDir, {
    onCrash: options.onEmbeddedCrash,
    ...(options.fromPreparedSchema ? { initialImage: () => schemaImage((dataDir) => buildSchema(dataDir, options.schemaExtra), options.schemaExtra?.key) } : {}),
  });
  // Awaited below: its failure (a locked directory) must not count as unhandled while knex loads.
  starting.catch(() => undefined);
  // The worker thread is a lock and a few callbacks away; loading modules does not yield to them, so the
  // worker is let start first, and PGlite starts in it while this thread loads knex.
  await new Promise((resolve) => setImmediate(resolve));
  const [knexFactory, server] = await Promise.all([
    loadKnex().catch(async (error: unknown) => {
      await starting.then((started) => started.stop()).catch(() => undefined);
      throw error;
    }),
    starting,
  ]);
  const knex = knexFactory({
    client: 'pg',
    connection: { host: server.socketDir, port: server.port, user: 'postgres', database: 'postgres' },
    // PGlite has one backend session, shared by every connection made to it over time: a new connection
    // would find the named statements, settings, advisory locks and temporary tables of the one before
    // (a `pg` client prepares its statements again and fails with 42P05). So the one connection is kept
    // for the process's life (min 1: never closed for being idle), and should it still be lost and made
    // again, the session is wiped first.
    pool: { min: 1, max: 1, afterCreate: discardSession, ...idleTimeout(options.idleTimeoutMs) },
    acquireConnectionTimeout: 30_000,
    compileSqlOnError: false,
  });
  knex.on('query-error', withoutSql);
  return {
    knex,
    embedded: true,
    close: once(async () => {
      try {
        await knex.destroy();
      } finally {
        await server.stop();
      }
    }),
  };
}

/** Fills `dataDir` with a new embedded database holding every migration (and `extra`), and stops it cleanly. */
async function buildSchema(dataDir: string, extra: SchemaExtra | undefined): Promise<void> {
  const [db, { migrateToLatest }] = await Promise.all([openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1 }), import('./migrate.js')]);
  try {
    await migrateToLatest(db.knex);
    await extra?.install(db.knex);
  } finally {
    await db.close();
  }
}

/** Forgets everything the shared PGlite session holds (statements, settings, locks, temporary tables). */
function discardSession(connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void): void {
  connection.query('DISCARD ALL').then(
    () => done(null, connection),
    (error: Error) => done(error, connection),
  );
}

function idleTimeout(ms: number | undefined) {
  return ms ? { idleTimeoutMillis: ms, reapIntervalMillis: Math.min(1000, ms) } : {};
}

/**
 * Runs as knex reports a failed query, before the error reaches our code: its message becomes
 * PostgreSQL's own again (`duplicate key value violates unique constraint "users_email_key"`), without the
 * statement knex put in front of it (`insert into "users" ... - `).
 */
function withoutSql(error: Error, query: { sql?: string }): void {
  const prefix = `${query.sql} - `;
  if (query.sql && error.message.startsWith(prefix)) error.message = error.message.slice(prefix.length);
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
