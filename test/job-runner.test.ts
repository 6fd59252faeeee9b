/**
 * The durable job runner (issue 26) on the real PostgreSQL, with two runners standing for two instances:
 * a singleton job is never run by both at once; a periodic job runs once per slot whichever instances
 * are up; a job enqueued in a transaction exists only if it commits; and jobs survive a restart of every
 * instance: a hold's lapse, due while none ran, is done once after they come back.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import type { Knex } from 'knex';
import { openDatabase, type Database } from '../core/db/database.js';
import type { JobDefinition } from '../core/jobs.js';
import { createLogger } from '../core/logger.js';
import { JobRunner } from '../jobs/job-runner.js';
import { book, booker, prepareBooking } from './helpers/bookings.js';
import { intentsOf } from './helpers/booking-records.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import { jsonOf } from './helpers/http.js';
import { startService, uniquePrefix } from './helpers/service.js';

let database: TestDatabase;
let db: Database;
const runners: JobRunner[] = [];

test.before(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 10 });
});

test.after.always(async () => {
  await Promise.all(runners.map((runner) => runner.stop()));
  await db?.close();
  await database?.drop();
});

/** A runner, as one instance has it, started with `definitions`. */
async function instance(definitions: JobDefinition[]): Promise<JobRunner> {
  const runner = new JobRunner(db.knex, createLogger('silent'), { pollSeconds: 0.5 });
  runners.push(runner);
  await runner.install(definitions);
  await runner.start(definitions);
  return runner;
}

/** Each run's [start, end], as a job of `name` records it, taking `ms`. */
function timedJob(name: string, ms: number, options: Partial<JobDefinition> = {}): { definition: JobDefinition; runs: [number, number, string][] } {
  const runs: [number, number, string][] = [];
  return {
    runs,
    definition: {
      name,
      timeoutSeconds: 30,
      ...options,
      run: async (data) => {
        const started = Date.now();
        await sleep(ms);
        runs.push([started, Date.now(), String(data.label ?? '')]);
      },
    },
  };
}

function overlaps(runs: [number, number, string][]): boolean {
  const sorted = [...runs].sort((a, b) => a[0] - b[0]);
  return sorted.some((run, index) => index > 0 && run[0] < (sorted[index - 1] as [number, number, string])[1]);
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not in time');
    await sleep(50);
  }
}

test.serial('two instances never run the same singleton job at once; without the singleton they do', async (t) => {
  const name = `singleton-${randomUUID().slice(0, 8)}`;
  // Each instance would take several at once (concurrency 3) were it not a singleton.
  const single = [timedJob(name, 300, { singleton: true, concurrency: 3 }), timedJob(name, 300, { singleton: true, concurrency: 3 })];
  await instance([single[0]!.definition]);
  await instance([single[1]!.definition]);
  await runners[0]!.enqueue(db.knex, Array.from({ length: 6 }, (_, index) => ({ name, data: { label: String(index) } })));
  await until(() => single[0]!.runs.length + single[1]!.runs.length === 6);
  const runs = [...single[0]!.runs, ...single[1]!.runs];
  t.deepEqual(runs.map((run) => run[2]).sort(), ['0', '1', '2', '3', '4', '5'], 'each job ran once');
  t.false(overlaps(runs), JSON.stringify(runs));

  // The control: the same jobs, not singletons, do overlap (the test above could fail).
  const free = `free-${randomUUID().slice(0, 8)}`;
  const loose = [timedJob(free, 300, { concurrency: 3 }), timedJob(free, 300, { concurrency: 3 })];
  await instance([loose[0]!.definition]);
  await instance([loose[1]!.definition]);
  await runners[0]!.enqueue(db.knex, Array.from({ length: 6 }, (_, index) => ({ name: free, data: { label: String(index) } })));
  await until(() => loose[0]!.runs.length + loose[1]!.runs.length === 6);
  t.true(overlaps([...loose[0]!.runs, ...loose[1]!.runs]));
});

