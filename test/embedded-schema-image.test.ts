/**
 * A new embedded database starts as a copy of the prepared schema: a database that went through initdb and
 * every migration, made once per machine (here in a cache directory of this file's own) and keyed by the
 * migrations. knex finds every migration recorded as run; each data directory gets a copy of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { openDatabase } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { migrations } from '../core/db/migrations/index.js';
import { schemaImageDirectory, schemaImageKey } from '../core/db/schema-image.js';
import { PartnerService } from '../core/partners/service.js';
import { seedReferenceData } from '../seeds/index.js';
import { tempDir } from './helpers/service.js';

const ALL_MIGRATIONS = migrations.map(([name]) => name);
const root = tempDir('tp-schema-image-');
// Read when a database is opened: the image is made in, and found in, this file's own cache.
process.env.XDG_CACHE_HOME = path.join(root, 'cache');
test.after.always(() => fs.rmSync(root, { recursive: true, force: true }));

async function appliedMigrations(dataDir: string): Promise<{ applied: string[]; recorded: string[] }> {
  const db = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1, fromPreparedSchema: true });
  try {
    const applied = await migrateToLatest(db.knex);
    const recorded = (await db.knex('knex_migrations').orderBy('id').select('name')).map((row) => row.name as string);
    return { applied, recorded };
  } finally {
    await db.close();
  }
}

test.serial('a fresh data directory starts from the prepared schema, made on first use: every migration recorded, none run', async (t) => {
  const image = path.join(schemaImageDirectory(), schemaImageKey());
  t.false(fs.existsSync(image));
  // Images of earlier migrations, and a build a dead process left an hour and more ago.
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);
  for (const [name, hours] of [['older', 3], ['old', 2], ['recent', 1], ['.building-abandoned', 2]] as const) {
    fs.mkdirSync(path.join(schemaImageDirectory(), name), { recursive: true });
    fs.utimesSync(path.join(schemaImageDirectory(), name), hoursAgo(hours), hoursAgo(hours));
  }

  const first = path.join(root, 'first');
  t.deepEqual(await appliedMigrations(first), { applied: [], recorded: ALL_MIGRATIONS });
  t.true(fs.existsSync(path.join(image, 'PG_VERSION')));
  // The three newest images stay; no half-built copies.
  t.deepEqual(fs.readdirSync(schemaImageDirectory()).sort(), [path.basename(image), 'old', 'recent'].sort());

  // Rows written in one data directory stay there: the image is copied, never opened in place.
  const db = await openDatabase({ databaseUrl: undefined, dataDir: first, poolMax: 1, fromPreparedSchema: true });
  let partnerId: string;
  try {
    await seedReferenceData(db.knex);
    partnerId = (await new PartnerService(db.knex).createPartner({ name: 'Imaged Air' })).partner_id;
    // Sized for a development machine, not initdb's server defaults.
    t.is((await db.knex.raw('show shared_buffers')).rows[0].shared_buffers, '16MB');
  } finally {
    await db.close();
  }

  const second = path.join(root, 'second');
  t.deepEqual(await appliedMigrations(second), { applied: [], recorded: ALL_MIGRATIONS });
  const other = await openDatabase({ databaseUrl: undefined, dataDir: second, poolMax: 1, fromPreparedSchema: true });
  try {
    t.deepEqual(await new PartnerService(other.knex).listPartners(), []);
  } finally {
    await other.close();
  }

  // An existing database is opened as it is, never replaced by the image.
  const again = await openDatabase({ databaseUrl: undefined, dataDir: first, poolMax: 1, fromPreparedSchema: true });
  try {
    t.deepEqual(
      (await new PartnerService(again.knex).listPartners()).map((partner) => partner.partner_id),
      [partnerId],
    );
  } finally {
    await again.close();
  }
});

test.serial('a new or changed migration makes a new image', (t) => {
  const [name, migration] = migrations.at(-1) as (typeof migrations)[number];
  const added = [...migrations, ['29991231000001-next', migration] as const];
  const changed = [...migrations.slice(0, -1), [name, { ...migration, up: async () => undefined }] as const];
  t.not(schemaImageKey(added), schemaImageKey());
  t.not(schemaImageKey(changed), schemaImageKey());
  t.is(schemaImageKey([...migrations]), schemaImageKey());
});

test.serial('with no cache directory to write to, a fresh data directory is built in place, as without the image', async (t) => {
  const previous = process.env.XDG_CACHE_HOME;
  // A file where the cache directory should be: the image can be neither found nor made.
  const blocked = path.join(root, 'not-a-directory');
  fs.writeFileSync(blocked, '');
  process.env.XDG_CACHE_HOME = blocked;
  try {
    const { applied, recorded } = await appliedMigrations(path.join(root, 'uncached'));
    t.deepEqual(applied, ALL_MIGRATIONS);
    t.deepEqual(recorded, ALL_MIGRATIONS);
  } finally {
    process.env.XDG_CACHE_HOME = previous;
  }
});
