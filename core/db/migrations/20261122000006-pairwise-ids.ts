import type { Knex } from 'knex';

/**
 * The pairwise GUID (`svc_guid`) of each traveler for each OAuth client: random, stored, stable until
 * the traveler disconnects the client.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('pairwise_ids', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('client_id').notNullable();
    t.uuid('guid').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'client_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('pairwise_ids');
}
