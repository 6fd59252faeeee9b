/** `npm run migrate`: applies pending migrations to DATABASE_URL, or to the embedded database in DATA_DIR. */
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';

try {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 1 });
  try {
    const applied = await migrateToLatest(db.knex, config.databaseUrl);
    console.log(JSON.stringify({ applied }));
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
