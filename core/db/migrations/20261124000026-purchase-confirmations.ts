import type { Knex } from 'knex';

/**
 * Purchases an agent may make (decisions §10). A purchase through the tools waits for the traveler's
 * confirmation on our hosted page: one row per confirmation request, bound to the traveler, the agent's
 * client and a fingerprint of exactly what is bought (offer version, total, passengers, selections,
 * card), with what the page shows kept as it was asked. It is decided once (confirmed or declined) and a
 * confirmed one is used by one booking at most. Spending limits are the traveler's caps per connected
 * agent, in minor units of one currency.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('purchase_confirmations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('client_id').notNullable();
    t.text('provider_id').notNullable();
    t.uuid('offer_id').notNullable();
    // A digest of everything the purchase is: any drift (price, passengers, selections, card) misses it.
    t.text('fingerprint').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.text('currency').notNullable();
    // What the hosted page shows, from our own records as they were when confirmation was asked.
    t.jsonb('summary').notNullable();
    // pending → confirmed | declined; confirmed → used (by booking_id).
    t.text('status').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('decided_at', { useTz: true });
    t.timestamp('used_at', { useTz: true });
    t.uuid('booking_id').references('bookings.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['user_id', 'client_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE purchase_confirmations ADD CONSTRAINT purchase_confirmations_status_check CHECK (status IN ('pending', 'confirmed', 'declined', 'used'))`);

  await knex.schema.createTable('agent_spending_limits', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('client_id').notNullable();
    t.text('currency').notNullable();
    // Null: no cap of that kind.
    t.bigInteger('per_booking_minor');
    t.bigInteger('per_30_days_minor');
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['user_id', 'client_id']);
  });
  // The rolling 30 days sum what one agent booked for one traveler.
  await knex.schema.alterTable('bookings', (t) => {
    t.index(['user_id', 'client_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (t) => {
    t.dropIndex(['user_id', 'client_id', 'created_at']);
  });
  await knex.schema.dropTable('agent_spending_limits');
  await knex.schema.dropTable('purchase_confirmations');
}
