import type { Knex } from 'knex';

/**
 * Which of the traveler's saved passengers travels as which passenger of an offer (the provider's id
 * inside the offer). Saved passengers arrive with the traveler's account (issue 6); until then the
 * mapping is kept as given.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('offer_passengers', (t) => {
    t.uuid('offer_id').notNullable().references('offers.id').onDelete('CASCADE');
    t.text('provider_passenger_id').notNullable();
    t.uuid('user_passenger_id').notNullable();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['offer_id', 'provider_passenger_id']);
    t.unique(['offer_id', 'user_passenger_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('offer_passengers');
}