test.serial('a periodic job runs once a slot, whichever instances are up', async (t) => {
  const name = `periodic-${randomUUID().slice(0, 8)}`;
  const first = timedJob(name, 10, { every: { seconds: 1 } });
  const second = timedJob(name, 10, { every: { seconds: 1 } });
  await instance([first.definition]);
  await instance([second.definition]);
  await sleep(4500);
  const runs = first.runs.length + second.runs.length;
  // Each instance sends the next run as it runs one: without the slots, two chains would run twice as often.
  t.true(runs >= 3 && runs <= 6, `${runs} runs in 4.5 s, one a second`);
  const jobs = await db.knex('pgboss.job').where({ name }).select('singleton_on');
  t.is(new Set(jobs.map((job: { singleton_on: string }) => job.singleton_on)).size, jobs.length, 'one job a slot');
});

test.serial('a job enqueued in a transaction exists only if the transaction commits', async (t) => {
  const name = `transactional-${randomUUID().slice(0, 8)}`;
  const job = timedJob(name, 1);
  const runner = await instance([job.definition]);
  await t.throwsAsync(
    db.knex.transaction(async (trx: Knex.Transaction) => {
      await runner.enqueue(trx, [{ name, data: { label: 'rolled back' } }]);
      throw new Error('roll back');
    }),
  );
  await db.knex.transaction(async (trx: Knex.Transaction) => runner.enqueue(trx, [{ name, data: { label: 'committed' } }]));
  // pg-boss drops a job of a queue it does not know: the runner refuses it instead, and the change with it.
  const unknown = await t.throwsAsync(runner.enqueue(db.knex, [{ name: `never-installed-${randomUUID().slice(0, 8)}`, data: {} }]));
  t.regex(unknown?.message ?? '', /took 0 of 1 jobs/);
  await until(() => job.runs.length >= 1);
  await sleep(1500);
  t.deepEqual(job.runs.map((run) => run[2]), ['committed']);
});

test.serial('jobs survive a restart of every instance: a hold lapse due while none ran is done once after', async (t) => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  const first = await startService({ JOB_POLL_SECONDS: '0.5' }, { database, rateLimitKeyPrefix: uniquePrefix() });
  await first.service.startBackgroundWork();
  const ada = await booker(first);
  const { body } = await prepareBooking(first, ada, 'provider_b', 'nonRefundable', { type: 'hold' });
  const held = await jsonOf(await book(first, ada, 'provider_b', body));
  t.is(held.booking.status, 'booking_created');
  // A short hold: its deadline, and its lapse job with it, two seconds away (the provider's are hours).
  const deadline = new Date(Date.now() + 2000);
  await first.service.db.knex('bookings').where({ id: held.booking.id }).update({ payment_required_by: deadline });
  await first.service.db.knex('pgboss.job').where({ name: 'booking-hold-lapse' }).whereRaw("data->>'booking_id' = ?", [held.booking.id]).update({ start_after: deadline });
  await first.close();

  // Every instance is down past the deadline; then two come back.
  await sleep(3000);
  t.is((await db.knex('bookings').where({ id: held.booking.id }).first()).status, 'booking_created', 'nothing ran while every instance was down');
  const [a, b] = await Promise.all([0, 1].map(() => startService({ JOB_POLL_SECONDS: '0.5' }, { database, rateLimitKeyPrefix: uniquePrefix() })));
  try {
    await Promise.all([a!.service.startBackgroundWork(), b!.service.startBackgroundWork()]);
    const deadlineOver = Date.now() + 15_000;
    while ((await db.knex('bookings').where({ id: held.booking.id }).first()).status !== 'cancelled') {
      if (Date.now() > deadlineOver) return t.fail('the lapse did not run after the restart');
      await sleep(200);
    }
    const row = await db.knex('bookings').where({ id: held.booking.id }).first();
    t.is(row.cancellation_reason, 'hold_lapsed');
    const cancellations = await db.knex('booking_events').where({ booking_id: held.booking.id, status: 'cancelled' });
    t.is(cancellations.length, 1, 'let go once');
    t.deepEqual((await intentsOf(a!, held.booking.id)).map((intent) => intent.status), ['canceled'], 'the authorization voided once');
    const [lapse] = await db.knex('pgboss.job').where({ name: 'booking-hold-lapse' }).whereRaw("data->>'booking_id' = ?", [held.booking.id]);
    t.is(lapse.state, 'completed');
  } finally {
    await Promise.all([a?.close(), b?.close()]);
  }
});
