/** Checkout sessions in the database: rows in, rows out. Every state change is one conditional write. */
import type { Knex } from 'knex';
import type { CheckoutFailureReason } from './schemas.js';

export interface CheckoutSessionRow {
  id: string;
  partner_id: string;
  key_id: string | null;
  provider_id: string;
  offer_id: string;
  origin: string;
  customer_id: string;
  is_prod: boolean;
  client_secret_hash: Buffer;
  /** As written: open, complete or failed (an open session past `expires_at` reads as expired). */
  status: 'open' | 'complete' | 'expired' | 'failed';
  failure_reason: CheckoutFailureReason | null;
  booking_id: string | null;
  airline_pnr: string | null;
  /** numeric, as PostgreSQL returns it: a decimal string. */
  total_amount: string;
  currency: string;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
  /** The hosted checkout's own columns (hosted-checkout.ts); absent on a row not yet read back. */
  traveler_id?: string | null;
  traveler_token_hash?: Buffer | null;
  booking_attempt?: number;
  attempt_user_id?: string | null;
  paying_until?: Date | null;
}

const TABLE = 'checkout_sessions';

export async function insertSession(db: Knex, row: CheckoutSessionRow): Promise<void> {
  await db(TABLE).insert(row);
}

export async function findSession(db: Knex, id: string): Promise<CheckoutSessionRow | undefined> {
  return db(TABLE).where({ id }).first();
}

/**
 * Moves an open session on, only if it is still open (of two racing transitions one wins); undefined
 * when it was not open any more.
 */
export async function closeSession(
  db: Knex,
  id: string,
  changes: Partial<Pick<CheckoutSessionRow, 'status' | 'failure_reason' | 'booking_id' | 'airline_pnr' | 'total_amount' | 'currency'>>,
  now: Date,
): Promise<CheckoutSessionRow | undefined> {
  const [row] = await db(TABLE).where({ id, status: 'open' }).update({ ...changes, updated_at: now }).returning('*');
  return row as CheckoutSessionRow | undefined;
}

/** Marks an open session past `expires_at` expired, unless a pay holds its lease; the row, if it did. */
export async function expireSession(db: Knex, id: string, now: Date): Promise<CheckoutSessionRow | undefined> {
  const [row] = await db(TABLE)
    .where({ id, status: 'open' })
    .where('expires_at', '<=', now)
    .where((where) => where.whereNull('paying_until').orWhere('paying_until', '<', now))
    .update({ status: 'expired', updated_at: now })
    .returning('*');
  return row as CheckoutSessionRow | undefined;
}

/** Sessions that expired before `cutoff` without a sale. */
export async function deleteUnsoldBefore(db: Knex, cutoff: Date): Promise<number> {
  return db(TABLE).where('expires_at', '<', cutoff).whereNot({ status: 'complete' }).delete();
}

/** The traveler signed in inside the hosted checkout, and the digest of their token; only while open. */
export async function setTraveler(db: Knex, id: string, travelerId: string | null, tokenHash: Buffer | null, now: Date): Promise<boolean> {
  const changed = await db(TABLE).where({ id, status: 'open' }).update({ traveler_id: travelerId, traveler_token_hash: tokenHash, updated_at: now });
  return changed > 0;
}

/**
 * Starts booking attempt `seen + 1` for `userId`, holding the session's pay lease until `until`: only if
 * the session is open, no other attempt began since `seen` was read, and no pay holds the lease. The new
 * attempt's number, or undefined when another request got there first.
 */
export async function takePayLease(db: Knex, id: string, input: { seen: number; userId: string; until: Date; now: Date; newAttempt: boolean }): Promise<number | undefined> {
  const [row] = await db(TABLE)
    .where({ id, status: 'open', booking_attempt: input.seen })
    .where((where) => where.whereNull('paying_until').orWhere('paying_until', '<', input.now))
    .update({
      booking_attempt: input.newAttempt ? input.seen + 1 : input.seen,
      attempt_user_id: input.userId,
      paying_until: input.until,
      updated_at: input.now,
    })
    .returning('booking_attempt');
  return row ? Number((row as { booking_attempt: number }).booking_attempt) : undefined;
}

/** Lets go of the pay lease of `attempt` (a later attempt's lease is not this one's to release). */
export async function releasePayLease(db: Knex, id: string, attempt: number): Promise<void> {
  await db(TABLE).where({ id, booking_attempt: attempt }).update({ paying_until: null });
}
