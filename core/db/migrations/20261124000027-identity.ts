import type { Knex } from 'knex';

/**
 * Airline identity recognition (Identity endpoints, decisions §5 and §11).
 * - `recognition_tokens`: the short-lived, single-use tokens the recognition frame mints for one traveler
 *   and one client. Only a SHA-256 digest of each token is kept: the token itself is a bearer secret.
 * - `loyalty_links`: a loyalty membership an airline (an OAuth client) linked to one of its travelers.
 *   Keyed by traveler and client, not by the pairwise GUID, so that the association survives a disconnect
 *   and reconnect (the Loyalty link state table); the account reference is sealed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('recognition_tokens', (t) => {
    t.text('token_digest').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('client_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['user_id', 'client_id']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('loyalty_links', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('client_id').notNullable();
    t.text('program_code').notNullable();
    t.text('member_number').notNullable();
    t.text('airline_name').notNullable();
    t.text('airline_iata_code');
    // Sealed with the data encryption key (decisions §1); never returned.
    t.text('loyalty_account_ref_sealed').notNullable();
    t.text('verification_method').notNullable();
    t.text('tier_status');
    t.decimal('points', 20, 2);
    t.timestamp('linked_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['user_id', 'client_id', 'program_code']);
  });
  await knex.raw(
    `ALTER TABLE loyalty_links ADD CONSTRAINT loyalty_links_verification_method_check CHECK (verification_method IN ('member_otp', 'loyalty_session', 'enrollment'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('loyalty_links');
  await knex.schema.dropTable('recognition_tokens');
}
