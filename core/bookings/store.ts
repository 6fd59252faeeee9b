/**
 * Booking rows: rows in, rows out. Every change of a booking's status is a conditional write (the status
 * it expects, the lease it holds) with its event, so that two processes never both take the same step.
 */
import type { Knex } from 'knex';
import { queryPrepared } from '../db/prepared.js';
import { eventInsertText, listeningText } from '../webhooks/store.js';
import type { BookingPassengerRow, BookingRow, SeatSelectionRow } from './rows.js';
import type { BookingStatus } from './schemas.js';

export type { BookingPassengerRow, BookingRow, SeatSelectionRow, StoredFailure } from './rows.js';

type Db = Knex | Knex.Transaction;

/** Statuses in the middle of the saga: a booking in one of them has a process driving it, or needs one. */
export const IN_FLIGHT: BookingStatus[] = ['pending', 'payment_authorized', 'booking_created', 'payment_captured'];

/**
 * The statements of a booking's path (created, then moved step by step) run as named prepared statements
 * (core/db/prepared.ts): planned once per connection, without the query builder, which was most of what a
 * booking cost the service (issue 25). Each distinct text gets a name of its own.
 */
const statements = new Map<string, { name: string; text: string }>();

/**
 * The statement of `shape` (what its text depends on), its text built the first time only: the insert's
 * and the steps' texts run to kilobytes, and building and hashing one at each call cost more than the
 * rest of the call's own work (issue 25).
 */
async function preparedAs<Row>(db: Db, shape: string, build: () => string, values: unknown[]): Promise<Row[]> {
  let statement = statements.get(shape);
  if (statement === undefined) {
    statement = { name: `bookings_${statements.size + 1}`, text: build() };
    statements.set(shape, statement);
  }
  return queryPrepared<Row>(db as Knex, statement.name, statement.text, values);
}

async function prepared<Row>(db: Db, text: string, values: unknown[]): Promise<Row[]> {
  return preparedAs<Row>(db, text, () => text, values);
}

/**
 * Every column but `offer`. The booking's copy of its offer is written once and never changed, and it is
 * the largest value of the row: the steps do not read it back, they keep the one the row had.
 */
const STEP_COLUMNS = [
  'id', 'user_id', 'partner_id', 'client_id', 'idempotency_key', 'request_digest', 'provider_id', 'offer_id', 'provider_offer_id', 'order_type',
  'status', 'provider_status', 'provider_order_id', 'retried_order_id', 'airline_pnr', 'payment_required_by', 'payment_method_id', 'card_brand',
  'card_last4', 'vault_token', 'payment_intent_id', 'amount_minor', 'currency', 'attempt', 'confirm_requested', 'failure', 'lease_owner',
  'lease_expires_at', 'metadata', 'contact', 'services', 'trip_type', 'origin_city', 'origin_iata_code', 'destination_city',
  'destination_iata_code', 'departure_date', 'return_date', 'airline_name', 'airline_iata_code', 'airline_logo_url', 'adult_count',
  'child_count', 'infant_count', 'refund_minor', 'refund_currency', 'cancellation_reason', 'cancelled_at', 'created_at', 'updated_at',
].join(', ');

/** A booking's own passenger and seat rows as they are inserted with it (ids made by the caller). */
export type NewPassengerRow = Omit<BookingPassengerRow, 'ticket_number' | 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };
export type NewSeatRow = Omit<SeatSelectionRow, 'id' | 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

/**
 * Inserts a booking with its first event, its passengers and its seats, in one statement (all or
 * nothing, without a transaction of its own), unless the traveler already used its key: undefined then,
 * and nothing is written. `row.offer` is the offer object; the row that comes back carries that object.
 */
export async function insertBooking(db: Db, row: Record<string, unknown> & { offer: Record<string, unknown> }, passengers: NewPassengerRow[], seats: NewSeatRow[]): Promise<BookingRow | undefined> {
  const columns = Object.keys(row);
  const values = columns.map((column) => (column === 'offer' ? JSON.stringify(row.offer) : row[column]));
  const [inserted] = await preparedAs<BookingRow>(db, `insert ${columns.join(',')}`, () => insertText(columns), [...values, JSON.stringify(passengers), JSON.stringify(seats)]);
  return inserted && { ...inserted, offer: row.offer };
}

function insertText(columns: string[]): string {
  const passengerColumns = 'id, booking_id, user_passenger_id, provider_passenger_id, traveler_type, title, first_name, middle_name, last_name, date_of_birth, gender, email, phone_number, nationality, documents_sealed, fare_basis_code, position, created_at, updated_at';
  const seatColumns = 'booking_id, booking_passenger_id, user_passenger_id, segment_id, seat_number, seat_row, seat_column, price, currency, created_at, updated_at';
  const at = columns.length;
  // The passengers and seats ride on the booking's insert: none is written when the key was taken.
  return `WITH booked AS (
      INSERT INTO bookings (${columns.map(quoted).join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})
      ON CONFLICT (user_id, idempotency_key) DO NOTHING
      RETURNING ${STEP_COLUMNS}
    ), requested AS (
      INSERT INTO booking_events (booking_id, status, note, created_at) SELECT id, status, 'requested', created_at FROM booked
    ), travelers AS (
      INSERT INTO booking_passengers (${passengerColumns})
      SELECT ${prefixed('given', passengerColumns)} FROM booked, jsonb_populate_recordset(NULL::booking_passengers, $${at + 1}::jsonb) AS given
    ), seats AS (
      INSERT INTO booking_seat_selections (${seatColumns})
      SELECT ${prefixed('given', seatColumns)} FROM booked, jsonb_populate_recordset(NULL::booking_seat_selections, $${at + 2}::jsonb) AS given
    )
    SELECT * FROM booked`;
}

