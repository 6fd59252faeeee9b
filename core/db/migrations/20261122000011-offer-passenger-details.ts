import type { Knex } from 'knex';

/**
 * Passenger details for providers that take them only with the order (provider_a): kept per offer
 * passenger until the booking sends them. Identity documents are sealed (core/crypto/secret-box.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('offer_passenger_details', (t) => {
    t.uuid('offer_id').notNullable().references('offers.id').onDelete('CASCADE');
    t.text('provider_passenger_id').notNullable();
    t.jsonb('details').notNullable();
    t.text('documents_sealed');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['offer_id', 'provider_passenger_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('offer_passenger_details');
}
