/**
 * Recording an event for a partner (decisions §14): written in the caller's transaction, the one of the
 * change that causes it, with a delivery to each endpoint subscribed to it and a job for each delivery,
 * so that the change, its event and their deliveries commit or vanish together.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { JobQueue } from '../jobs.js';
import * as store from './store.js';
import type { WebhookEventType } from './schemas.js';

export const DELIVER_JOB = 'webhook-deliver';

export interface PartnerEvent {
  partnerId: string;
  type: WebhookEventType | 'webhook.test';
  data: unknown;
  at: Date;
}

export class WebhookEvents {
  constructor(private readonly jobs: JobQueue) {}

  /** Records `event` in `trx`, with a delivery and its job for each endpoint that listens (often none). */
  async record(trx: Knex.Transaction, event: PartnerEvent): Promise<void> {
    const deliveryIds = await store.insertEvent(trx, { id: newEventId(), ...event });
    await this.jobs.enqueue(trx, deliveryIds.map((id) => deliveryJob(id, 0)));
  }
}

/** The job of a delivery's attempt on the schedule: 0 the first, then each retry's. */
export function deliveryJob(deliveryId: string, attempt: number, startAfter?: Date) {
  return { name: DELIVER_JOB, data: { delivery_id: deliveryId, attempt }, ...(startAfter ? { startAfter } : {}) };
}

/** `evt_` and 128 random bits in hex: the `webhook-id` of every attempt of the event's deliveries. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString('hex')}`;
}
