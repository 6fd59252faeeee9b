/**
 * What the composition root hands every capability module, and what a module hands back. A module
 * (accounts, offers, cards, ...) builds its services from the shared pieces and returns what it adds to
 * the service: REST routes, MCP tools and the services they call, sandboxes of its outside systems, and
 * periodic jobs. The root lists the modules and mounts what they return (ARCHITECTURE.md).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { Redis } from 'ioredis';
import type { SigningKeys } from '../authz/keys.js';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/crypto/secret-box.js';
import type { Database } from '../core/db/database.js';
import type { JobDefinition, JobQueue } from '../core/jobs.js';
import type { Logger } from '../core/logger.js';
import type { Mailer, SmsSender } from '../core/ports.js';
import type { UserService } from '../core/users/service.js';
import type { Tool, ToolServices } from '../mcp/tool.js';
import type { DocumentedOperation, Route } from '../rest/route-table.js';

/** Built once by the root, shared by every module. */
export interface SharedPieces {
  config: Config;
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Seals secrets at rest (decisions §1). */
  secrets: SecretBox;
  keys: SigningKeys;
  /** Shared counters of rate limits; undefined: counted in this process. */
  redis: Redis | undefined;
  /** Prefix of rate-limit keys in Redis (tests isolate their runs with it). */
  rateLimitKeyPrefix: string | undefined;
  users: UserService;
  /** The durable job queue on PostgreSQL: jobs that follow a change are enqueued in its transaction. */
  jobs: JobQueue;
  mailer: Mailer;
  sms: SmsSender;
}

/** An application served on a port of its own (an outside system's sandbox that must have its own origin). */
export interface OwnPortApp {
  /** For the log line and errors: `card vault sandbox`. */
  name: string;
  /** The configuration variable that sets the port, named in a start-up error. */
  portVariable: string;
  port: number;
  app: Koa;
}

/** A sweep: deletes what expired (or finishes what was left half-done) and says how many rows. */
export type Sweeper = () => Promise<number>;

export interface Capability {
  routes?: Route[];
  /** Operations another door serves (the authorization server, the tool endpoint), for the reference. */
  documented?: DocumentedOperation[];
  tools?: Tool[];
  toolServices?: Partial<ToolServices>;
  /** Routers of sandboxes served beside the API in sandbox mode. */
  sandboxes?: Router[];
  ownPortApps?: OwnPortApp[];
  /** Hosted pages with their own routers, served on AUTH_URL beside the authorization server's (the checkout). */
  hostedPages?: Middleware[];
  /** Run together by one periodic job, one instance at a time. */
  sweepers?: Sweeper[];
  /**
   * Finishes or compensates what a process that died left half-done (bookings mid-saga): run when the
   * service starts listening (its sandboxes must answer), then every few seconds by a periodic job.
   */
  recoveries?: Sweeper[];
  /** Background jobs (ARCHITECTURE.md): what they do, how often or after what, how many at once. */
  jobs?: JobDefinition[];
}
