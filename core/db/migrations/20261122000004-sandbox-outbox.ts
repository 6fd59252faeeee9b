import type { Knex } from 'knex';

/** What the mail and SMS sandboxes have "delivered", so that a developer or a test can read it back. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sandbox_outbox', (t) => {
    t.bigIncrements('id');
    t.text('channel').notNullable();
    t.text('recipient').notNullable();
    t.text('subject');
    t.text('body').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['channel', 'recipient', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sandbox_outbox');
}
