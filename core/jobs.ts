/**
 * Durable background work (ARCHITECTURE.md, "The composition root"): a capability names its jobs, and the
 * one job runner every instance shares through PostgreSQL runs them. A job that follows a state change is
 * enqueued in the same transaction as that change, so that it exists if and only if the change does.
 */
import type { Knex } from 'knex';

/** A job to run once, on whichever instance takes it first. */
export interface JobRequest {
  /** The job's name, as a JobDefinition declares it. */
  name: string;
  /** What the job needs, as JSON: ids, never secrets (the jobs table is not encrypted). */
  data: Record<string, unknown>;
  /** Not before this time (a hold's deadline, a retry's schedule). */
  startAfter?: Date;
}

/** Enqueues jobs. */
export interface JobQueue {
  /**
   * Enqueues `jobs` through `db`: given a transaction, they exist only if it commits, and they are
   * started as soon as it does.
   */
  enqueue(db: Knex | Knex.Transaction, jobs: JobRequest[]): Promise<void>;
}

/** A job a capability declares. */
export interface JobDefinition {
  name: string;
  /** Does the work. Throwing fails this try: it is tried again, up to `retries` times, then set aside. */
  run(data: Record<string, unknown>): Promise<void>;
  /** Only one runs at a time across every instance (others wait their turn). */
  singleton?: boolean;
  /** Tries again after a failed one, with growing delays from `retryDelaySeconds` (default 3 more tries, from 30 s). */
  retries?: number;
  retryDelaySeconds?: number;
  /** How many of these one instance runs side by side (default 1). */
  concurrency?: number;
  /** A try still running after this long is counted failed (its instance died) and tried again. */
  timeoutSeconds: number;
  /**
   * Periodic: a cron expression (UTC, minute resolution; one run per slot whichever instances are up), or
   * every so many seconds (under a minute: each run enqueues the next, and a cron each minute starts
   * the chain again should it break).
   */
  every?: { cron: string } | { seconds: number };
}
