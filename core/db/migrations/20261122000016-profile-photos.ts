import type { Knex } from 'knex';

/**
 * Profile photos, in the database: every instance serves every traveler's photo without a shared disk.
 * At most 5 MiB each, JPEG, PNG or WebP (checked from the bytes before they get here).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('profile_photos', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.text('content_type').notNullable();
    t.binary('bytes').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('profile_photos');
}
