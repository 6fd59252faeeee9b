/**
 * Whose offers and flight searches they are, and who reaches them (decisions §2, "Offer reach").
 *
 * A row belongs to a partner (made over REST with its API key), to a traveler (made by the traveler's
 * agent through the tools), or to both (a partner's agent). Who reaches what:
 * - a partner over REST, with its key alone: every offer and search of the partner, its travelers'
 *   agents' included;
 * - a traveler, through their agent or over REST with the partner's key and their token: their own,
 *   and an offer that belongs to no traveler yet, which the traveler then claims (see OfferService).
 *   Over REST the partner's key bounds this to the partner's offers; through the tools an unclaimed
 *   offer is reached by its id alone, whoever registered the agent: the id is an unguessable
 *   capability the partner hands on.
 * No one ever reaches another traveler's offer or search.
 */
import type { Knex } from 'knex';

export interface Owner {
  /** Over REST, the partner of the API key; through the tools, the partner of the agent's OAuth client, if any. */
  partnerId?: string | undefined;
  /** The traveler an access token stands for, when one acts. */
  userId?: string | undefined;
  /** Which door the call came through: over REST the partner's key bounds what a traveler reaches. */
  door: 'rest' | 'tools';
}

/** The owner columns of a new row. */
export function ownerColumns(owner: Owner): { partner_id: string | null; user_id: string | null } {
  return { partner_id: owner.partnerId ?? null, user_id: owner.userId ?? null };
}

/**
 * Narrows a query on offers to the rows `owner` reaches: for a traveler, their own and the unclaimed
 * ones (which they claim on use). An owner with neither id reaches nothing.
 */
export function offersReachedBy<Q extends Knex.QueryBuilder>(query: Q, owner: Owner): Q {
  if (!owner.userId) return byPartner(query, owner);
  query.where((where) => where.where('user_id', owner.userId as string).orWhereNull('user_id'));
  if (owner.door === 'rest') query.where('partner_id', owner.partnerId ?? null);
  return query;
}

/** Narrows a query on flight searches to the traveler's own (an agent's), or for a partner to the partner's. */
export function searchesReachedBy<Q extends Knex.QueryBuilder>(query: Q, owner: Owner): Q {
  return owner.userId ? (query.where('user_id', owner.userId) as Q) : byPartner(query, owner);
}

function byPartner<Q extends Knex.QueryBuilder>(query: Q, owner: Owner): Q {
  return (owner.partnerId ? query.where('partner_id', owner.partnerId) : query.whereRaw('false')) as Q;
}
