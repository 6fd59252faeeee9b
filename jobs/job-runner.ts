/**
 * The job runner every instance shares: pg-boss on the service's own PostgreSQL (the embedded one too).
 * pg-boss keeps jobs in its own schema (`pgboss`, created and upgraded by pg-boss under its advisory lock),
 * takes each with SKIP LOCKED so that one instance runs it, retries failures with backoff, fails a try
 * whose instance died once it times out, and sets aside (dead letters) what keeps failing. Why pg-boss
 * 10: it is the line that supports Node.js 20, which the machines here still run (11 and 12 need 22).
 *
 * It reaches the database through the service's knex pool, not a pool of its own: on the embedded
 * database there is one connection, and a job enqueued in a transaction must use that transaction's
 * connection. pg-boss sends its statements as they are (multi-statement texts included), on a pooled
 * connection taken for each.
 */
import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import type { JobDefinition, JobQueue, JobRequest } from '../core/jobs.js';
import type { Logger } from '../core/logger.js';

/** Where jobs that failed every try are kept, for an operator to read (nothing works this queue). */
const DEAD_LETTERS = 'dead-letters';

export interface JobRunnerOptions {
  /** How often an idle instance asks for new jobs of each kind (seconds, at least 0.5). */
  pollSeconds: number;
  /** How often the runner's upkeep runs: timed-out tries failed, old jobs archived (seconds; default 15). */
  upkeepSeconds?: number;
}

interface PgConnection {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * pg-boss's view of the database: a statement run on a connection of `db` (a transaction's own, given
 * one). Once `closed()` says the runner stopped, pg-boss's late calls (it completes and fails jobs
 * without awaiting them) get no rows instead of reaching a pool that is closing: a job cut short so is
 * taken again by another instance once its timeout passes.
 */
function throughKnex(db: Knex | Knex.Transaction, closed: () => boolean = () => false): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (closed()) return { rows: [] };
      const connection = (await db.client.acquireConnection()) as PgConnection;
      try {
        return await connection.query(text, values);
      } finally {
        await db.client.releaseConnection(connection);
      }
    },
  };
}

/**
 * Creates pg-boss's schema, or brings it up to this version of pg-boss, under pg-boss's advisory lock (a
 * transaction's, so a pooler in transaction mode is no obstacle): instances starting together take turns.
 * Runs nothing in the background.
 */
export async function installJobSchema(knex: Knex): Promise<void> {
  const installer = new PgBoss({ db: throughKnex(knex), migrate: true, supervise: false, schedule: false });
  await installer.start();
  await installer.stop({ graceful: false, close: false });
}

export class JobRunner implements JobQueue {
  readonly #knex: Knex;
  readonly #boss: PgBoss;
  readonly #logger: Logger;
  readonly #options: JobRunnerOptions;
  /** The local workers of each job name, to wake when a job of that name is enqueued here. */
  readonly #workers = new Map<string, string[]>();
  #starting: Promise<void> | undefined;
  #stopped = false;

