/**
 * The default with DATABASE_URL unset: PGlite in a worker behind the PostgreSQL wire protocol, reached
 * by knex and pg, with a lock on its data directory.
 */
import fs from 'node:fs';
import test from 'ava';
import { openDatabase } from '../core/db/database.js';
import { spawn } from 'node:child_process';
import { DataDirectoryLockedError, lockDataDirectory } from '../core/db/lock.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { migrations } from '../core/db/migrations/index.js';
import { PartnerService } from '../core/partners/service.js';
import { seedReferenceData } from '../seeds/index.js';
import { compiled } from './helpers/built.js';
import { tempDir } from './helpers/service.js';

const dataDir = tempDir('tp-embedded-');
const ALL_MIGRATIONS = migrations.map(([name]) => name);
test.after.always(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test.serial('migrate, write and read back, then again after a restart', async (t) => {
  const first = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 10 });
  t.true(first.embedded);
  let partnerId: string;
  try {
    t.deepEqual(await migrateToLatest(first.knex), ALL_MIGRATIONS);
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

test.serial('a second opener of the same data directory is refused with a clear message', async (t) => {
  const holder = await openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1 });
  try {
    const error = await t.throwsAsync(openDatabase({ databaseUrl: undefined, dataDir, poolMax: 1 }), {
      instanceOf: DataDirectoryLockedError,
    });
    t.is(error.message.split(' is in use by another process')[0], `The data directory ${dataDir}`);
    // The holder still works.
    t.is((await holder.knex.raw('select 1 as one')).rows[0].one, 1);
  } finally {
    await holder.close();
  }
});

test.serial('another process holding the lock is named; when it dies the lock is free at once', async (t) => {
  const child = spawn(process.execPath, [compiled('test/fixtures/hold-data-dir.ts'), dataDir]);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => String(chunk).includes('locked') && resolve());
    child.on('exit', () => reject(new Error('the holder exited early')));
  });
  const error = await t.throwsAsync(lockDataDirectory(dataDir), { instanceOf: DataDirectoryLockedError });
  t.is(error.pid, child.pid);
  t.regex(error.message, new RegExp(`\\(pid ${child.pid}\\)`));

  // A crash leaves nothing stale behind: no waiting, no file to delete by hand.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  const lock = await lockDataDirectory(dataDir);
  await lock.release();
  t.pass();
});

test.serial('two openers racing for the lock: exactly one wins', async (t) => {
  const results = await Promise.allSettled([lockDataDirectory(dataDir), lockDataDirectory(dataDir)]);
  t.is(results.filter((result) => result.status === 'fulfilled').length, 1);
  for (const result of results) if (result.status === 'fulfilled') await result.value.release();
});
