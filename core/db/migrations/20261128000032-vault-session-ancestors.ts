import type { Knex } from 'knex';

/**
 * The card vault sandbox's sessions may name the pages that frame the hosted fields' own framing page
 * (the partner page around the hosted checkout): browsers check `frame-ancestors` against every ancestor.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE vault_sandbox_sessions ADD COLUMN frame_ancestors text[] NOT NULL DEFAULT '{}'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('vault_sandbox_sessions', (t) => t.dropColumn('frame_ancestors'));
}
