import type { Knex } from 'knex';

/**
 * The hosted checkout's state on its session (decisions §12):
 * - the traveler signed in inside the frame (e-mail code) and the digest of the traveler token the frame
 *   holds for them: the client secret opens the page, but only this token acts as the traveler;
 * - the booking attempts: one at a time per session (`paying_until`, a lease a pay holds while it books,
 *   so that a double submit books once); attempt n books under the idempotency key
 *   `checkout_<session id>_<n>` of `attempt_user_id`, and a new attempt starts only after the last one
 *   failed (a declined card), so a reload or a second click answers the booking already made.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkout_sessions', (t) => {
    t.uuid('traveler_id').references('users.id').onDelete('SET NULL');
    t.binary('traveler_token_hash');
    t.integer('booking_attempt').notNullable().defaultTo(0);
    t.uuid('attempt_user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('paying_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkout_sessions', (t) => {
    t.dropColumn('paying_until');
    t.dropColumn('attempt_user_id');
    t.dropColumn('booking_attempt');
    t.dropColumn('traveler_token_hash');
    t.dropColumn('traveler_id');
  });
}
