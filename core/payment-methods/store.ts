/**
 * The payment_methods table: rows in, rows out. Every query that reads one row names the traveler too,
 * so another traveler's id finds nothing. Callers pass the transaction they are in.
 */
import type { Knex } from 'knex';
import { queryPrepared } from '../db/prepared.js';
import type { CardBrand } from '../ports.js';
import type { MethodType } from './schemas.js';

export interface PaymentMethodRow {
  id: string;
  user_id: string;
  method_type: MethodType;
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
  /** Sealed (context `payment_methods:<id>:vault_token`); null for a legacy row. */
  vault_token: string | null;
  vault_token_digest: string | null;
  fingerprint: string | null;
  /** Sealed (context `payment_methods:<id>:legacy_reference`); null for cards saved through the vault. */
  legacy_reference: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewPaymentMethodRow = Omit<PaymentMethodRow, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

const TABLE = 'payment_methods';

/** The traveler's rows, the default first, then the newest. */
export function listRows(db: Knex, userId: string): Promise<PaymentMethodRow[]> {
  return db(TABLE)
    .where({ user_id: userId })
    .orderBy([
      { column: 'is_default', order: 'desc' },
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

export async function findRow(db: Knex, userId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentMethodRow | undefined> {
  if (options.forUpdate) return (await db(TABLE).where({ id, user_id: userId }).forUpdate().first()) as PaymentMethodRow | undefined;
  // Every booking reads its card: a prepared statement, without the query builder.
  const [row] = await queryPrepared<PaymentMethodRow>(db, 'payment_methods_by_id', 'SELECT * FROM payment_methods WHERE id = $1 AND user_id = $2', [id, userId]);
  return row;
}

export async function countRows(db: Knex, userId: string): Promise<number> {
  const row = (await db(TABLE).where({ user_id: userId }).count<{ count: string }[]>({ count: '*' }).first()) as { count: string | number } | undefined;
  return Number(row?.count ?? 0);
}

/** Serializes changes of one traveler's cards (the default flag): concurrent requests take turns here. */
export async function lockTraveler(trx: Knex.Transaction, userId: string): Promise<boolean> {
  return (await trx('users').where({ id: userId }).forUpdate().first('id')) !== undefined;
}

export async function clearDefault(trx: Knex.Transaction, userId: string, except?: string): Promise<void> {
  await trx(TABLE)
    .where({ user_id: userId, is_default: true })
    .modify((query) => (except ? query.whereNot({ id: except }) : query))
    .update({ is_default: false });
}

export async function digestTaken(db: Knex, digests: string[]): Promise<boolean> {
  return (await db(TABLE).whereIn('vault_token_digest', digests).first('id')) !== undefined;
}

export async function insertRow(trx: Knex.Transaction, row: NewPaymentMethodRow): Promise<void> {
  await trx(TABLE).insert(row);
}

export async function updateRow(trx: Knex.Transaction, id: string, changes: Partial<Pick<PaymentMethodRow, 'exp_month' | 'exp_year' | 'is_default'>> & { updated_at: Date }): Promise<void> {
  await trx(TABLE).where({ id }).update(changes);
}

export async function deleteRow(trx: Knex.Transaction, userId: string, id: string): Promise<PaymentMethodRow | undefined> {
  const [row] = (await trx(TABLE).where({ id, user_id: userId }).delete().returning('*')) as PaymentMethodRow[];
  return row;
}

/** The traveler with this id, or this e-mail address (any case); undefined when there is none. */
export async function findUserId(db: Knex, idOrEmail: string): Promise<string | undefined> {
  const row = UUID.test(idOrEmail)
    ? await db('users').where({ id: idOrEmail }).first('id')
    : await db('users').whereRaw('lower(email) = lower(?)', [idOrEmail]).first('id');
  return (row as { id: string } | undefined)?.id;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
