/**
 * Booking rows: rows in, rows out. Every change of a booking's status is a conditional write (the status
 * it expects, the lease it holds) with its event, so that two processes never both take the same step.
 */
import type { Knex } from 'knex';
import type { BookingStatus } from './schemas.js';

export interface BookingRow {
  id: string;
  user_id: string;
  partner_id: string | null;
  client_id: string | null;
  idempotency_key: string;
  request_digest: string;
  provider_id: string;
  offer_id: string | null;
  provider_offer_id: string | null;
  offer: Record<string, unknown>;
  order_type: 'instant' | 'hold';
  status: BookingStatus;
  provider_status: 'held' | 'confirmed' | 'cancelled' | null;
  provider_order_id: string | null;
  retried_order_id: string | null;
  airline_pnr: string | null;
  payment_required_by: Date | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  vault_token: string | null;
  payment_intent_id: string | null;
  amount_minor: number;
  currency: string;
  attempt: number;
  confirm_requested: boolean;
  failure: StoredFailure | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  metadata: Record<string, string>;
  contact: { email: string; phone_number: string; first_name: string; last_name: string; title?: string };
  services: { id: string; quantity: number }[];
  trip_type: string;
  origin_city: string | null;
  origin_iata_code: string;
  destination_city: string | null;
  destination_iata_code: string;
  /** Local time at the airport, as PostgreSQL writes a timestamp without time zone. */
  departure_date: string | null;
  return_date: string | null;
  airline_name: string | null;
  airline_iata_code: string;
  airline_logo_url: string;
  adult_count: number;
  child_count: number;
  infant_count: number;
  refund_minor: number | null;
  refund_currency: string | null;
  cancellation_reason: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A failure as it was answered, to answer a repeat of the request the same way. */
export interface StoredFailure {
  kind: string;
  code: string;
  message: string;
  details?: string;
  fields?: Record<string, unknown>;
  priceChange?: { orderId: string | null; previousTotalAmount: string; newTotalAmount: string; currency: string };
}

export interface BookingPassengerRow {
  id: string;
  booking_id: string;
  user_passenger_id: string | null;
  provider_passenger_id: string;
  traveler_type: string;
  title: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  gender: string | null;
  email: string | null;
  phone_number: string | null;
  nationality: string | null;
  documents_sealed: string | null;
  ticket_number: string | null;
  fare_basis_code: string | null;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export interface SeatSelectionRow {
  id: string;
  booking_id: string;
  booking_passenger_id: string;
  user_passenger_id: string | null;
  segment_id: string;
  seat_number: string;
  seat_row: string | null;
  seat_column: string | null;
  price: string | null;
  currency: string | null;
  created_at: Date;
  updated_at: Date;
}

type Db = Knex | Knex.Transaction;

/** Statuses in the middle of the saga: a booking in one of them has a process driving it, or needs one. */
export const IN_FLIGHT: BookingStatus[] = ['pending', 'payment_authorized', 'booking_created', 'payment_captured'];

/** Inserts a booking unless the traveler already used its key: undefined then. */
export async function insertBooking(trx: Db, row: Record<string, unknown>): Promise<BookingRow | undefined> {
  const [inserted] = await trx('bookings').insert(row).onConflict(['user_id', 'idempotency_key']).ignore().returning('*');
  if (inserted) await trx('booking_events').insert({ booking_id: inserted.id, status: inserted.status, note: 'requested', created_at: inserted.created_at });
  return inserted as BookingRow | undefined;
}

export async function findByKey(db: Db, userId: string, key: string): Promise<BookingRow | undefined> {
  return db('bookings').where({ user_id: userId, idempotency_key: key }).first();
}

export async function findById(db: Db, id: string): Promise<BookingRow | undefined> {
  return UUID.test(id) ? db('bookings').where({ id }).first() : undefined;
}

/** The traveler's booking of the provider's order: the one it holds now, or the one a retry paid. */
export async function findByOrder(db: Db, userId: string, providerId: string, orderId: string): Promise<BookingRow | undefined> {
  return db('bookings')
    .where({ user_id: userId, provider_id: providerId })
    .where((where) => where.where('provider_order_id', orderId).orWhere('retried_order_id', orderId))
    .orderBy('created_at', 'desc')
    .first();
}

/**
 * Moves a booking from one of `from` to `changes.status` (or keeps it, changing other columns), only
 * while `leaseOwner` holds its lease; records the event. Undefined when the booking was not as expected.
 */
export async function advance(db: Db, id: string, leaseOwner: string, from: BookingStatus[], changes: Record<string, unknown>, now: Date, note?: string): Promise<BookingRow | undefined> {
  const [row] = await db('bookings')
    .where({ id, lease_owner: leaseOwner })
    .whereIn('status', from)
    .update({ ...changes, updated_at: now })
    .returning('*');
  if (row && (changes.status !== undefined || note)) await db('booking_events').insert({ booking_id: id, status: row.status, note: note ?? null, created_at: now });
  return row as BookingRow | undefined;
}

/**
 * Takes the lease of a booking whose lease lapsed (its process died) or that has none, if it is in one
 * of `statuses`: of several processes trying, one gets it.
 */
export async function takeLease(db: Db, id: string, statuses: BookingStatus[], owner: string, until: Date, now: Date): Promise<BookingRow | undefined> {
  const [row] = await db('bookings')
    .where({ id })
    .whereIn('status', statuses)
    .where((where) => where.whereNull('lease_expires_at').orWhere('lease_expires_at', '<', now))
    .update({ lease_owner: owner, lease_expires_at: until })
    .returning('*');
  return row as BookingRow | undefined;
}

/** Ids of bookings left in the middle of the saga by a process whose lease lapsed. */
export async function abandoned(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db('bookings')
    .whereIn('status', IN_FLIGHT)
    .where('lease_expires_at', '<', now)
    .orderBy('lease_expires_at')
    .limit(limit)
    .select('id');
  return rows.map((row) => row.id);
}

/** Holds whose provider deadline passed, unpaid and not being paid. */
export async function lapsedHolds(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db('bookings')
    .where({ status: 'booking_created', order_type: 'hold', confirm_requested: false })
    .where('payment_required_by', '<', now)
    .whereNull('lease_expires_at')
    .limit(limit)
    .select('id');
  return rows.map((row) => row.id);
}

/**
 * A traveler's trips (decisions §2): bookings that reached booking_created, newest first, after the
 * cursor's (created_at, id); `status` filters by the trip status rule, worked out in SQL on local dates.
 */
export async function tripsOf(
  db: Db,
  userId: string,
  options: { status?: 'upcoming' | 'completed' | 'cancelled' | undefined; today: string; limit: number; after?: { createdAt: Date; id: string } | undefined },
): Promise<BookingRow[]> {
  const query = db('bookings').where({ user_id: userId }).whereIn('status', ['booking_created', 'payment_captured', 'confirmed', 'cancelled']);
  const lastDay = db.raw('COALESCE(return_date, departure_date)::date');
  if (options.status === 'cancelled') query.where('status', 'cancelled');
  if (options.status === 'completed') query.whereNot('status', 'cancelled').where(lastDay, '<', options.today);
  if (options.status === 'upcoming') query.whereNot('status', 'cancelled').where((where) => where.whereNull('departure_date').orWhere(lastDay, '>=', options.today));
  if (options.after) {
    const { createdAt, id } = options.after;
    query.where((where) => where.where('created_at', '<', createdAt).orWhere((same) => same.where('created_at', createdAt).where('id', '<', id)));
  }
  return query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(options.limit);
}

export async function passengersOf(db: Db, bookingId: string): Promise<BookingPassengerRow[]> {
  return db('booking_passengers').where({ booking_id: bookingId }).orderBy('position');
}

export async function seatsOf(db: Db, bookingId: string): Promise<SeatSelectionRow[]> {
  return db('booking_seat_selections').where({ booking_id: bookingId }).orderBy(['segment_id', 'seat_number']);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
