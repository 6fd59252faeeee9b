import test from 'ava';
import { openDatabase } from '../core/db/database.js';
import { migrateToLatest, migrationConfig } from '../core/db/migrate.js';
import { migrations } from '../core/db/migrations/index.js';
import { PartnerService } from '../core/partners/service.js';
import { seedReferenceData } from '../seeds/index.js';
import { createTestDatabase } from './helpers/database.js';

const ALL_MIGRATIONS = migrations.map(([name]) => name);

test('instances starting together on one fresh database take turns migrating', async (t) => {
  const database = await createTestDatabase(undefined, { empty: true });
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

test('offers claimed on upgrade: one traveler’s mapped offer becomes theirs; details kept on an unclaimed offer are deleted', async (t) => {
  const database = await createTestDatabase(undefined, { empty: true });
  const db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 2 });
  const { knex } = db;
  try {
    // The schema as it was before offers were claimed.
    for (let i = 0; i < ALL_MIGRATIONS.indexOf('20261123000019-offer-claims'); i++) await knex.migrate.up(migrationConfig);
    await seedReferenceData(knex);
    const partner = (await new PartnerService(knex).createPartner({ name: 'Upgrade Air' })).partner_id;
    const [ada, bob] = await knex('users').insert([{ email: 'ada@example.com' }, { email: 'bob@example.com' }]).returning('id').then((rows) => rows.map((row) => row.id as string));
    const offer = (id: string) => ({ id, provider_id: 'provider_b', provider_offer_id: 'off_1', partner_id: partner, offer: '{}', raw_offer: '{}', expires_at: new Date(Date.now() + 600_000) });
    const [mapped, detailed, twoTravelers] = ['6f1c1f7e-0000-4c5e-9a55-000000000001', '6f1c1f7e-0000-4c5e-9a55-000000000002', '6f1c1f7e-0000-4c5e-9a55-000000000003'];
    await knex('offers').insert([offer(mapped), offer(detailed), offer(twoTravelers)]);
    const passenger = async (userId: string) =>
      (await knex('user_passengers').insert({ user_id: userId, first_name: 'A', last_name: 'B', gender: 'female', date_of_birth: '1990-01-01' }).returning('id'))[0].id as string;
    await knex('offer_passengers').insert([
      { offer_id: mapped, provider_passenger_id: 'pas_1', user_passenger_id: await passenger(ada as string), user_id: ada },
      { offer_id: twoTravelers, provider_passenger_id: 'pas_1', user_passenger_id: await passenger(ada as string), user_id: ada },
      { offer_id: twoTravelers, provider_passenger_id: 'pas_2', user_passenger_id: await passenger(bob as string), user_id: bob },
    ]);
    await knex('offer_passenger_details').insert([
      { offer_id: detailed, provider_passenger_id: 'pas_1', details: JSON.stringify({ first_name: 'Ada', loyalty_programme_accounts: [{ airline_iata_code: 'BA', account_number: '77' }] }) },
    ]);

    await knex.migrate.up(migrationConfig);
    const owners = Object.fromEntries((await knex('offers').select('id', 'user_id')).map((row) => [row.id, row.user_id]));
    t.deepEqual(owners, { [mapped]: ada, [detailed]: null, [twoTravelers]: null });
    t.is((await knex('offer_passenger_details').where({ offer_id: detailed })).length, 0, 'nobody can be shown details whose writer is unknown');
  } finally {
    await db.close();
    await database.drop();
  }
});
