/**
 * Whose offers and flight searches they are. Through REST a partner owns them (its API key); through the
 * agent tools the traveler does, with the partner of the agent's OAuth client beside it (a self-registered
 * agent has none).
 *
 * Who reaches what:
 * - a partner over REST: every offer and search of the partner, its travelers' agents' included;
 * - a traveler's agent: the traveler's own, and the partner's that belong to no traveler (made over REST
 *   for the partner's agents to use), never another traveler's.
 */
import type { Knex } from 'knex';

export interface Owner {
  partnerId?: string | undefined;
  userId?: string | undefined;
}

/** The owner columns of a new row. */
export function ownerColumns(owner: Owner): { partner_id: string | null; user_id: string | null } {
  return { partner_id: owner.partnerId ?? null, user_id: owner.userId ?? null };
}

/** Narrows `query` to the rows `owner` may reach; an owner with neither id reaches nothing. */
export function ownedBy<Q extends Knex.QueryBuilder>(query: Q, owner: Owner): Q {
  return query.where((where) => {
    if (owner.userId) {
      where.orWhere('user_id', owner.userId);
      if (owner.partnerId) where.orWhere((shared) => shared.where('partner_id', owner.partnerId as string).whereNull('user_id'));
    } else if (owner.partnerId) {
      where.orWhere('partner_id', owner.partnerId);
    } else {
      where.whereRaw('false');
    }
  }) as Q;
}
