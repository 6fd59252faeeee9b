/**
 * A partner's webhook endpoints (decisions §14): registered with the secret key, each with a signing
 * secret shown once; the delivery log; a delivery sent again (the same `webhook-id`); a test event.
 * Another partner's endpoint is the same 404 as an unknown one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import type { WebhookTransport } from '../ports.js';
import { endpointSecretContext, type WebhookDeliverer } from './delivery.js';
import { newEventId } from './events.js';
import { MAX_ENDPOINTS, TEST_EVENT_TYPE, type CreatedWebhookEndpoint, type CreateWebhookEndpointRequest, type WebhookDelivery, type WebhookEndpoint } from './schemas.js';
import * as store from './store.js';
import type { AttemptRow, DeliveryRow, EndpointRow } from './store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ATTEMPTS_SHOWN = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long events (and their deliveries' log) are kept. */
const EVENT_RETENTION_MS = 30 * DAY_MS;
/** A pending delivery this long past its due attempt has no job left to make it (the schedule's longest wait is 10 h). */
const STALE_DELIVERY_MS = 3 * DAY_MS;

export interface WebhookServiceDeps {
  db: Knex;
  clock: Clock;
  secrets: SecretBox;
  transport: WebhookTransport;
  deliverer: WebhookDeliverer;
}

