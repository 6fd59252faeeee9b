import type { Knex } from 'knex';
import { z } from 'zod';
import type { ApiKeySummary, UsagePlan } from './schemas.js';

export interface PartnerRow {
  id: string;
  name: string;
  plan_id: string;
  allowed_operations: string[] | null;
  created_at: Date;
}

export interface ApiKeyRow {
  id: string;
  partner_id: string;
  prefix: string;
  secret_hash: Buffer;
  kind: 'secret' | 'publishable';
  allowed_origins: string[] | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** A key joined with what a request needs to know about its partner. */
export interface KeyWithPartnerRow {
  key_id: string;
  partner_id: string;
  secret_hash: Buffer;
  revoked_at: Date | null;
  kind: 'secret' | 'publishable';
  /** A publishable key's origins; null for a secret key. */
  key_origins: string[] | null;
  allowed_operations: string[] | null;
  plan_id: string;
  requests_per_second: number;
  burst: number;
  requests_per_day: number;
}

const PLAN_COLUMNS = ['id', 'requests_per_second', 'burst', 'requests_per_day'] as const;

export async function findPlan(db: Knex, id: string): Promise<UsagePlan | undefined> {
  return db('usage_plans').select(PLAN_COLUMNS).where({ id }).first();
}

export async function listPlans(db: Knex): Promise<UsagePlan[]> {
  return db('usage_plans').select(PLAN_COLUMNS).orderBy('id');
}

export async function upsertPlan(db: Knex, plan: UsagePlan): Promise<UsagePlan> {
  const [row] = await db('usage_plans')
    .insert(plan)
    .onConflict('id')
    .merge({ ...plan, updated_at: db.fn.now() })
    .returning(PLAN_COLUMNS);
  return row as UsagePlan;
}

/** Inserts the plan only if no plan of that name exists (seeds must not undo an admin's change). */
export async function insertPlanIfMissing(db: Knex, plan: UsagePlan): Promise<void> {
  await db('usage_plans').insert(plan).onConflict('id').ignore();
}

export async function insertPartner(
  db: Knex,
  partner: { name: string; plan_id: string; allowed_operations: string[] | null },
): Promise<PartnerRow> {
  const [row] = await db('partners').insert(partner).returning(['id', 'name', 'plan_id', 'allowed_operations', 'created_at']);
  return row as PartnerRow;
}

export async function updatePartner(
  db: Knex,
  id: string,
  changes: { plan_id?: string; allowed_operations?: string[] | null },
): Promise<PartnerRow | undefined> {
  const [row] = await db('partners')
    .where({ id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning(['id', 'name', 'plan_id', 'allowed_operations', 'created_at']);
  return row as PartnerRow | undefined;
}

export async function findPartner(db: Knex, id: string): Promise<PartnerRow | undefined> {
  return db('partners').select('id', 'name', 'plan_id', 'allowed_operations', 'created_at').where({ id }).first();
}

export async function listPartnerRows(db: Knex): Promise<PartnerRow[]> {
  return db('partners').select('id', 'name', 'plan_id', 'allowed_operations', 'created_at').orderBy('created_at');
}

/** A secret key names no kind (the column's default), so this also works on a schema before publishable keys. */
export async function insertApiKey(
  db: Knex,
  key: { partner_id: string; prefix: string; secret_hash: Buffer } | { partner_id: string; prefix: string; secret_hash: Buffer; kind: 'publishable'; allowed_origins: string[] },
): Promise<ApiKeyRow> {
  const [row] = await db('api_keys').insert(key).returning('*');
  return row as ApiKeyRow;
}

export async function listKeySummaries(db: Knex, partnerIds: string[]): Promise<Array<ApiKeySummary & { partner_id: string }>> {
  const rows: Array<Pick<ApiKeyRow, 'id' | 'partner_id' | 'prefix' | 'kind' | 'allowed_origins' | 'created_at' | 'revoked_at'>> = await db('api_keys')
    .select('id', 'partner_id', 'prefix', 'kind', 'allowed_origins', 'created_at', 'revoked_at')
    .whereIn('partner_id', partnerIds)
    .orderBy('created_at');
  return rows.map((row) => ({
    partner_id: row.partner_id,
    key_id: row.id,
    prefix: row.prefix,
    kind: row.kind,
    allowed_origins: row.allowed_origins,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  }));
}

/** Revokes by key id or visible prefix; a key already revoked keeps its first revocation time. */
export async function revokeApiKey(db: Knex, keyIdOrPrefix: string): Promise<ApiKeyRow | undefined> {
  const byId = z.uuid().safeParse(keyIdOrPrefix).success;
  const [row] = await db('api_keys')
    .where(byId ? { id: keyIdOrPrefix } : { prefix: keyIdOrPrefix })
    .update({ revoked_at: db.raw('coalesce(revoked_at, now())') })
    .returning('*');
  return row as ApiKeyRow | undefined;
}

export async function findKeyWithPartner(db: Knex, prefix: string): Promise<KeyWithPartnerRow | undefined> {
  return db('api_keys as k')
    .join('partners as p', 'p.id', 'k.partner_id')
    .join('usage_plans as u', 'u.id', 'p.plan_id')
    .select(
      'k.id as key_id',
      'k.partner_id',
      'k.secret_hash',
      'k.revoked_at',
      'k.kind',
      'k.allowed_origins as key_origins',
      'p.allowed_operations',
      'u.id as plan_id',
      'u.requests_per_second',
      'u.burst',
      'u.requests_per_day',
    )
    .where('k.prefix', prefix)
    .first();
}

/** Every origin some active publishable key lists (the preflight's question: may this origin ask at all?). */
export async function activePublishableOrigins(db: Knex): Promise<string[]> {
  const rows: Array<{ origin: string }> = await db
    .select(db.raw('DISTINCT unnest(allowed_origins) AS origin'))
    .from('api_keys')
    .where({ kind: 'publishable' })
    .whereNull('revoked_at');
  return rows.map((row) => row.origin);
}
