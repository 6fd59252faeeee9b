import test from 'ava';
import { openDatabase, type Database } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { PairwiseIds } from '../core/users/pairwise-ids.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase;
let db: Database;
let ids: PairwiseIds;

test.before(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 6 });
  await migrateToLatest(db.knex, database.url);
  ids = new PairwiseIds(db.knex);
});
test.after.always(async () => {
  await db?.close();
  await database?.drop();
});

async function traveler(email: string): Promise<string> {
  const [row] = await db.knex('users').insert({ email }).returning('id');
  return row.id;
}

test('stable per traveler and client, different across clients and travelers, not the user id', async (t) => {
  const ada = await traveler('ada-pairwise@example.com');
  const grace = await traveler('grace-pairwise@example.com');
  const adaA = await ids.guidFor(ada, 'client-a');
  t.regex(adaA, /^[0-9a-f-]{36}$/);
  t.is(await ids.guidFor(ada, 'client-a'), adaA);
  t.not(await ids.guidFor(ada, 'client-b'), adaA);
  t.not(await ids.guidFor(grace, 'client-a'), adaA);
  t.not(adaA, ada);
});

test('concurrent first uses agree on one GUID', async (t) => {
  const lin = await traveler('lin-pairwise@example.com');
  const guids = await Promise.all([1, 2, 3, 4, 5].map(() => ids.guidFor(lin, 'client-race')));
  t.is(new Set(guids).size, 1);
});

test('after a disconnect the traveler gets a new GUID for that client only', async (t) => {
  const kim = await traveler('kim-pairwise@example.com');
  const before = await ids.guidFor(kim, 'client-x');
  const other = await ids.guidFor(kim, 'client-y');
  await ids.forget(kim, 'client-x');
  const after = await ids.guidFor(kim, 'client-x');
  t.not(after, before);
  t.is(await ids.guidFor(kim, 'client-y'), other);
});
