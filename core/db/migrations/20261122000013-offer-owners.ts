import type { Knex } from 'knex';

/**
 * Offers and flight searches made through the agent tools belong to the traveler who made them, and to
 * the partner too when the agent is a partner's client; a self-registered agent has no partner. Either
 * owner is enough, never none.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['offers', 'flight_searches']) {
    await knex.schema.alterTable(table, (t) => {
      t.uuid('partner_id').nullable().alter();
      t.uuid('user_id').nullable().references('users.id').onDelete('CASCADE');
      t.index(['user_id']);
      t.check('partner_id IS NOT NULL OR user_id IS NOT NULL', [], `${table}_owned`);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['offers', 'flight_searches']) {
    await knex(table).whereNull('partner_id').delete();
    await knex.schema.alterTable(table, (t) => {
      t.dropChecks([`${table}_owned`]);
      t.dropColumn('user_id');
      t.uuid('partner_id').notNullable().alter();
    });
  }
}
