import type { Knex } from 'knex';

/**
 * Bookings (decisions §4 and §9): one row per booking attempt of a traveler, keyed by their idempotency
 * key, that moves through the saga's statuses one recorded step at a time. A process that runs a booking
 * holds its lease; a booking whose lease lapsed mid-saga is finished or compensated by the recovery
 * pass of any instance. Money is in integer minor units. Passengers and seats are kept per booking (the
 * booking's own copy), and refer to saved passengers, whose hard deletion that reference prevents.
 */
export async function up(knex: Knex): Promise<void> {
  // When the provider last priced the offer: a provider that requires pricing is priced before booking.
  await knex.schema.alterTable('offers', (t) => {
    t.timestamp('priced_at', { useTz: true });
  });
  await knex.schema.createTable('bookings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('RESTRICT');
    // The partner whose key or OAuth client made it (null for a self-registered agent), for the record.
    t.text('partner_id');
    t.text('client_id');
    t.text('idempotency_key').notNullable();
    // A digest of the request body: the same key with another body is an idempotency conflict.
    t.text('request_digest').notNullable();
    t.text('provider_id').notNullable().references('flight_providers.id');
    t.uuid('offer_id').references('offers.id').onDelete('SET NULL');
    t.text('provider_offer_id');
    // The offer as it was booked (normalized, with the provider's own): offers expire and are swept.
    t.jsonb('offer').notNullable();
    t.text('order_type').notNullable();
    t.text('status').notNullable();
    // Where the provider's order stands: held (to be paid), confirmed (paid, ticketed) or cancelled.
    t.text('provider_status');
    t.text('provider_order_id');
    // The order a retry after a price change paid: a provider whose payment step gives the order a new id
    // (provider_e's booking replaces its prebook) is still found by the id the price change named.
    t.text('retried_order_id');
    t.text('airline_pnr');
    t.timestamp('payment_required_by', { useTz: true });
    t.uuid('payment_method_id').references('payment_methods.id').onDelete('SET NULL');
    // The card's own copy: deleting the card never changes the booking's history (decisions §8).
    t.text('card_brand');
    t.text('card_last4');
    // The vault token the processor charges, sealed (context `bookings:<id>:vault_token`).
    t.text('vault_token');
    t.text('payment_intent_id');
    t.bigInteger('amount_minor').notNullable();
    t.text('currency').notNullable();
    // Which authorization this is: a retry after a price change authorizes anew under a new key.
    t.integer('attempt').notNullable().defaultTo(0);
    // A hold whose payment the traveler asked for: the saga captures and pays it.
    t.boolean('confirm_requested').notNullable().defaultTo(false);
    // Why it failed, as it was answered (kind, code, message, details; a price change's totals).
    t.jsonb('failure');
    t.text('lease_owner');
    t.timestamp('lease_expires_at', { useTz: true });
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.jsonb('contact').notNullable();
    // Chosen services of the offer ({id, quantity}), sent with the order.
    t.jsonb('services').notNullable().defaultTo('[]');
    t.text('trip_type');
    t.text('origin_city');
    t.text('origin_iata_code');
    t.text('destination_city');
    t.text('destination_iata_code');
    // Local times at the airport, without offset, as the offer gives them.
    t.timestamp('departure_date', { useTz: false });
    t.timestamp('return_date', { useTz: false });
    t.text('airline_name');
    t.text('airline_iata_code');
    t.text('airline_logo_url');
    t.integer('adult_count').notNullable();
    t.integer('child_count').notNullable();
    t.integer('infant_count').notNullable();
    t.bigInteger('refund_minor');
    t.text('refund_currency');
    t.text('cancellation_reason');
    t.timestamp('cancelled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['user_id', 'idempotency_key']);
    t.index(['user_id', 'created_at']);
    t.index(['provider_id', 'provider_order_id']);
    t.index(['provider_id', 'retried_order_id']);
  });
  await knex.raw(
    "ALTER TABLE bookings ADD CONSTRAINT bookings_status CHECK (status IN ('pending', 'payment_authorized', 'booking_created', 'payment_captured', 'failed', 'cancelled', 'confirmed'))",
  );
  await knex.raw("ALTER TABLE bookings ADD CONSTRAINT bookings_order_type CHECK (order_type IN ('instant', 'hold'))");
  await knex.raw('ALTER TABLE bookings ADD CONSTRAINT bookings_amount CHECK (amount_minor >= 0)');
  // The recovery pass looks for bookings in the middle of the saga whose lease lapsed.
  await knex.raw("CREATE INDEX bookings_in_flight ON bookings (lease_expires_at) WHERE status IN ('pending', 'payment_authorized', 'booking_created', 'payment_captured')");

  await knex.schema.createTable('booking_passengers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.uuid('user_passenger_id').references('user_passengers.id').onDelete('RESTRICT');
    t.text('provider_passenger_id').notNullable();
    t.text('traveler_type').notNullable();
    t.text('title');
    t.text('first_name').notNullable();
    t.text('middle_name');
    t.text('last_name').notNullable();
    t.date('date_of_birth').notNullable();
    t.text('gender');
    t.text('email');
    t.text('phone_number');
    t.text('nationality');
    // Identity documents and the known-traveler number, sealed (context `booking_passengers:<id>:documents`).
    t.text('documents_sealed');
    t.text('ticket_number');
    t.text('fare_basis_code');
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['booking_id', 'provider_passenger_id']);
  });

  await knex.schema.createTable('booking_seat_selections', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.uuid('booking_passenger_id').notNullable().references('booking_passengers.id').onDelete('CASCADE');
    t.uuid('user_passenger_id').references('user_passengers.id').onDelete('RESTRICT');
    t.text('segment_id').notNullable();
    t.text('seat_number').notNullable();
    t.text('seat_row');
    t.text('seat_column');
    t.decimal('price', 14, 3);
    t.text('currency');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['booking_id', 'segment_id', 'seat_number']);
  });

  // Every step of every booking, in order: what the saga did, and when.
  await knex.schema.createTable('booking_events', (t) => {
    t.bigIncrements('id');
    t.uuid('booking_id').notNullable().references('bookings.id').onDelete('CASCADE');
    t.text('status').notNullable();
    t.text('note');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['booking_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('booking_events');
  await knex.schema.dropTable('booking_seat_selections');
  await knex.schema.dropTable('booking_passengers');
  await knex.schema.dropTable('bookings');
  await knex.schema.alterTable('offers', (t) => {
    t.dropColumn('priced_at');
  });
}