export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  /** createWebhookEndpoint: checks the URL (its host's addresses too), then keeps the endpoint. */
  async create(partnerId: string, request: CreateWebhookEndpointRequest): Promise<CreatedWebhookEndpoint> {
    const repeated = request.events.find((type, index) => request.events.indexOf(type) !== index);
    if (repeated) throw new ValidationError([{ field: 'events', rule: 'unique', message: `${repeated} is listed twice: list each event type once` }]);
    const refusal = await this.deps.transport.refusal(request.url);
    if (refusal) throw new ValidationError([{ field: 'url', rule: 'webhook_url', message: refusal }]);
    const id = randomUUID();
    // Standard Webhooks: `whsec_` and the base64 of the key (here 32 random bytes).
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const now = this.deps.clock.now();
    const row: EndpointRow = {
      id,
      partner_id: partnerId,
      url: request.url,
      events: request.events,
      description: request.description ?? null,
      secret_sealed: this.deps.secrets.seal(secret, endpointSecretContext(id)),
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.db.transaction(async (trx) => {
      // Counted and inserted under the partner's lock: two registrations at once cannot pass the limit.
      await store.lockPartnerEndpoints(trx, partnerId);
      if ((await store.countEndpoints(trx, partnerId)) >= MAX_ENDPOINTS) {
        throw new UnprocessableError(`You have ${MAX_ENDPOINTS} webhook endpoints, the most a partner may have: delete one you no longer use first.`, 'webhook_endpoint_limit');
      }
      await store.insertEndpoint(trx, row);
    });
    return { ...presentEndpoint(row), secret };
  }

  /** The sweep: events past 30 days, and deliveries whose job was set aside (store.sweep). */
  async sweepExpired(): Promise<number> {
    const now = this.deps.clock.now();
    return store.sweep(this.deps.db, new Date(now.getTime() - EVENT_RETENTION_MS), new Date(now.getTime() - STALE_DELIVERY_MS), now);
  }

  async list(partnerId: string): Promise<WebhookEndpoint[]> {
    return (await store.endpointsOf(this.deps.db, partnerId)).map(presentEndpoint);
  }

  async get(partnerId: string, id: string): Promise<WebhookEndpoint> {
    return presentEndpoint(await this.#own(partnerId, id));
  }

  /** deleteWebhookEndpoint: its deliveries and their log go with it; nothing more is sent to it. */
  async delete(partnerId: string, id: string): Promise<void> {
    if (!UUID.test(id) || !(await store.deleteEndpoint(this.deps.db, partnerId, id))) throw endpointNotFound(id);
  }

  /** testWebhookEndpoint: a `webhook.test` event to this endpoint alone, sent now; the delivery as it went. */
  async test(partnerId: string, id: string): Promise<WebhookDelivery> {
    const endpoint = this.#enabled(await this.#own(partnerId, id));
    const [deliveryId] = await store.insertEvent(
      this.deps.db,
      {
        id: newEventId(),
        partnerId,
        type: TEST_EVENT_TYPE,
        data: { endpoint_id: endpoint.id, message: 'A test event from the travel partner API: your endpoint received and verified it.' },
        at: this.deps.clock.now(),
      },
      endpoint.id,
    );
    // None when the endpoint was disabled a moment ago: answered as its state now says.
    if (!deliveryId) throw this.#disabled(await this.#own(partnerId, id));
    await this.deps.deliverer.attempt(deliveryId, 'test');
    return this.#delivery(endpoint.id, deliveryId);
  }

  /** listWebhookDeliveries: newest first, with each one's latest attempts. */
  async deliveries(partnerId: string, id: string, query: { limit: number; cursor?: string | undefined }): Promise<{ deliveries: WebhookDelivery[]; next: string | undefined }> {
    const endpoint = await this.#own(partnerId, id);
    const rows = await store.deliveriesOf(this.deps.db, endpoint.id, query.limit + 1, decodeCursor(query.cursor));
    const page = rows.slice(0, query.limit);
    const attempts = await store.attemptsOf(this.deps.db, page.map((row) => row.id), ATTEMPTS_SHOWN);
    const last = page.at(-1);
    return { deliveries: page.map((row) => presentDelivery(row, attempts)), next: rows.length > query.limit && last ? encodeCursor(last) : undefined };
  }

  /**
   * retryWebhookDelivery: sends the delivery again now, with its event's `webhook-id`, whatever became of
   * it before; the delivery as it went. A pending delivery keeps its schedule should this one fail.
   */
  async retry(partnerId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const endpoint = this.#enabled(await this.#own(partnerId, id));
    const known = UUID.test(deliveryId) ? await store.findDelivery(this.deps.db, endpoint.id, deliveryId) : undefined;
    if (!known) throw deliveryNotFound(endpoint.id, deliveryId);
    await this.deps.deliverer.attempt(deliveryId, 'retry');
    return this.#delivery(endpoint.id, deliveryId);
  }

  async #delivery(endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    const row = await store.findDelivery(this.deps.db, endpointId, deliveryId);
    if (!row) throw deliveryNotFound(endpointId, deliveryId);
    return presentDelivery(row, await store.attemptsOf(this.deps.db, [deliveryId], ATTEMPTS_SHOWN));
  }

  async #own(partnerId: string, id: string): Promise<EndpointRow> {
    const row = UUID.test(id) ? await store.findEndpoint(this.deps.db, partnerId, id) : undefined;
    if (!row) throw endpointNotFound(id);
    return row;
  }

  #enabled(endpoint: EndpointRow): EndpointRow {
    if (endpoint.status === 'enabled') return endpoint;
    throw this.#disabled(endpoint);
  }

  #disabled(endpoint: EndpointRow): ConflictError {
    const why = endpoint.disabled_reason === 'gone' ? 'it answered 410 Gone' : 'every delivery to it failed for five days';
    return new ConflictError(
      `Webhook endpoint ${endpoint.id} was disabled at ${endpoint.disabled_at?.toISOString()} because ${why}: nothing is sent to it. Once the URL answers, delete the endpoint and register the URL again.`,
      'webhook_endpoint_disabled',
    );
  }
}

function presentEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEndpoint['events'],
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

function presentDelivery(row: DeliveryRow & { event_type: string }, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    delivered_at: row.delivered_at?.toISOString() ?? null,
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        attempted_at: attempt.attempted_at.toISOString(),
        trigger: attempt.trigger,
        status_code: attempt.status_code,
        error: attempt.error,
        duration_ms: attempt.duration_ms,
      })),
    created_at: row.created_at.toISOString(),
  };
}

function endpointNotFound(id: string): NotFoundError {
  return new NotFoundError(`There is no webhook endpoint ${id} of yours: list yours with GET /v1/webhooks.`, 'webhook_endpoint_not_found');
}

function deliveryNotFound(endpointId: string, deliveryId: string): NotFoundError {
  return new NotFoundError(
    `There is no delivery ${deliveryId} to webhook endpoint ${endpointId}: list its deliveries with GET /v1/webhooks/${endpointId}/deliveries.`,
    'webhook_delivery_not_found',
  );
}
