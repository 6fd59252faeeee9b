/**
 * The payment processor sandbox's rows, and the Stripe objects they are answered as. Rows in, rows out:
 * the rules live in sandbox.ts.
 */
import type { Knex } from 'knex';
import { unixSeconds } from './sandbox-dialect.js';

export type IntentStatus = 'requires_payment_method' | 'requires_capture' | 'succeeded' | 'canceled';

export interface IntentRow {
  id: string;
  account: string;
  status: IntentStatus;
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  capture_method: 'manual';
  payment_method: string;
  latest_charge: string;
  card_brand: string | null;
  card_last4: string | null;
  description: string | null;
  metadata: Record<string, string>;
  cancellation_reason: string | null;
  last_payment_error: Record<string, unknown> | null;
  created_at: Date;
}

export interface RefundRow {
  id: string;
  account: string;
  payment_intent_id: string;
  amount: number;
  currency: string;
  status: 'succeeded';
  reason: string | null;
  metadata: Record<string, string>;
  created_at: Date;
}

const INTENTS = 'processor_sandbox_payment_intents';
const REFUNDS = 'processor_sandbox_refunds';

export async function insertIntent(db: Knex | Knex.Transaction, row: IntentRow): Promise<void> {
  await db(INTENTS).insert({ ...row, metadata: JSON.stringify(row.metadata), last_payment_error: row.last_payment_error && JSON.stringify(row.last_payment_error) });
}

/** One account's intent; `forUpdate` locks it until the transaction ends (two captures never both pass their checks). */
export async function findIntent(db: Knex | Knex.Transaction, account: string, id: string, options: { forUpdate?: boolean } = {}): Promise<IntentRow | undefined> {
  const query = db(INTENTS).where({ account, id }).first();
  const row = options.forUpdate ? await query.forUpdate() : await query;
  return row ? intentRow(row) : undefined;
}

export async function updateIntent(trx: Knex.Transaction, id: string, changes: Partial<Pick<IntentRow, 'status' | 'amount_capturable' | 'amount_received' | 'cancellation_reason'>>): Promise<void> {
  await trx(INTENTS).where({ id }).update(changes);
}

export async function refundedAmount(trx: Knex.Transaction, intentId: string): Promise<number> {
  const row = await trx(REFUNDS).where({ payment_intent_id: intentId }).sum({ total: 'amount' }).first();
  return Number(row?.total ?? 0);
}

export async function insertRefund(trx: Knex.Transaction, row: RefundRow): Promise<void> {
  await trx(REFUNDS).insert({ ...row, metadata: JSON.stringify(row.metadata) });
}

export async function findRefund(db: Knex, account: string, id: string): Promise<RefundRow | undefined> {
  const row = await db(REFUNDS).where({ account, id }).first();
  return row ? { ...row, amount: Number(row.amount) } : undefined;
}

function intentRow(row: Record<string, unknown>): IntentRow {
  return { ...(row as unknown as IntentRow), amount: Number(row.amount), amount_capturable: Number(row.amount_capturable), amount_received: Number(row.amount_received) };
}

/** A PaymentIntent as Stripe answers it. */
export function intentObject(row: IntentRow) {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount,
    amount_capturable: row.amount_capturable,
    amount_received: row.amount_received,
    capture_method: row.capture_method,
    confirmation_method: 'automatic',
    currency: row.currency,
    status: row.status,
    payment_method: row.payment_method,
    payment_method_types: ['card'],
    latest_charge: row.latest_charge,
    created: unixSeconds(row.created_at),
    description: row.description,
    metadata: row.metadata,
    cancellation_reason: row.cancellation_reason,
    last_payment_error: row.last_payment_error,
    livemode: false,
  };
}

/** A Refund as Stripe answers it. */
export function refundObject(row: RefundRow) {
  return {
    id: row.id,
    object: 'refund',
    amount: row.amount,
    currency: row.currency,
    payment_intent: row.payment_intent_id,
    status: row.status,
    reason: row.reason,
    metadata: row.metadata,
    created: unixSeconds(row.created_at),
  };
}
