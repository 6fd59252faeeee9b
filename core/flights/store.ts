import type { Knex } from 'knex';
import type { Provider } from './schemas.js';

export async function listProviders(db: Knex): Promise<Provider[]> {
  return db('flight_providers')
    .select('id', 'name', 'type', 'capabilities', 'config', 'is_active', 'priority')
    .orderBy([{ column: 'priority' }, { column: 'id' }]);
}

/** Reference data: inserted or brought up to date from the seeds at every start. */
export async function upsertProviders(db: Knex, providers: Provider[]): Promise<void> {
  if (providers.length === 0) return;
  await db('flight_providers')
    .insert(providers.map((provider) => ({ ...provider, capabilities: JSON.stringify(provider.capabilities), config: JSON.stringify(provider.config) })))
    .onConflict('id')
    .merge(['name', 'type', 'capabilities', 'config', 'is_active', 'priority', 'updated_at']);
}
