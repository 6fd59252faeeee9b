import type { Knex } from 'knex';

/**
 * A traveler's saved payment methods (decisions §8). The service keeps only the network, last four
 * digits, expiry and default flag; the card itself lives in the card vault, reached by its token id,
 * which is sealed here (context bound to the row) beside an HMAC of it: one vault token saves one card.
 * Legacy rows (imported from the previous processor) have no vault token; their old references are sealed
 * too. At most one default per traveler.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_methods', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('method_type').notNullable();
    t.text('brand').notNullable();
    t.text('last4').notNullable();
    t.smallint('exp_month').notNullable();
    t.smallint('exp_year').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.text('vault_token');
    t.text('vault_token_digest').unique();
    t.text('fingerprint');
    t.text('legacy_reference');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
  await knex.raw(`ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_method_type CHECK (method_type IN ('credit_card', 'apple_pay', 'google_pay', 'pay_later'))`);
  await knex.raw(`ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_brand CHECK (brand IN ('visa', 'mastercard', 'amex', 'discover'))`);
  await knex.raw(`ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_last4 CHECK (last4 ~ '^[0-9]{4}$')`);
  await knex.raw('ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_exp_month CHECK (exp_month BETWEEN 1 AND 12)');
  await knex.raw('ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_exp_year CHECK (exp_year BETWEEN 2024 AND 2050)');
  // A vault-backed card has both its sealed token and the token's digest; a legacy row has neither.
  await knex.raw('ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_vault_token CHECK ((vault_token IS NULL) = (vault_token_digest IS NULL))');
  await knex.raw('CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (user_id) WHERE is_default');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_methods');
}
