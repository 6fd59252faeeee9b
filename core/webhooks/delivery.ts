/**
 * One attempt to deliver an event to an endpoint (decisions §14): signed per Standard Webhooks, POSTed
 * through the transport (which checks the endpoint's addresses again), and its outcome recorded with the
 * next step in one transaction: the delivery done, its next attempt enqueued on the schedule, or given
 * up; the endpoint disabled when it answered 410, or after five days of failures.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { JobQueue } from '../jobs.js';
import type { WebhookPostResult, WebhookTransport } from '../ports.js';
import { deliveryJob } from './events.js';
import * as store from './store.js';
import type { AttemptRow, DeliveryRow, DeliveryWork } from './store.js';

/** The retries after a failed first attempt (decisions §14): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** An endpoint whose deliveries have all failed this long is disabled. */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

export interface DeliveryDeps {
  db: Knex;
  clock: Clock;
  secrets: SecretBox;
  transport: WebhookTransport;
  jobs: JobQueue;
  /** The retry schedule (tests shorten it). */
  retrySeconds: readonly number[];
}

export type AttemptTrigger = AttemptRow['trigger'];

export function endpointSecretContext(endpointId: string): string {
  return `webhook_endpoints:${endpointId}`;
}

export class WebhookDeliverer {
  constructor(private readonly deps: DeliveryDeps) {}

  /**
   * Attempts the delivery. `attempt` is its place on the schedule (0 the first) for an automatic one,
   * which does nothing once the delivery is settled (a partner's retry succeeded first). Undefined when
   * the delivery is gone (its endpoint deleted).
   */
  async attempt(deliveryId: string, trigger: AttemptTrigger, attempt = 0): Promise<DeliveryRow | undefined> {
    const work = await store.deliveryWork(this.deps.db, deliveryId);
    if (!work) return undefined;
    const { delivery, endpoint } = work;
    if (trigger === 'automatic' && delivery.status !== 'pending') return delivery;
    if (endpoint.status === 'disabled') {
      if (delivery.status !== 'pending') return delivery;
      const changes = { status: 'failed' as const, next_attempt_at: null, last_error: 'the endpoint is disabled', updated_at: this.deps.clock.now() };
      await store.updateDelivery(this.deps.db, delivery.id, changes);
      return { ...delivery, ...changes };
    }
    const sentAt = this.deps.clock.now();
    const started = performance.now();
    const result = await this.#post(work, sentAt);
    return this.#record(work, { trigger, attempt, sentAt, result, durationMs: Math.round(performance.now() - started) });
  }

  async #post({ endpoint, event }: DeliveryWork, sentAt: Date): Promise<WebhookPostResult> {
    // The body's timestamp is the event's; webhook-timestamp is this attempt's (receivers refuse old ones).
    const body = JSON.stringify({ type: event.type, timestamp: event.created_at.toISOString(), data: event.data });
    const secret = this.deps.secrets.open(endpoint.secret_sealed, endpointSecretContext(endpoint.id));
    return this.deps.transport.post(endpoint.url, {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(event.id, sentAt, body),
    }, body);
  }

  async #record(
    { delivery, endpoint }: DeliveryWork,
    outcome: { trigger: AttemptTrigger; attempt: number; sentAt: Date; result: WebhookPostResult; durationMs: number },
  ): Promise<DeliveryRow | undefined> {
    const { trigger, result, sentAt } = outcome;
    const status = result.status;
    const succeeded = status !== null && status >= 200 && status < 300;
    const error = succeeded ? null : (result.error ?? `the endpoint answered HTTP ${status}`);
    const now = this.deps.clock.now();
    const changes: Partial<DeliveryRow> = { last_status_code: status, last_error: error, updated_at: now };
    const endpointChanges: Partial<store.EndpointRow> = {};
    let next: Date | undefined;
    if (succeeded) {
      Object.assign(changes, { status: 'succeeded', delivered_at: now, next_attempt_at: null, last_error: null });
      if (endpoint.failing_since) endpointChanges.failing_since = null;
    } else {
      const failingSince = endpoint.failing_since ?? sentAt;
      if (!endpoint.failing_since) endpointChanges.failing_since = failingSince;
      const disabledReason = status === 410 ? 'gone' : now.getTime() - failingSince.getTime() >= FAILING_DISABLES_AFTER_MS ? 'failing' : null;
      if (disabledReason) Object.assign(endpointChanges, { status: 'disabled', disabled_reason: disabledReason, disabled_at: now });
      const delay = this.deps.retrySeconds[outcome.attempt];
      if (trigger === 'automatic' && !disabledReason && delay !== undefined) {
        next = new Date(now.getTime() + delay * 1000);
        Object.assign(changes, { status: 'pending', next_attempt_at: next });
      } else if (trigger !== 'retry' || disabledReason) {
        // A retry the partner asked for leaves the schedule as it was; the schedule's last attempt, a
        // test and an endpoint now disabled end the delivery.
        Object.assign(changes, { status: 'failed', next_attempt_at: null });
      }
    }
    const { attempt_count: _count, ...rest } = changes;
    const recorded = await this.deps.db.transaction(async (trx) => {
      await store.insertAttempt(trx, { id: randomUUID(), delivery_id: delivery.id, trigger, status_code: status, error, duration_ms: outcome.durationMs, attempted_at: sentAt });
      // An automatic attempt moves only a delivery still pending: a partner's retry may have settled it meanwhile.
      const moved = await store.recordOutcome(trx, delivery.id, rest, { onlyIfPending: trigger === 'automatic' });
      if (!moved) return undefined;
      if (Object.keys(endpointChanges).length > 0) await store.updateEndpoint(trx, endpoint.id, { ...endpointChanges, updated_at: now });
      if (next) await this.deps.jobs.enqueue(trx, [deliveryJob(delivery.id, outcome.attempt + 1, next)]);
      return moved;
    });
    return recorded ?? (await store.deliveryWork(this.deps.db, delivery.id))?.delivery;
  }
}
