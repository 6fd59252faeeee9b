/**
 * The default with DATABASE_URL unset: PGlite in a worker behind the PostgreSQL wire protocol, reached
 * by knex and pg, with a lock on its data directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { openDatabase } from '../core/db/database.js';
import { embeddedLockPath } from '../core/db/embedded.js';
import { DataDirectoryLockedError } from '../core/db/lock.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { PartnerService } from '../core/partners/service.js';
import { seedReferenceData } from '../seeds/index.js';
import { tempDir } from './helpers/service.js';

const dataDir = tempDir('tp-embedded-');
test.after.always(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test.serial('migrate, write and read back, then again after a restart', async (t) => {
  const first = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 10 });
  t.true(first.embedded);
  let partnerId: string;
  try {
    t.deepEqual(await migrateToLatest(first.knex), ['20261122000001-foundation']);
    await seedReferenceData(first.knex);
    const created = await new PartnerService(first.knex).createPartner({ name: 'Embedded Partner' });
    partnerId = created.partner_id;
    const row = await first.knex('partners').where({ id: partnerId }).first();
    t.is(row.name, 'Embedded Partner');
    const [{ version }] = (await first.knex.raw('select version()')).rows;
    t.regex(version, /PGlite/);
    // Exactly one connection: pglite-socket connections would share one backend session.
    t.is(first.knex.client.pool.max, 1);
  } finally {
    await first.close();
  }
  t.false(fs.existsSync(embeddedLockPath(dataDir)));

  const second = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 10 });
  try {
    t.deepEqual(await migrateToLatest(second.knex), []);
    const partners = await new PartnerService(second.knex).listPartners();
    t.deepEqual(
      partners.map((partner) => partner.partner_id),
      [partnerId],
    );
  } finally {
    await second.close();
  }
});

test.serial('a second process on the same data directory is refused with a clear message', async (t) => {
  const holder = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1 });
  try {
    const error = await t.throwsAsync(openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1 }), {
      instanceOf: DataDirectoryLockedError,
    });
    t.regex(error.message, new RegExp(`${dataDir} is in use by another process \\(pid ${process.pid}\\)`));
    // The holder still works.
    t.is((await holder.knex.raw('select 1 as one')).rows[0].one, 1);
  } finally {
    await holder.close();
  }
});

test.serial('a lock left by a process that died is taken over', async (t) => {
  fs.writeFileSync(embeddedLockPath(dataDir), JSON.stringify({ pid: 2 ** 22 + 12345, started_at: 'long ago' }));
  const db = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1 });
  try {
    const lock = JSON.parse(fs.readFileSync(embeddedLockPath(dataDir), 'utf8'));
    t.is(lock.pid, process.pid);
  } finally {
    await db.close();
  }
  t.false(fs.existsSync(path.join(dataDir, '.s.PGSQL.5432')));
});
