import type { Knex } from 'knex';

/**
 * A contact change refused at initiate because the new e-mail belongs to another account is kept as a
 * `refused` row: it counts against the traveler's 5 starts an hour, so that initiate cannot be used to
 * probe, without bound, which addresses have accounts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE contact_changes DROP CONSTRAINT contact_changes_stage');
  await knex.raw(`ALTER TABLE contact_changes ADD CONSTRAINT contact_changes_stage CHECK (stage IN ('current_contact', 'new_contact', 'done', 'superseded', 'refused'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex('contact_changes').where({ stage: 'refused' }).delete();
  await knex.raw('ALTER TABLE contact_changes DROP CONSTRAINT contact_changes_stage');
  await knex.raw(`ALTER TABLE contact_changes ADD CONSTRAINT contact_changes_stage CHECK (stage IN ('current_contact', 'new_contact', 'done', 'superseded'))`);
}
