import type { Knex } from 'knex';

/**
 * Flight searches (provider_d): what was asked and the provider's own results, so that a result can be
 * turned into an offer later by any instance. A search answers for 30 minutes, as its booking tokens do.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('flight_searches', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('provider_id').notNullable().references('flight_providers.id');
    t.uuid('partner_id').notNullable().references('partners.id').onDelete('CASCADE');
    t.jsonb('query').notNullable();
    t.jsonb('results').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('flight_searches');
}