export async function findByKey(db: Db, userId: string, key: string): Promise<BookingRow | undefined> {
  const [row] = await prepared<BookingRow>(db, 'SELECT * FROM bookings WHERE user_id = $1 AND idempotency_key = $2', [userId, key]);
  return row;
}

export async function findById(db: Db, id: string): Promise<BookingRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await prepared<BookingRow>(db, 'SELECT * FROM bookings WHERE id = $1', [id]);
  return row;
}

/** The traveler's booking of the provider's order: the one it holds now, or the one a retry paid. */
export async function findByOrder(db: Db, userId: string, providerId: string, orderId: string): Promise<BookingRow | undefined> {
  return db('bookings')
    .where({ user_id: userId, provider_id: providerId })
    .where((where) => where.where('provider_order_id', orderId).orWhere('retried_order_id', orderId))
    .orderBy('created_at', 'desc')
    .first();
}

/** One step of a booking: the write, and what goes with it. */
export interface Step {
  /** The lease the writer holds: without it, nothing is written. */
  leaseOwner: string;
  /** The statuses the booking must be in. */
  from: BookingStatus[];
  changes: Record<string, unknown>;
  now: Date;
  /** The event's note; an event is recorded when the status changes or a note is given. */
  note?: string | undefined;
  /** Ticket numbers the provider gave, by the passenger's id inside the offer: written with the step. */
  tickets?: { providerPassengerId: string; ticketNumber: string }[];
  /**
   * The booking stays in the saga, another step to follow: the write commits without waiting for the
   * database to flush it to disk (`synchronous_commit` off for this statement's transaction alone). Every
   * step is safe to repeat, so a step lost with a crash of the database is one the recovery pass takes
   * again, as after a crash of the process; the write that brings the booking to rest, answered to the
   * caller, waits for the disk as every other write does, and with it the steps before it. Only for a
   * write outside a transaction of the caller's (it would apply to that transaction's commit).
   */
  inFlight?: boolean;
  /**
   * The partner's event the step causes, written by the step's own statement, but only while no endpoint
   * of the partner listens to its type: then nothing is written, and advance answers `LISTENED` (the
   * caller takes the step again in a transaction that also enqueues the deliveries' jobs).
   */
  event?: StepEvent;
}

export interface StepEvent {
  id: string;
  partnerId: string;
  type: string;
  data: unknown;
}

/** advance's answer when the step's event has a listener: nothing was written. */
export const LISTENED = Symbol('an endpoint listens to the step\'s event');

/**
 * Columns whose values a step gives as the database gives them back (text, booleans, Dates): a step that
 * changes only these knows the row it leaves without reading it back (a row of fifty columns to parse).
 */
const AS_READ = new Set(['status', 'provider_status', 'provider_order_id', 'retried_order_id', 'airline_pnr', 'payment_required_by', 'payment_intent_id', 'confirm_requested', 'lease_owner', 'lease_expires_at']);

/**
 * Moves `row` from one of `step.from` to `changes.status` (or keeps it, changing other columns), only
 * while `step.leaseOwner` holds its lease; records the event and the tickets in the same statement.
 * Undefined when the booking was not as expected (nothing is written then).
 */
export async function advance(db: Db, row: BookingRow, step: Step & { event: StepEvent }): Promise<BookingRow | undefined | typeof LISTENED>;
export async function advance(db: Db, row: BookingRow, step: Step): Promise<BookingRow | undefined>;
export async function advance(db: Db, row: BookingRow, step: Step): Promise<BookingRow | undefined | typeof LISTENED> {
  const columns = Object.keys(step.changes).filter((column) => column !== 'updated_at');
  const known = columns.every((column) => AS_READ.has(column));
  const noted = step.changes.status !== undefined || Boolean(step.note);
  // A passenger named twice keeps the last ticket, as one write after another would.
  const tickets = new Map((step.tickets ?? []).map((ticket) => [ticket.providerPassengerId, ticket.ticketNumber]));
  const ticketed = tickets.size > 0;
  const inFlight = step.inFlight === true;
  const evented = step.event !== undefined;
  const values: unknown[] = [row.id, step.leaseOwner, step.from, step.now, ...columns.map((column) => step.changes[column])];
  if (noted) values.push(step.note ?? null);
  if (ticketed) values.push([...tickets.keys()], [...tickets.values()]);
  if (step.event) values.push(step.event.id, step.event.partnerId, step.event.type, JSON.stringify(step.event.data));
  const shape = `advance ${columns.join(',')} ${String(noted)} ${String(ticketed)} ${String(inFlight)} ${String(evented)}`;
  const [moved] = await preparedAs<BookingRow & { listened?: boolean }>(db, shape, () => advanceText(columns, { known, noted, ticketed, inFlight, evented }), values);
  if (evented && moved?.listened) return LISTENED;
  if (!moved?.id) return undefined;
  if (known) return { ...row, ...step.changes, updated_at: step.now } as BookingRow;
  const { listened: _listened, ...stored } = moved;
  return { ...stored, offer: row.offer };
}

