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

test('kinds of clients on upgrade: a partner client that served the identity surface becomes an airline; no other client is widened; limits never enforced go', async (t) => {
  const database = await createTestDatabase(undefined, { empty: true });
  const db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 2 });
  const { knex } = db;
  try {
    // The schema as it was before the kinds of clients (decisions §13).
    for (let i = 0; i < ALL_MIGRATIONS.indexOf('20261128000028-client-kinds'); i++) await knex.migrate.up(migrationConfig);
    const partner = '6f1c1f7e-0000-4c5e-9a55-0000000000aa';
    const client = (id: string, metadata: Record<string, unknown>) => ({ kind: 'Client', id, payload: JSON.stringify({ client_id: id, client_name: id, ...metadata }) });
    await knex('oidc_models').insert([
      client('linked-airline', { partner_id: partner }),
      client('recognizing-airline', { partner_id: partner }),
      client('loyalty-consented-airline', { partner_id: partner }),
      client('plain-partner', { partner_id: partner }),
      client('agent', {}),
      client('sandbox-demo-airline', { sandbox_demo: true }),
    ]);
    const [ada] = await knex('users').insert([{ email: 'ada@example.com' }]).returning('id').then((rows) => rows.map((row) => row.id as string));
    const now = new Date();
    await knex('loyalty_links').insert({
      user_id: ada,
      client_id: 'linked-airline',
      program_code: 'EX',
      member_number: '1',
      airline_name: 'Ex',
      loyalty_account_ref_sealed: 'sealed',
      verification_method: 'member_otp',
      linked_at: now,
      updated_at: now,
    });
    await knex('recognition_tokens').insert({ token_digest: 'digest', user_id: ada, client_id: 'recognizing-airline', expires_at: now, created_at: now });
    const grant = (id: string, clientId: string, scope: string) => ({ kind: 'Grant', id, client_id: clientId, account_id: ada, payload: JSON.stringify({ clientId, accountId: ada, openid: { scope } }) });
    await knex('oidc_models').insert([grant('g1', 'loyalty-consented-airline', 'openid loyalty.read'), grant('g2', 'plain-partner', 'openid profile.read')]);
    // A limit on an agent, and the limits a partner's client and the demo airline showed but never enforced.
    const limit = (clientId: string) => ({ user_id: ada, client_id: clientId, currency: 'GBP', per_booking_minor: 10_000, updated_at: now });
    await knex('agent_spending_limits').insert([limit('agent'), limit('plain-partner'), limit('sandbox-demo-airline')]);

    await knex.migrate.up(migrationConfig);
    const marks = Object.fromEntries(
      (await knex('oidc_models').where({ kind: 'Client' }).select('id', 'payload')).map((row) => [row.id, JSON.parse(row.payload).airline ?? false]),
    );
    t.deepEqual(marks, { 'linked-airline': true, 'recognizing-airline': true, 'loyalty-consented-airline': true, 'plain-partner': false, agent: false, 'sandbox-demo-airline': false });
    t.deepEqual((await knex('agent_spending_limits').select('client_id')).map((row) => row.client_id), ['agent'], 'only the agent keeps its limit');

    await knex.migrate.down(migrationConfig);
    t.false((await knex('oidc_models').where({ kind: 'Client' }).select('payload')).some((row) => 'airline' in JSON.parse(row.payload)), 'down takes the marks back');
  } finally {
    await db.close();
    await database.drop();
  }
});
