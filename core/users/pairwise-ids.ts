/**
 * One random GUID per (traveler, client) (decisions §5): what a client, and an airline's recognition
 * surface, knows the traveler by. Never derived from the user id; a new one after the traveler
 * disconnects the client and connects it again.
 */
import type { Knex } from 'knex';

export class PairwiseIds {
  readonly #db: Knex;

  constructor(db: Knex) {
    this.#db = db;
  }

  /** The traveler's GUID for this client, created on first use; concurrent first uses agree. */
  async guidFor(userId: string, clientId: string): Promise<string> {
    const [inserted] = await this.#db('pairwise_ids')
      .insert({ user_id: userId, client_id: clientId })
      .onConflict(['user_id', 'client_id'])
      .ignore()
      .returning('guid');
    if (inserted) return inserted.guid;
    const existing: { guid: string } = await this.#db('pairwise_ids').where({ user_id: userId, client_id: clientId }).first('guid');
    return existing.guid;
  }

  /** On disconnect: the next connection gets a new GUID, and the old one resolves to nobody. */
  async forget(userId: string, clientId: string, db: Knex = this.#db): Promise<void> {
    await db('pairwise_ids').where({ user_id: userId, client_id: clientId }).delete();
  }
}