/**
 * The step's statement: $1–$4 the booking, lease, statuses and time; then the changes, the note, the
 * tickets, and the event (its id, partner, type and data).
 */
function advanceText(columns: string[], shape: { known: boolean; noted: boolean; ticketed: boolean; inFlight: boolean; evented: boolean }): string {
  let next = columns.length + 5;
  const eventAt = next + (shape.noted ? 1 : 0) + (shape.ticketed ? 2 : 0);
  const parts: string[] = [];
  if (shape.evented) parts.push(`listening AS (${listeningText(`$${eventAt + 1}`, `$${eventAt + 2}`)})`);
  parts.push(
    `moved AS (
      UPDATE bookings SET ${[...columns.map((column, index) => `${quoted(column)} = $${index + 5}`), 'updated_at = $4'].join(', ')}
      WHERE id = $1 AND lease_owner = $2 AND status = ANY($3::text[])${shape.evented ? ' AND NOT (SELECT yes FROM listening)' : ''}
      RETURNING ${shape.known ? 'id, status' : STEP_COLUMNS}
    )`,
  );
  if (shape.noted) {
    parts.push(`noted AS (INSERT INTO booking_events (booking_id, status, note, created_at) SELECT id, status, $${next}::text, $4 FROM moved)`);
    next += 1;
  }
  if (shape.ticketed) {
    parts.push(`ticketed AS (
      UPDATE booking_passengers AS passenger SET ticket_number = given.ticket_number, updated_at = $4
      FROM moved, unnest($${next}::text[], $${next + 1}::text[]) AS given (provider_passenger_id, ticket_number)
      WHERE passenger.booking_id = moved.id AND passenger.provider_passenger_id = given.provider_passenger_id
    )`);
  }
  if (shape.evented) {
    parts.push(`evented AS (${eventInsertText(`$${eventAt}`, `$${eventAt + 1}`, `$${eventAt + 2}`, `$${eventAt + 3}`, '$4', 'moved')})`);
  }
  // set_config(..., true) is SET LOCAL: it ends with this statement's own transaction, at its commit.
  let select = shape.inFlight ? "SELECT moved.* FROM moved, set_config('synchronous_commit', 'off', true) AS flush_later" : 'SELECT * FROM moved';
  // One row whatever happened: the step's, or (nothing moved) whether it was held back for a listener.
  if (shape.evented) select = 'SELECT moved.*, listening.yes AS listened FROM listening LEFT JOIN moved ON true';
  return `WITH ${parts.join(', ')} ${select}`;
}

/** The booking, its row locked until the transaction `trx` ends. */
export async function lockForUpdate(trx: Knex.Transaction, id: string): Promise<BookingRow | undefined> {
  return trx('bookings').where({ id }).forUpdate().first();
}

/** Records a note on the booking unless it has it already (its row locked by the caller): whether it was recorded now. */
export async function noteOnce(db: Db, bookingId: string, status: BookingStatus, note: string, now: Date): Promise<boolean> {
  const seen = await db('booking_events').where({ booking_id: bookingId, note }).first('booking_id');
  if (seen) return false;
  await db('booking_events').insert({ booking_id: bookingId, status, note, created_at: now });
  return true;
}

/** Moves the lease `leaseOwner` holds on to `until`; false when it is not theirs any more. */
export async function renewLease(db: Db, id: string, leaseOwner: string, until: Date): Promise<boolean> {
  const renewed = await prepared<{ id: string }>(db, 'UPDATE bookings SET lease_expires_at = $3 WHERE id = $1 AND lease_owner = $2 RETURNING id', [id, leaseOwner, until]);
  return renewed.length > 0;
}

/** Lets go of the lease `leaseOwner` holds, if it still does; the booking as it is then (`row` if not held). */
export async function release(db: Db, row: BookingRow, leaseOwner: string): Promise<BookingRow> {
  const [released] = await prepared<BookingRow>(db, `UPDATE bookings SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2 RETURNING ${STEP_COLUMNS}`, [row.id, leaseOwner]);
  return released ? { ...released, offer: row.offer } : row;
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

function quoted(column: string): string {
  return `"${column.replaceAll('"', '""')}"`;
}

/** `a, b` as `alias.a, alias.b`. */
function prefixed(alias: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${alias}.${column}`)
    .join(', ');
}
