import type { Knex } from 'knex';

/**
 * The networks (IPv4 /24, IPv6 /64) a traveler has signed in from: a flood of sign-in codes to their
 * address from strangers' networks never locks them out of signing in from one of these.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sign_in_networks', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('network').notNullable();
    t.timestamp('last_signed_in_at', { useTz: true }).notNullable();
    t.primary(['user_id', 'network']);
    t.index(['last_signed_in_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sign_in_networks');
}
