import type { Knex } from 'knex';

/**
 * What the authorization server (oidc-provider) stores: sessions, interactions, codes, refresh tokens,
 * grants, registered clients. One table keyed by (kind, id) with the payload as jsonb; the columns beside
 * it are the payload fields the server looks rows up by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_models', (t) => {
    t.text('kind').notNullable();
    t.text('id').notNullable();
    // Text, not jsonb: payloads copy request parameters, and jsonb refuses a \u0000 in them.
    t.text('payload').notNullable();
    t.text('grant_id');
    t.text('account_id');
    t.text('uid');
    t.text('user_code');
    t.text('client_id');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('consumed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['kind', 'id']);
    t.index(['grant_id']);
    t.index(['uid']);
    t.index(['user_code']);
    t.index(['client_id']);
    // Consent is remembered per traveler and client: the grant is found by both.
    t.index(['kind', 'account_id', 'client_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oidc_models');
}
