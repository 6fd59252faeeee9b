/**
 * `npm run migrate`: applies pending migrations to PostgreSQL (DATABASE_DIRECT_URL, else DATABASE_URL:
 * past any pooler), or to the embedded database in DATA_DIR.
 */
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';

try {
  const config = loadConfig();
  const direct = config.databaseUrl ? config.databaseDirectUrl : undefined;
  const db = await openDatabase({ databaseUrl: direct, dataDir: config.dataDir, poolMax: 1 });
  try {
    const applied = await migrateToLatest(db.knex, direct);
    console.log(JSON.stringify({ applied }));
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
