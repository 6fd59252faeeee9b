/**
 * Where the flight provider sandboxes keep their orders: one table for the five, each order in its
 * provider's own native shape. Rows in, rows out; each sandbox's rules stay in its sandbox.ts.
 */
import type { Knex } from 'knex';

export interface SandboxOrder<Document> {
  id: string;
  reference: string | null;
  status: string;
  document: Document;
  createdAt: Date;
  updatedAt: Date;
}

/** What a flight sandbox is built with. */
export interface FlightSandboxDeps {
  db: Knex;
  clock: { now(): Date };
}

const TABLE = 'flight_sandbox_orders';

export class SandboxOrders<Document> {
  constructor(
    private readonly db: Knex,
    private readonly providerId: string,
    private readonly clock: { now(): Date },
  ) {}

  /**
   * Stores a new order, unless one was already placed with `reference`: then that one comes back, and
   * `created` is false (a client repeating its create gets its first order, not a second).
   */
  async create(order: { id: string; reference: string | null; status: string; document: Document }): Promise<{ order: SandboxOrder<Document>; created: boolean }> {
    const now = this.clock.now();
    const [row] = await this.db(TABLE)
      .insert({ provider_id: this.providerId, id: order.id, reference: order.reference, status: order.status, document: JSON.stringify(order.document), created_at: now, updated_at: now })
      .onConflict(['provider_id', 'reference'])
      .ignore()
      .returning('*');
    if (row) return { order: present<Document>(row), created: true };
    const existing = order.reference === null ? undefined : await this.byReference(order.reference);
    if (!existing) throw new Error(`sandbox order ${order.id} was neither stored nor found`);
    return { order: existing, created: false };
  }

  async get(id: string): Promise<SandboxOrder<Document> | undefined> {
    const row = await this.db(TABLE).where({ provider_id: this.providerId, id }).first();
    return row ? present<Document>(row) : undefined;
  }

  async byReference(reference: string): Promise<SandboxOrder<Document> | undefined> {
    const row = await this.db(TABLE).where({ provider_id: this.providerId, reference }).first();
    return row ? present<Document>(row) : undefined;
  }

  /**
   * Changes an order only if it is still in one of the statuses `from`: of two requests racing (two
   * payments, a payment and a cancel), one wins and the other reads the order again. Undefined when the
   * order was not in `from` (or does not exist).
   */
  async transition(id: string, from: string[], to: { status: string; document: Document }): Promise<SandboxOrder<Document> | undefined> {
    const [row] = await this.db(TABLE)
      .where({ provider_id: this.providerId, id })
      .whereIn('status', from)
      .update({ status: to.status, document: JSON.stringify(to.document), updated_at: this.clock.now() })
      .returning('*');
    return row ? present<Document>(row) : undefined;
  }
}

function present<Document>(row: { id: string; reference: string | null; status: string; document: Document; created_at: Date; updated_at: Date }): SandboxOrder<Document> {
  return { id: row.id, reference: row.reference, status: row.status, document: row.document, createdAt: row.created_at, updatedAt: row.updated_at };
}
