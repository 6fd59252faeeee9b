/**
 * The default a newcomer runs: the embedded PostgreSQL, one connection. PGlite keeps one backend session
 * for every client connection, so a second `pg` connection finds the named statements, settings and locks
 * of the first one: after the pool dropped its idle connection, reading a traveler answered 500
 * (`prepared statement "users_by_id" already exists`) and every sign-in ended on an error page.
 * These tests run on the embedded database on purpose: the real PostgreSQL gives every connection a
 * fresh session and cannot show this class of failure.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import type pg from 'pg';
import { book, booker, prepareBooking } from './helpers/bookings.js';
import { asPartner } from './helpers/cards.js';
import { jsonOf } from './helpers/http.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, uniqueEmail, userIdOf } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

const IDLE_TIMEOUT_MS = 300;

let running: RunningService;

test.before(async () => {
  running = await startService({}, { embedded: true, databaseIdleTimeoutMs: IDLE_TIMEOUT_MS });
});
test.after.always(async () => {
  await running?.close();
});

async function signInAndReadTraveler(t: ExecutionContext, partner: Awaited<ReturnType<typeof createPartnerClient>>, email: string) {
  const config = await clientFor(running, partner.clientId, oauth.ClientSecretBasic(partner.clientSecret));
  const { tokens } = await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', traveler: { email } });
  const response = await fetch(`${running.url}/v1/users/me`, { headers: { 'x-api-key': partner.apiKey, authorization: `Bearer ${tokens.access_token}` } });
  t.is(response.status, 200);
  const user = await jsonOf(response);
  t.is(user.id, userIdOf(tokens.access_token));
  t.is(user.email, email);
}

test.serial('after the pool sat idle past its timeout, a traveler still signs in and is read', async (t) => {
  t.true(running.service.db.embedded);
  const partner = await createPartnerClient(running, 'Idle Air');
  const email = uniqueEmail();
  await signInAndReadTraveler(t, partner, email);
  // Past the pool's idle timeout (and its reaping interval): a pool that drops idle connections would
  // open a new one on the next query.
  await sleep(IDLE_TIMEOUT_MS + 1500);
  await signInAndReadTraveler(t, partner, email);
  await signInAndReadTraveler(t, partner, uniqueEmail());
});

test.serial('a connection that is lost and opened again finds a clean session', async (t) => {
  const { knex } = running.service.db;
  // What a dropped connection leaves in PGlite's one session: a named statement, a setting, an advisory
  // lock, a temporary table. The next connection must not trip over any of them.
  const connection = (await knex.client.acquireConnection()) as pg.Client;
  await connection.query({ name: 'leftover_statement', text: 'select 1', values: [] });
  await connection.query("set statement_timeout = '1ms'");
  await connection.query('select pg_advisory_lock(4242)');
  await connection.query('create temporary table leftover (id int)');
  await connection.end();
  await knex.client.releaseConnection(connection);

  const partner = await createPartnerClient(running, 'Reconnected Air');
  await signInAndReadTraveler(t, partner, uniqueEmail());
  const { rows } = await knex.raw("select current_setting('statement_timeout') as timeout, (select count(*) from pg_locks where locktype = 'advisory') as locks, to_regclass('pg_temp.leftover') as leftover");
  t.deepEqual(rows[0], { timeout: '0', locks: 0, leftover: null });
});

test.serial('after the pool sat idle, a traveler books an offer with a saved card and reads the booking back', async (t) => {
  const traveler = await booker(running);
  await sleep(IDLE_TIMEOUT_MS + 1500);
  // The saga's steps, the repeat's wait and the processor's and provider's sandboxes all share the one connection.
  const { body } = await prepareBooking(running, traveler, 'provider_b');
  const created = await book(running, traveler, 'provider_b', body);
  const answer = await jsonOf(created);
  t.is(created.status, 201, JSON.stringify(answer));
  t.is(answer.status, 'confirmed');
  const repeat = await book(running, traveler, 'provider_b', body);
  t.is(repeat.status, 200);
  t.is((await jsonOf(repeat)).booking.id, answer.booking.id);
  await sleep(IDLE_TIMEOUT_MS + 1500);
  const trips = await jsonOf(await asPartner(running, traveler, '/v1/users/me/bookings'));
  t.deepEqual(trips.map((trip: { id: string }) => trip.id), [answer.booking.id]);
});
