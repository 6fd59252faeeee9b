import type { Knex } from 'knex';

/**
 * A traveler's saved passengers and their identity documents. Passengers are soft-deleted (bookings will
 * refer to them); a traveler has at most one default passenger among those not deleted. Document numbers
 * are sealed at rest (AES-256-GCM, core/crypto/secret-box.ts); documents that expire must say when.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_passengers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('first_name').notNullable();
    t.text('middle_name');
    t.text('last_name').notNullable();
    t.text('gender').notNullable();
    t.date('date_of_birth').notNullable();
    t.text('email');
    t.text('phone_number');
    t.text('nationality');
    // Stated by the traveler; null when it is derived from the date of birth at read time.
    t.text('traveler_type');
    t.boolean('is_default').notNullable().defaultTo(false);
    t.timestamp('deleted_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
  await knex.raw(`ALTER TABLE user_passengers ADD CONSTRAINT user_passengers_gender CHECK (gender IN ('male', 'female'))`);
  await knex.raw(`ALTER TABLE user_passengers ADD CONSTRAINT user_passengers_traveler_type CHECK (traveler_type IN ('adult', 'child', 'infant'))`);
  await knex.raw('CREATE UNIQUE INDEX user_passengers_one_default ON user_passengers (user_id) WHERE is_default AND deleted_at IS NULL');

  await knex.schema.createTable('identity_documents', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_passenger_id').notNullable().references('user_passengers.id').onDelete('CASCADE');
    t.text('document_type').notNullable();
    t.text('document_number_sealed').notNullable();
    t.text('issuing_country_code').notNullable();
    t.text('issuing_authority');
    t.date('issued_date');
    t.date('expires_on');
    t.text('nationality_on_document');
    t.text('birth_country');
    t.boolean('is_primary').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_passenger_id']);
  });
  await knex.raw(
    `ALTER TABLE identity_documents ADD CONSTRAINT identity_documents_type CHECK (document_type IN ('passport', 'visa', 'drivers_license', 'national_id', 'known_traveler_number', 'redress_number', 'tax_id'))`,
  );
  await knex.raw(
    `ALTER TABLE identity_documents ADD CONSTRAINT identity_documents_expiry CHECK (expires_on IS NOT NULL OR document_type NOT IN ('passport', 'visa', 'drivers_license'))`,
  );
  await knex.raw('CREATE UNIQUE INDEX identity_documents_one_primary ON identity_documents (user_passenger_id, document_type) WHERE is_primary');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('identity_documents');
  await knex.schema.dropTable('user_passengers');
}
