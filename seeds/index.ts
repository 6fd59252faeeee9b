/**
 * Reference data, applied at every start after the migrations: providers are brought up to date, the
 * default usage plan is created if missing (an admin's later change to it is kept).
 */
import type { Knex } from 'knex';
import { upsertProviders } from '../core/flights/store.js';
import { insertPlanIfMissing } from '../core/partners/store.js';
import { PROVIDERS } from './providers.js';
import { DEFAULT_PLAN } from './usage-plans.js';

export async function seedReferenceData(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    await insertPlanIfMissing(trx, DEFAULT_PLAN);
    await upsertProviders(trx, PROVIDERS);
  });
}
