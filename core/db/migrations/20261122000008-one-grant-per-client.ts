import type { Knex } from 'knex';

/**
 * One consent record (oidc-provider Grant) per traveler and client: two first consents at once (two
 * tabs) must not leave two grants, or a later toggle would reach only one of them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE UNIQUE INDEX oidc_models_one_grant_per_client ON oidc_models (account_id, client_id) WHERE kind = 'Grant'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX oidc_models_one_grant_per_client');
}
