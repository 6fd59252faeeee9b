/**
 * The authorization server's storage adapter on PostgreSQL: what oidc-provider relies on (find by id,
 * uid and user code; consume; destroy; revoke by grant), lifetimes judged by an injected clock, and
 * the sweep of expired rows.
 */
import test from 'ava';
import { errors } from 'oidc-provider';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../core/crypto/secret-box.js';
import { extendDynamicClient, oidcAdapterFactory, sweepExpiredOidcModels } from '../authz/oidc-adapter.js';
import type { Clock } from '../core/clock.js';
import { openDatabase, type Database } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

let database: TestDatabase;
let db: Database;
let now = new Date('2026-11-22T10:00:00Z');
const clock: Clock = { now: () => now };

test.before(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 4 });
  await migrateToLatest(db.knex, database.url);
});
test.after.always(async () => {
  await db?.close();
  await database?.drop();
});

const secrets = new SecretBox([randomBytes(32).toString('base64')]);
const adapter = (model: string) => oidcAdapterFactory(db.knex, clock, secrets)(model);

test.serial('a stored model is found by id, uid and user code until it expires', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const interactions = adapter('Interaction');
  const payload = { uid: 'uid-1', userCode: 'UC-1', params: { scope: 'profile.read' }, nested: [1, 2] };
  await interactions.upsert('int-1', payload, 600);

  t.deepEqual(await interactions.find('int-1'), payload);
  t.deepEqual(await interactions.findByUid('uid-1'), payload);
  t.deepEqual(await interactions.findByUserCode('UC-1'), payload);
  t.is(await adapter('Session').find('int-1'), undefined, 'models do not see each other');

  now = new Date('2026-11-22T10:09:59Z');
  t.truthy(await interactions.find('int-1'));
  now = new Date('2026-11-22T10:10:00Z');
  t.is(await interactions.find('int-1'), undefined, 'expired: invisible at once');
  t.is(await interactions.findByUid('uid-1'), undefined);
});

test.serial('a payload with a NUL character (copied from request parameters) is stored and read back', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const interactions = adapter('Interaction');
  await interactions.upsert('int-nul', { uid: 'uid-nul', params: { state: 'a\u0000b' }, accountId: 'acc-1' }, 60);
  t.deepEqual((await interactions.find('int-nul'))?.params, { state: 'a\u0000b' });
  const row = await db.knex('oidc_models').where({ kind: 'Interaction', id: 'int-nul' }).first();
  t.is(row.account_id, 'acc-1');
});

test.serial('upsert replaces the payload and the lifetime; no lifetime means no expiry', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const grants = adapter('Grant');
  await grants.upsert('grant-a', { clientId: 'client-1', openid: { scope: 'openid' } });
  await grants.upsert('grant-a', { clientId: 'client-1', openid: { scope: 'openid profile.read' } }, 60);
  t.deepEqual((await grants.find('grant-a'))?.openid, { scope: 'openid profile.read' });
  const row = await db.knex('oidc_models').where({ kind: 'Grant', id: 'grant-a' }).first();
  t.is(row.client_id, 'client-1');
  t.is(row.expires_at.toISOString(), '2026-11-22T10:01:00.000Z');

  await grants.upsert('grant-b', { accountId: 'a' });
  now = new Date('2030-01-01T00:00:00Z');
  t.truthy(await grants.find('grant-b'));
});

test.serial('consume marks the first use and keeps it', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const codes = adapter('AuthorizationCode');
  await codes.upsert('code-1', { grantId: 'grant-1', accountId: 'a' }, 60);
  t.falsy((await codes.find('code-1'))?.consumed);
  await codes.consume('code-1');
  const first = (await codes.find('code-1'))?.consumed;
  t.is(first, Math.floor(now.getTime() / 1000));
  now = new Date('2026-11-22T10:00:30Z');
  await t.throwsAsync(codes.consume('code-1'), { instanceOf: errors.InvalidGrant }, 'a second use is refused');
  t.is((await codes.find('code-1'))?.consumed, first);
});

