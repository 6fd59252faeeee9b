import test from 'ava';
import { openDatabase } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { migrations } from '../core/db/migrations/index.js';

const ALL_MIGRATIONS = migrations.map(([name]) => name);
import { createTestDatabase } from './helpers/database.js';

test('instances starting together on one fresh database take turns migrating', async (t) => {
  const database = await createTestDatabase();
  const instances = await Promise.all(
    [1, 2, 3].map(() => openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 1 })),
  );
  try {
    const applied = await Promise.all(instances.map((db) => migrateToLatest(db.knex, database.url)));
    // Exactly one instance applied the migrations; the others found nothing left to do.
    t.deepEqual(
      applied.map((names) => names.length).sort(),
      [0, 0, ALL_MIGRATIONS.length],
    );
    const rows = await (instances[0] as (typeof instances)[number]).knex('knex_migrations').select('name');
    t.deepEqual(
      rows.map((row) => row.name),
      ALL_MIGRATIONS,
    );
  } finally {
    await Promise.all(instances.map((db) => db.close()));
    await database.drop();
  }
});
