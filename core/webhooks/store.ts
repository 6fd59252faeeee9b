/** Webhook endpoints, events, deliveries and attempts: rows in, rows out. */
import type { Knex } from 'knex';
import type { PagePosition } from '../pagination.js';

type Db = Knex | Knex.Transaction;

export interface EndpointRow {
  id: string;
  partner_id: string;
  url: string;
  events: string[];
  description: string | null;
  secret_sealed: string;
  status: 'enabled' | 'disabled';
  disabled_reason: 'gone' | 'failing' | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  trigger: 'automatic' | 'retry' | 'test';
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: Date;
}

/** A delivery with what an attempt needs: its event and its endpoint. */
export interface DeliveryWork {
  delivery: DeliveryRow;
  endpoint: EndpointRow;
  event: { id: string; type: string; data: unknown; created_at: Date };
}

export async function insertEndpoint(db: Db, row: EndpointRow): Promise<void> {
  await db('webhook_endpoints').insert(row);
}

export async function endpointsOf(db: Db, partnerId: string): Promise<EndpointRow[]> {
  return db('webhook_endpoints').where({ partner_id: partnerId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

/** Serializes endpoint registrations of one partner until `trx` ends (the count, then the insert). */
export async function lockPartnerEndpoints(trx: Knex.Transaction, partnerId: string): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints:' || ?))", [partnerId]);
}

/**
 * Events older than `before` go, with their deliveries and attempts (the log keeps 30 days, as Stripe's);
 * and a delivery still pending long past its due attempt (its job was set aside after failing every
 * try) is failed, so that the log does not say pending forever. How many rows of each.
 */
export async function sweep(db: Db, before: Date, staleBefore: Date, now: Date): Promise<number> {
  const events = await db('webhook_events').where('created_at', '<', before).delete();
  const stale = await db('webhook_deliveries')
    .where({ status: 'pending' })
    .where('next_attempt_at', '<', staleBefore)
    .update({ status: 'failed', next_attempt_at: null, last_error: 'no attempt was made in time: send it again with the retry route', updated_at: now });
  return events + stale;
}

export async function countEndpoints(db: Db, partnerId: string): Promise<number> {
  const [row] = await db('webhook_endpoints').where({ partner_id: partnerId }).count<{ count: number }[]>({ count: '*' });
  return Number(row?.count ?? 0);
}

export async function findEndpoint(db: Db, partnerId: string, id: string): Promise<EndpointRow | undefined> {
  return db('webhook_endpoints').where({ partner_id: partnerId, id }).first();
}

export async function deleteEndpoint(db: Db, partnerId: string, id: string): Promise<boolean> {
  return (await db('webhook_endpoints').where({ partner_id: partnerId, id }).delete()) > 0;
}

/**
 * SQL for a statement of another module that writes an event with its own change (bookings' steps):
 * whether an enabled endpoint of the partner listens to the type, as `yes`...
 */
export function listeningText(partner: string, type: string): string {
  return `SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE partner_id = ${partner}::uuid AND status = 'enabled' AND ${type}::text = ANY(events)) AS yes`;
}

/** ...and the event's insert, one row for each row of `from` (none when the change did not happen). */
export function eventInsertText(id: string, partner: string, type: string, data: string, at: string, from: string): string {
  return `INSERT INTO webhook_events (id, partner_id, type, data, created_at) SELECT ${id}::text, ${partner}::uuid, ${type}::text, ${data}::jsonb, ${at} FROM ${from}`;
}

/**
 * Writes an event and a pending delivery to each enabled endpoint of its partner subscribed to its type
 * (or to `onlyEndpointId`), in one statement; the deliveries' ids.
 */
export async function insertEvent(
  db: Db,
  event: { id: string; partnerId: string; type: string; data: unknown; at: Date },
  onlyEndpointId?: string,
): Promise<string[]> {
  const result = await db.raw<{ rows: { id: string }[] }>(
    `WITH event AS (
       INSERT INTO webhook_events (id, partner_id, type, data, created_at) VALUES (?, ?, ?, ?::jsonb, ?) RETURNING id, partner_id, type
     )
     INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, created_at, updated_at)
     SELECT gen_random_uuid(), event.id, endpoint.id, 'pending', 0, ?, ?, ?
     FROM event JOIN webhook_endpoints AS endpoint ON endpoint.partner_id = event.partner_id AND endpoint.status = 'enabled'
     WHERE ${onlyEndpointId ? 'endpoint.id = ?' : 'event.type = ANY(endpoint.events)'}
     RETURNING id`,
    [event.id, event.partnerId, event.type, JSON.stringify(event.data), event.at, event.at, event.at, event.at, ...(onlyEndpointId ? [onlyEndpointId] : [])],
  );
  return result.rows.map((row) => row.id);
}

export async function deliveryWork(db: Db, deliveryId: string): Promise<DeliveryWork | undefined> {
  const delivery: DeliveryRow | undefined = await db('webhook_deliveries').where({ id: deliveryId }).first();
  if (!delivery) return undefined;
  const [endpoint, event] = await Promise.all([
    db('webhook_endpoints').where({ id: delivery.endpoint_id }).first() as Promise<EndpointRow | undefined>,
    db('webhook_events').where({ id: delivery.event_id }).first('id', 'type', 'data', 'created_at') as Promise<DeliveryWork['event'] | undefined>,
  ]);
  return endpoint && event ? { delivery, endpoint, event } : undefined;
}

export async function insertAttempt(db: Db, row: AttemptRow): Promise<void> {
  await db('webhook_attempts').insert(row);
}

export async function updateDelivery(db: Db, id: string, changes: Partial<DeliveryRow>): Promise<void> {
  await db('webhook_deliveries').where({ id }).update(changes);
}

/** An attempt's outcome: one more attempt counted, and `changes`; undefined when `onlyIfPending` and it was not. */
export async function recordOutcome(db: Db, id: string, changes: Partial<DeliveryRow>, options: { onlyIfPending: boolean }): Promise<DeliveryRow | undefined> {
  const query = db('webhook_deliveries').where({ id });
  if (options.onlyIfPending) query.where({ status: 'pending' });
  const [row] = await query.update({ ...changes, attempt_count: db.raw('attempt_count + 1') }).returning('*');
  return row as DeliveryRow | undefined;
}

export async function updateEndpoint(db: Db, id: string, changes: Partial<EndpointRow>): Promise<void> {
  await db('webhook_endpoints').where({ id }).update(changes);
}

/** One delivery of the endpoint, with its event's type. */
export async function findDelivery(db: Db, endpointId: string, deliveryId: string): Promise<(DeliveryRow & { event_type: string }) | undefined> {
  return db('webhook_deliveries as delivery')
    .join('webhook_events as event', 'event.id', 'delivery.event_id')
    .where({ 'delivery.id': deliveryId, 'delivery.endpoint_id': endpointId })
    .first('delivery.*', 'event.type as event_type');
}

/** The endpoint's deliveries, newest first, after `after`. */
export async function deliveriesOf(db: Db, endpointId: string, limit: number, after: PagePosition | undefined): Promise<(DeliveryRow & { event_type: string })[]> {
  const query = db('webhook_deliveries as delivery')
    .join('webhook_events as event', 'event.id', 'delivery.event_id')
    .where('delivery.endpoint_id', endpointId)
    .select('delivery.*', 'event.type as event_type');
  if (after) {
    query.where((where) =>
      where.where('delivery.created_at', '<', after.createdAt).orWhere((same) => same.where('delivery.created_at', after.createdAt).where('delivery.id', '<', after.id)),
    );
  }
  return query.orderBy([{ column: 'delivery.created_at', order: 'desc' }, { column: 'delivery.id', order: 'desc' }]).limit(limit);
}

/** The newest attempts of each delivery, at most `perDelivery` each. */
export async function attemptsOf(db: Db, deliveryIds: string[], perDelivery: number): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const result = await db.raw<{ rows: AttemptRow[] }>(
    `SELECT * FROM (
       SELECT attempt.*, row_number() OVER (PARTITION BY delivery_id ORDER BY attempted_at DESC, id DESC) AS position
       FROM webhook_attempts AS attempt WHERE delivery_id = ANY(?::uuid[])
     ) AS numbered WHERE position <= ? ORDER BY attempted_at DESC, id DESC`,
    [deliveryIds, perDelivery],
  );
  return result.rows;
}