test.serial('revokeByGrantId removes that grant\'s rows of the model; destroy removes one row', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const refresh = adapter('RefreshToken');
  const access = adapter('AccessToken');
  await refresh.upsert('rt-1', { grantId: 'grant-9' }, 3600);
  await refresh.upsert('rt-2', { grantId: 'grant-9' }, 3600);
  await refresh.upsert('rt-3', { grantId: 'grant-other' }, 3600);
  await access.upsert('at-1', { grantId: 'grant-9' }, 900);

  await refresh.revokeByGrantId('grant-9');
  t.is(await refresh.find('rt-1'), undefined);
  t.is(await refresh.find('rt-2'), undefined);
  t.truthy(await refresh.find('rt-3'));
  t.truthy(await access.find('at-1'), 'oidc-provider revokes each model through its own adapter');

  await refresh.destroy('rt-3');
  t.is(await refresh.find('rt-3'), undefined);
});

test.serial('the sweep deletes what has expired, and only that', async (t) => {
  now = new Date('2026-11-22T12:00:00Z');
  const sessions = adapter('Session');
  await sessions.upsert('short', { uid: 's' }, 10);
  await sessions.upsert('long', { uid: 'l' }, 86_400);
  await sessions.upsert('forever', { uid: 'f' });
  now = new Date('2026-11-22T12:00:11Z');
  t.true((await sweepExpiredOidcModels(db.knex, clock)) >= 1);
  const left = await db.knex('oidc_models').where({ kind: 'Session' }).pluck('id');
  t.deepEqual(left.sort(), ['forever', 'long']);
});

test.serial('client secrets are sealed at rest; dynamic clients expire after 30 days unless a token exchange extends them', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const clients = adapter('Client');
  await clients.upsert('dyn-1', { client_id: 'dyn-1', client_secret: 'plain-secret-value', redirect_uris: ['https://a.example/cb'] });
  await clients.upsert('partner-1', { client_id: 'partner-1', client_secret: 'other-secret', partner_id: 'p1' });
  await adapter('RefreshToken').upsert('rt-dyn', { clientId: 'dyn-1', grantId: 'g-dyn' }, 90 * 24 * 3600);

  const raw = await db.knex('oidc_models').where({ kind: 'Client', id: 'dyn-1' }).first('payload');
  t.false(raw.payload.includes('plain-secret-value'), 'the secret is not stored in plain text');
  t.is((await clients.find('dyn-1'))?.client_secret, 'plain-secret-value');

  now = new Date('2026-12-15T10:00:00Z');
  await extendDynamicClient(db.knex, clock, 'dyn-1');
  now = new Date('2027-01-10T10:00:00Z');
  t.truthy(await clients.find('dyn-1'), 'extended on 15 December: alive until 14 January');
  now = new Date('2027-01-15T10:00:00Z');
  t.is(await clients.find('dyn-1'), undefined, 'expired 30 days after the last exchange');
  t.truthy(await clients.find('partner-1'), 'partner clients do not expire');
  await extendDynamicClient(db.knex, clock, 'dyn-1');
  t.is(await clients.find('dyn-1'), undefined, 'an expired registration is not revived');

  await sweepExpiredOidcModels(db.knex, clock);
  t.is(await adapter('RefreshToken').find('rt-dyn'), undefined, "the expired client's refresh tokens are swept with it");
  t.is(await db.knex('oidc_models').where({ id: 'dyn-1' }).first(), undefined);
});

test.serial('one grant per traveler and client: a second one for the same pair is refused by the database', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const grants = adapter('Grant');
  await grants.upsert('grant-pair-1', { accountId: 'acc-1', clientId: 'client-pair' }, 3600);
  await grants.upsert('grant-pair-1', { accountId: 'acc-1', clientId: 'client-pair', openid: { scope: 'openid' } }, 3600);
  const error = await t.throwsAsync(grants.upsert('grant-pair-2', { accountId: 'acc-1', clientId: 'client-pair' }, 3600));
  t.is((error as { code?: string }).code, '23505');
  await t.notThrowsAsync(grants.upsert('grant-pair-3', { accountId: 'acc-2', clientId: 'client-pair' }, 3600));
});
