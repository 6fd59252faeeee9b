import type { Knex } from 'knex';

/**
 * Publishable keys (decisions §12): a partner's key for browsers beside its secret ones. `kind` says which
 * a key is; every key made before is a secret key. A publishable key lists the exact origins its requests
 * must come from (at least one); a secret key has none. Both are found by their visible prefix and kept as
 * sha256 of the whole key alike.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('kind').notNullable().defaultTo('secret');
    t.specificType('allowed_origins', 'text[]');
  });
  await knex.raw(`
    ALTER TABLE api_keys
      ADD CONSTRAINT api_keys_kind CHECK (kind IN ('secret', 'publishable')),
      ADD CONSTRAINT api_keys_allowed_origins CHECK (
        (kind = 'secret' AND allowed_origins IS NULL)
        OR (kind = 'publishable' AND cardinality(allowed_origins) >= 1)
      )
  `);
  // The preflight's lookup: the origins of the active publishable keys.
  await knex.raw(`CREATE INDEX api_keys_active_publishable ON api_keys (partner_id) WHERE kind = 'publishable' AND revoked_at IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS api_keys_active_publishable');
  await knex.raw(`DELETE FROM api_keys WHERE kind = 'publishable'`);
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropChecks(['api_keys_kind', 'api_keys_allowed_origins']);
    t.dropColumn('allowed_origins');
    t.dropColumn('kind');
  });
}
