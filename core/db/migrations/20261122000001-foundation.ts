import type { Knex } from 'knex';

/** Partners, their API keys and usage plans, and the flight providers' reference data. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('usage_plans', (t) => {
    t.text('id').primary();
    t.integer('requests_per_second').notNullable();
    t.integer('burst').notNullable();
    t.integer('requests_per_day').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`
    ALTER TABLE usage_plans
      ADD CONSTRAINT usage_plans_positive CHECK (requests_per_second > 0 AND requests_per_day > 0),
      ADD CONSTRAINT usage_plans_burst CHECK (burst >= requests_per_second)
  `);

  await knex.schema.createTable('partners', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('plan_id').notNullable().references('usage_plans.id').onDelete('RESTRICT');
    // null: every partner route; otherwise the operation ids this partner may call.
    t.specificType('allowed_operations', 'text[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('partner_id').notNullable().references('partners.id').onDelete('CASCADE');
    // The visible part of the key, unique, used to find the row; the secret is only kept as a hash.
    t.text('prefix').notNullable().unique();
    t.binary('secret_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['partner_id']);
  });

  await knex.schema.createTable('flight_providers', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('type').notNullable();
    t.jsonb('capabilities').notNullable();
    t.jsonb('config').notNullable().defaultTo('{}');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('priority').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('flight_providers');
  await knex.schema.dropTable('api_keys');
  await knex.schema.dropTable('partners');
  await knex.schema.dropTable('usage_plans');
}
