import type { Knex } from 'knex';

/**
 * One-time sign-in codes, one per sign-in attempt (an authorization request's interaction). Only a hash
 * of the code is kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sign_in_codes', (t) => {
    t.text('attempt_id').primary();
    t.text('email').notNullable();
    t.binary('code_hash').notNullable();
    t.integer('digits').notNullable();
    t.integer('failed_tries').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sign_in_codes');
}
