/**
 * Webhooks (decisions §14): partners' endpoints and their REST routes, the recorder other capabilities
 * write events with (bookings, checkout), and the job that delivers each event, over HTTP fenced in to
 * public addresses (loopback too in the sandbox).
 */
import type { LookupAddress } from 'node:dns';
import type { JobDefinition } from '../core/jobs.js';
import { RETRY_SCHEDULE_SECONDS, WebhookDeliverer } from '../core/webhooks/delivery.js';
import { DELIVER_JOB, WebhookEvents } from '../core/webhooks/events.js';
import { WebhookService } from '../core/webhooks/service.js';
import { HttpWebhookTransport } from '../providers/webhooks/http-transport.js';
import { webhookRoutes } from '../rest/routes/webhooks.js';
import type { Capability, SharedPieces } from './capability.js';

export interface WebhookOptions {
  /** How endpoint host names are resolved (tests answer for names of their own). */
  resolveHost?: ((hostname: string) => Promise<LookupAddress[]>) | undefined;
}

export function webhooksModule(shared: SharedPieces, options: WebhookOptions = {}): Capability & { events: WebhookEvents } {
  const { config, db, clock, secrets, jobs } = shared;
  const transport = new HttpWebhookTransport({ sandbox: config.sandbox, ...(options.resolveHost ? { resolve: options.resolveHost } : {}) });
  const deliverer = new WebhookDeliverer({ db: db.knex, clock, secrets, transport, jobs, retrySeconds: config.webhookRetrySeconds ?? RETRY_SCHEDULE_SECONDS });
  const webhooks = new WebhookService({ db: db.knex, clock, secrets, transport, deliverer });
  const deliver: JobDefinition = {
    name: DELIVER_JOB,
    // Receivers may take up to 15 s each: four workers an instance, so that one slow endpoint holds up no other.
    concurrency: 4,
    // An attempt takes at most the 15 s of its POST and two writes: one still running after 30 s was on
    // an instance that died, and is tried again.
    timeoutSeconds: 30,
    retries: 5,
    retryDelaySeconds: 5,
    run: async (data) => {
      await deliverer.attempt(String(data.delivery_id), 'automatic', Number(data.attempt ?? 0));
    },
  };
  return {
    events: new WebhookEvents(jobs),
    routes: webhookRoutes({ webhooks, baseUrl: config.baseUrl }),
    jobs: [deliver],
    sweepers: [() => webhooks.sweepExpired()],
  };
}
