/**
 * Whose offers and flight searches they are. Through REST a partner owns them (its API key); through the
 * agent tools the traveler does, and the partner too when the agent is one of its OAuth clients (a
 * self-registered agent has no partner). A caller reaches what either of its owners owns.
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
    if (owner.partnerId) where.orWhere('partner_id', owner.partnerId);
    if (owner.userId) where.orWhere('user_id', owner.userId);
    if (!owner.partnerId && !owner.userId) where.whereRaw('false');
  }) as Q;
}
