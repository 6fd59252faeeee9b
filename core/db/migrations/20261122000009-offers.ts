import type { Knex } from 'knex';

/**
 * Offers a partner handed us (createProviderOffer): the normalized Offer and the provider's own, as given.
 * An offer belongs to the partner that created it; after `expires_at` it is kept but answers 410.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('offers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('provider_id').notNullable().references('flight_providers.id');
    t.text('provider_offer_id').notNullable();
    t.uuid('partner_id').notNullable().references('partners.id').onDelete('CASCADE');
    t.jsonb('offer').notNullable();
    t.jsonb('raw_offer').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['partner_id', 'provider_id', 'provider_offer_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('offers');
}
