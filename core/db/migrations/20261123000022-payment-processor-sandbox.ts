import type { Knex } from 'knex';

/**
 * The payment processor sandbox's state (providers/payments/sandbox.ts, Stripe PaymentIntents' dialect):
 * payment intents, their refunds, and the idempotency keys of the requests that made them. In the
 * database, so that every instance answers alike and a key guards against two instances at once. The card
 * itself is never stored: only its network and last four digits, as a processor's dashboard shows them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('processor_sandbox_payment_intents', (t) => {
    t.text('id').primary();
    // A digest of the API key that made it: each key is an account of its own and sees only its objects.
    t.text('account').notNullable();
    t.text('status').notNullable();
    t.bigInteger('amount').notNullable();
    t.bigInteger('amount_capturable').notNullable();
    t.bigInteger('amount_received').notNullable();
    t.text('currency').notNullable();
    t.text('capture_method').notNullable();
    t.text('payment_method').notNullable();
    t.text('latest_charge').notNullable().unique();
    t.text('card_brand');
    t.text('card_last4');
    t.text('description');
    t.jsonb('metadata').notNullable();
    t.text('cancellation_reason');
    t.jsonb('last_payment_error');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['account', 'created_at']);
  });
  await knex.schema.createTable('processor_sandbox_refunds', (t) => {
    t.text('id').primary();
    t.text('account').notNullable();
    t.text('payment_intent_id').notNullable().references('processor_sandbox_payment_intents.id').onDelete('CASCADE');
    t.bigInteger('amount').notNullable();
    t.text('currency').notNullable();
    t.text('status').notNullable();
    t.text('reason');
    t.jsonb('metadata').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['payment_intent_id']);
  });
  await knex.schema.createTable('processor_sandbox_idempotency_keys', (t) => {
    t.text('account').notNullable();
    t.text('idempotency_key').notNullable();
    // What the key was first used for (method, path, parameters): another use of it is refused.
    t.text('fingerprint').notNullable();
    // Null while the first request runs; then the answer every replay gives.
    t.integer('response_status');
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['account', 'idempotency_key']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('processor_sandbox_idempotency_keys');
  await knex.schema.dropTable('processor_sandbox_refunds');
  await knex.schema.dropTable('processor_sandbox_payment_intents');
}
