import type { Knex } from 'knex';

/** The traveler's choice to receive sign-in codes by SMS (only honoured with a verified phone). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('sms_sign_in').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('sms_sign_in');
  });
}
