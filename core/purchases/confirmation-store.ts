/**
 * purchase_confirmations: rows in, rows out. Every change of status is conditional on the status it
 * leaves, so two requests racing (two bookings using one confirmation, a decline against a use) cannot
 * both win: the loser changes nothing and reads the row again.
 */
import type { Knex } from 'knex';
import type { ConfirmationStatus, ConfirmationSummary } from './contracts.js';

export interface ConfirmationRow {
  id: string;
  user_id: string;
  client_id: string;
  provider_id: string;
  offer_id: string;
  fingerprint: string;
  /** Written as a decimal string; read back as a number (the database's int8 parser). */
  amount_minor: string | number;
  currency: string;
  summary: ConfirmationSummary;
  status: ConfirmationStatus;
  expires_at: Date;
  decided_at: Date | null;
  used_at: Date | null;
  booking_id: string | null;
  created_at: Date;
}

const TABLE = 'purchase_confirmations';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function insertConfirmation(db: Knex, row: Omit<ConfirmationRow, 'id' | 'decided_at' | 'used_at' | 'booking_id'>): Promise<ConfirmationRow> {
  const [inserted] = await db(TABLE)
    .insert({ ...row, summary: JSON.stringify(row.summary) })
    .returning('*');
  return inserted as ConfirmationRow;
}

/** Undefined for an id that is no UUID (a hand-edited link): PostgreSQL would refuse to compare it. */
export async function findConfirmation(db: Knex, id: string): Promise<ConfirmationRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return db(TABLE).where({ id }).first();
}

/** A pending one asked for exactly this purchase that can still be confirmed: asking again answers it. */
export async function findPendingFor(db: Knex, key: { userId: string; clientId: string; fingerprint: string }, now: Date): Promise<ConfirmationRow | undefined> {
  return db(TABLE)
    .where({ user_id: key.userId, client_id: key.clientId, fingerprint: key.fingerprint, status: 'pending' })
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .first();
}

/** The traveler's decision, if the row is still in one of `from` and unexpired; undefined otherwise. */
export async function decide(db: Knex, id: string, from: ConfirmationStatus[], to: 'confirmed' | 'declined', now: Date): Promise<ConfirmationRow | undefined> {
  const [row] = await db(TABLE).where({ id }).whereIn('status', from).where('expires_at', '>', now).update({ status: to, decided_at: now }).returning('*');
  return row as ConfirmationRow | undefined;
}

/** Confirmed and unexpired → used by `bookingId`, inside the booking's transaction; undefined if it was not. */
export async function markUsed(trx: Knex.Transaction, id: string, bookingId: string, now: Date): Promise<ConfirmationRow | undefined> {
  const [row] = await trx(TABLE)
    .where({ id, status: 'confirmed' })
    .where('expires_at', '>', now)
    .update({ status: 'used', used_at: now, booking_id: bookingId })
    .returning('*');
  return row as ConfirmationRow | undefined;
}
