import type { Knex } from 'knex';

/**
 * A traveler's preferences: locale (defaults when never set), travel (none until set), and when the
 * security preference (users.sms_sign_in) was last changed. One row per traveler, made on the first set.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_preferences', (t) => {
    t.uuid('user_id').primary().references('users.id').onDelete('CASCADE');
    t.text('language_code');
    t.text('region_code');
    t.text('currency_code');
    t.timestamp('locale_updated_at', { useTz: true });
    t.jsonb('travel');
    t.timestamp('travel_updated_at', { useTz: true });
    t.timestamp('security_updated_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_preferences');
}
