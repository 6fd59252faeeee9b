import type { Knex } from 'knex';

/**
 * Checkout sessions (decisions §12): one offer of a partner opened in the hosted checkout for a page of
 * one origin. In the database, so that every instance serves every session. The client secret is kept
 * as a SHA-256 digest only. `status` is what was written (open, complete, failed); a session still open
 * past `expires_at` reads as expired. Sessions that never completed are swept a day after they expire;
 * a complete one stays, the record of a sale beside its booking.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('checkout_sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('partner_id').notNullable().references('partners.id').onDelete('CASCADE');
    // The key that opened it (secret or publishable), for the record.
    t.uuid('key_id').references('api_keys.id').onDelete('SET NULL');
    t.text('provider_id').notNullable().references('flight_providers.id');
    t.uuid('offer_id').notNullable().references('offers.id').onDelete('CASCADE');
    // Exactly as a browser sends Origin: the only page that may frame the checkout.
    t.text('origin').notNullable();
    // The checkout button's iataCode (x-customer-id), copied to the booking's metadata.iata_code.
    t.text('customer_id').notNullable();
    t.boolean('is_prod').notNullable();
    t.binary('client_secret_hash').notNullable();
    t.text('status').notNullable();
    t.text('failure_reason');
    t.uuid('booking_id').references('bookings.id').onDelete('RESTRICT');
    t.text('airline_pnr');
    // The offer's total while open; the booking's once complete. Numeric without scale keeps the currency's minor units.
    t.specificType('total_amount', 'numeric').notNullable();
    t.text('currency').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['partner_id', 'created_at']);
    t.unique(['booking_id']);
  });
  await knex.raw("ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_status CHECK (status IN ('open', 'complete', 'expired', 'failed'))");
  await knex.raw("ALTER TABLE checkout_sessions ADD CONSTRAINT checkout_sessions_complete CHECK (status <> 'complete' OR booking_id IS NOT NULL)");
  // The sweep of sessions that expired without a sale.
  await knex.raw("CREATE INDEX checkout_sessions_unsold_expiry ON checkout_sessions (expires_at) WHERE status <> 'complete'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('checkout_sessions');
}