  constructor(knex: Knex, logger: Logger, options: JobRunnerOptions) {
    this.#knex = knex;
    this.#logger = logger;
    this.#options = options;
    this.#boss = new PgBoss({
      db: throughKnex(knex, () => this.#stopped),
      migrate: true,
      supervise: true,
      schedule: true,
      // A try whose instance died is failed (and tried again) at the first upkeep past its timeout.
      maintenanceIntervalSeconds: options.upkeepSeconds ?? 15,
      // Completed jobs are kept a day (for an operator to read), then archived, then deleted a week later.
      archiveCompletedAfterSeconds: 24 * 60 * 60,
      deleteAfterDays: 7,
    });
    this.#boss.on('error', (error: Error) => this.#logger.warn({ err: error }, 'job runner error'));
  }

  /**
   * Creates pg-boss's schema (or brings it up to this version of pg-boss) and the queues of
   * `definitions` as declared: before the service takes requests, whose changes enqueue jobs (pg-boss
   * drops a job whose queue does not exist). One read when nothing changed.
   */
  async install(definitions: JobDefinition[]): Promise<void> {
    await installJobSchema(this.#knex);
    const manager = new PgBoss({ db: throughKnex(this.#knex), migrate: false, supervise: false, schedule: false });
    const existing = new Map((await manager.getQueues()).map((queue) => [queue.name, queue]));
    for (const queue of [{ name: DEAD_LETTERS, policy: 'standard' as const }, ...definitions.map(queueOf)]) {
      const found = existing.get(queue.name);
      if (!found) await manager.createQueue(queue.name, queue);
      else if (differs(found, queue)) await manager.updateQueue(queue.name, queue);
    }
  }

  /** Starts a worker for each job and the periodic schedules. Call once the service listens: jobs call the sandboxes this process serves. */
  async start(definitions: JobDefinition[]): Promise<void> {
    this.#starting ??= this.#start(definitions);
    return this.#starting;
  }

  async #start(definitions: JobDefinition[]): Promise<void> {
    await this.#boss.start();
    for (const definition of definitions) {
      // Several workers of one job each take one at a time: a slow one holds up no other.
      const ids: string[] = [];
      for (let worker = 0; worker < (definition.concurrency ?? 1); worker++) {
        ids.push(await this.#boss.work<object>(definition.name, { pollingIntervalSeconds: this.#options.pollSeconds, batchSize: 1 }, ([job]) => this.#run(definition, job)));
      }
      this.#workers.set(definition.name, ids);
      await this.#schedule(definition);
    }
  }

  async enqueue(db: Knex | Knex.Transaction, jobs: JobRequest[]): Promise<void> {
    if (jobs.length === 0) return;
    // pg-boss inserts nothing for a queue it does not know, and says nothing: the rows are counted here,
    // so that the change does not commit without its jobs.
    const through = throughKnex(db);
    let inserted = 0;
    const counting: PgBoss.Db = {
      async executeSql(text, values) {
        const result = (await through.executeSql(text, values)) as { rows: unknown[]; rowCount?: number | null };
        inserted += result.rowCount ?? 0;
        return result;
      },
    };
    await this.#boss.insert(
      jobs.map((job) => ({ name: job.name, data: job.data, ...(job.startAfter ? { startAfter: job.startAfter.toISOString() } : {}) })),
      { db: counting },
    );
    if (inserted !== jobs.length) {
      throw new Error(`the job queue took ${inserted} of ${jobs.length} jobs (${[...new Set(jobs.map((job) => job.name))].join(', ')}): is every queue installed?`);
    }
    // Woken once the jobs can be seen: at the commit of the transaction they were enqueued in.
    const due = jobs.filter((job) => !job.startAfter || job.startAfter.getTime() <= Date.now()).map((job) => job.name);
    if (due.length === 0) return;
    const committed = db.isTransaction ? (db as Knex.Transaction).executionPromise : Promise.resolve();
    committed.then(
      () => this.#wake(due),
      () => undefined,
    );
  }

  /**
   * Stops taking jobs and waits up to `timeoutMs` for the running ones to end; one still running then is
   * left to its timeout, after which another instance takes it again. A start still under way (a stop
   * soon after the process started) is let finish first, so that no worker starts after it.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.#starting || this.#stopped) return;
    await this.#starting.catch(() => undefined);
    try {
      await this.#boss.stop({ graceful: true, timeout: timeoutMs, close: false, wait: true });
    } finally {
      this.#stopped = true;
    }
  }

  /** Runs one job; a failure is logged here and handed to pg-boss, which tries it again later. */
  async #run(definition: JobDefinition, job: PgBoss.Job<object> | undefined): Promise<void> {
    if (!job) return;
    await this.#periodicNext(definition).catch((error: unknown) => this.#logger.warn({ err: error, job: definition.name }, 'the next run of a periodic job could not be enqueued'));
    try {
      await definition.run(job.data as Record<string, unknown>);
    } catch (error) {
      this.#logger.warn({ err: error, job: definition.name, job_id: job.id }, 'job failed: it is tried again later');
      // The detail is in the log: the jobs table keeps no error text (it could carry what a log may not).
      throw new Error('failed: see the service log for this job id');
    }
  }

  /** The local workers of `names` look for work now instead of at their next poll. */
  #wake(names: string[]): void {
    for (const name of new Set(names)) {
      const id = this.#workers.get(name)?.[0];
      if (id) this.#boss.notifyWorker(id);
    }
  }

  async #schedule(definition: JobDefinition): Promise<void> {
    const every = definition.every;
    if (!every) {
      await this.#boss.unschedule(definition.name);
    } else if ('cron' in every) {
      await this.#boss.schedule(definition.name, every.cron, {}, { tz: 'UTC' });
    } else {
      // The chain is started again each minute should the instance carrying it have died mid-run; the
      // slot keeps that from doubling it.
      await this.#boss.schedule(definition.name, '* * * * *', {}, { tz: 'UTC', singletonSeconds: every.seconds, singletonNextSlot: true });
      await this.#periodicNext(definition);
    }
  }

  /**
   * A job run every few seconds enqueues its next run as it starts, in the next slot of that many
   * seconds: one job per slot whichever instances send it, and the chain goes on if this one dies.
   */
  async #periodicNext(definition: JobDefinition): Promise<void> {
    const every = definition.every;
    if (!every || !('seconds' in every)) return;
    await this.#boss.send(definition.name, {}, { singletonSeconds: every.seconds, singletonNextSlot: true });
  }
}

/** pg-boss's queue of a declared job. */
function queueOf(definition: JobDefinition): PgBoss.Queue & { name: string } {
  return {
    name: definition.name,
    policy: definition.singleton ? 'singleton' : 'standard',
    retryLimit: definition.retries ?? 3,
    retryDelay: definition.retryDelaySeconds ?? 30,
    retryBackoff: true,
    expireInSeconds: definition.timeoutSeconds,
    deadLetter: DEAD_LETTERS,
  };
}

/** Whether the stored queue's settings are not those declared. */
function differs(stored: PgBoss.QueueResult, declared: PgBoss.Queue): boolean {
  const row = stored as unknown as Record<string, unknown>;
  const want: Record<string, unknown> = { policy: declared.policy, retryLimit: declared.retryLimit, retryDelay: declared.retryDelay, retryBackoff: declared.retryBackoff, expireInSeconds: declared.expireInSeconds, deadLetter: declared.deadLetter };
  return Object.entries(want).some(([key, value]) => value !== undefined && row[key] !== value);
}
