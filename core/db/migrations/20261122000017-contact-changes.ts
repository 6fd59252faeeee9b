import type { Knex } from 'knex';

/**
 * Changes of a traveler's e-mail or phone, in three steps: a code to the current e-mail (proving it is
 * them), then a code to the new contact (proving it is theirs), then the change. Codes are kept as HMACs,
 * as sign-in codes are; so is the step's access token.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contact_changes', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('contact_type').notNullable();
    t.text('new_value').notNullable();
    t.text('stage').notNullable();
    t.binary('code_hash').notNullable();
    t.integer('failed_tries').notNullable().defaultTo(0);
    t.binary('access_token_hash');
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
  await knex.raw(`ALTER TABLE contact_changes ADD CONSTRAINT contact_changes_stage CHECK (stage IN ('current_contact', 'new_contact', 'done', 'superseded'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('contact_changes');
}
