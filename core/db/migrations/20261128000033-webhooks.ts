import type { Knex } from 'knex';

/**
 * Webhooks (decisions §14). A partner's endpoints, with their signing secret sealed (SecretBox); the
 * events, written in the transaction of the change that causes them, with the payload's `data` as it
 * was then; one delivery per event and endpoint subscribed to it when it happened; and every attempt of
 * a delivery, for the delivery log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary();
    t.uuid('partner_id').notNullable().references('partners.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('description');
    t.text('secret_sealed').notNullable();
    // enabled, or disabled: by the receiver (410 Gone) or after five days of failures.
    t.text('status').notNullable();
    t.text('disabled_reason');
    t.timestamp('disabled_at', { useTz: true });
    // The first failed attempt since the last success: five days of them disable the endpoint.
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['partner_id', 'created_at']);
  });
  await knex.raw("ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_status CHECK (status IN ('enabled', 'disabled'))");

  await knex.schema.createTable('webhook_events', (t) => {
    t.text('id').primary();
    t.uuid('partner_id').notNullable().references('partners.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['partner_id', 'created_at']);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.text('event_id').notNullable().references('webhook_events.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    // pending (an attempt is due), succeeded, or failed (no attempt left, or the endpoint was disabled).
    t.text('status').notNullable();
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.integer('last_status_code');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['event_id', 'endpoint_id']);
    t.index(['endpoint_id', 'created_at']);
  });
  await knex.raw("ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status CHECK (status IN ('pending', 'succeeded', 'failed'))");

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.uuid('id').primary();
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    // automatic (the schedule), retry (the partner asked), or test.
    t.text('trigger').notNullable();
    t.integer('status_code');
    t.text('error');
    t.integer('duration_ms').notNullable();
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.index(['delivery_id', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_events');
  await knex.schema.dropTable('webhook_endpoints');
}
