import type { Knex } from 'knex';

/**
 * The card vault sandbox's state (providers/vault/), in the database so that every instance of the
 * service serves one vault. Card numbers and security codes are kept only sealed (AES-256-GCM under the
 * vault's own key), never in clear; the vault's fingerprint key is kept sealed too. Session keys are kept
 * as digests only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('vault_sandbox_keys', (t) => {
    t.text('name').primary();
    t.text('sealed_key').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('vault_sandbox_tokens', (t) => {
    t.uuid('id').primary();
    t.text('sealed_number').notNullable();
    // Erased at the first detokenization: no security code is kept after an authorization.
    t.text('sealed_cvc');
    t.text('brand').notNullable();
    t.string('last4', 4).notNullable();
    t.smallint('expiration_month').notNullable();
    t.smallint('expiration_year').notNullable();
    t.text('fingerprint').notNullable().index();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.text('owner');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('modified_at', { useTz: true });
  });
  await knex.schema.createTable('vault_sandbox_sessions', (t) => {
    t.binary('key_digest').primary();
    t.text('owner').notNullable();
    t.text('origin').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('vault_sandbox_sessions');
  await knex.schema.dropTable('vault_sandbox_tokens');
  await knex.schema.dropTable('vault_sandbox_keys');
}
