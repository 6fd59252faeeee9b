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
    // Insert-or-read, retried: a disconnect between the two steps would otherwise leave nothing to read.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [inserted] = await this.#db('pairwise_ids')
        .insert({ user_id: userId, client_id: clientId })
        .onConflict(['user_id', 'client_id'])
        .ignore()
        .returning('guid');
      if (inserted) return inserted.guid;
      const existing: { guid: string } | undefined = await this.#db('pairwise_ids')
        .where({ user_id: userId, client_id: clientId })
        .first('guid');
      if (existing) return existing.guid;
    }
    throw new Error(`The pairwise id of a traveler for client ${clientId} kept changing while it was read.`);
  }

  /** On disconnect: the next connection gets a new GUID, and the old one resolves to nobody. */
  async forget(userId: string, clientId: string, db: Knex = this.#db): Promise<void> {
    await db('pairwise_ids').where({ user_id: userId, client_id: clientId }).delete();
  }
}
