import type { Knex } from 'knex';

/**
 * The orders the five flight provider sandboxes hold (providers/flights/sandbox-orders.ts). In the
 * database, so that any instance can retrieve, pay or cancel what another one booked. Each sandbox keeps
 * its order in its own native shape (`document`); the columns are what every sandbox looks orders up by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('flight_sandbox_orders', (t) => {
    t.text('provider_id').notNullable();
    // The provider's own id of the order (Amadeus' opaque id, Duffel's ord_..., NDC's OrderID, ...).
    t.text('id').notNullable();
    // The client reference the order was placed with: a second create with it returns this order.
    t.text('reference');
    t.text('status').notNullable();
    t.jsonb('document').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['provider_id', 'id']);
    t.unique(['provider_id', 'reference']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('flight_sandbox_orders');
}
