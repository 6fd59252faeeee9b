import type { Knex } from 'knex';

/** Travelers: created on their first sign-in, read and edited through the profile routes. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('email').notNullable();
    t.text('phone_number');
    t.boolean('phone_verified').notNullable().defaultTo(false);
    t.text('first_name');
    t.text('middle_name');
    t.text('last_name');
    t.text('suffix');
    t.date('date_of_birth');
    t.text('gender');
    t.text('known_traveler_number');
    t.text('profile_photo_url');
    // Administrators may act on other travelers with an unscoped token (decisions §2).
    t.boolean('is_admin').notNullable().defaultTo(false);
    t.timestamp('last_login', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // One account per address, whatever its case.
  await knex.raw('CREATE UNIQUE INDEX users_email_unique ON users (lower(email))');
  await knex.raw(`ALTER TABLE users ADD CONSTRAINT users_gender CHECK (gender IN ('male', 'female'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
