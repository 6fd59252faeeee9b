/**
 * An offer as the `offers` table keeps it, and as it is answered from there. The offer column keeps the
 * normalized offer without what is ours (id, times) or kept beside it (`raw_offer`), so that a read can
 * send it as stored, as JSON text (presentJson), without parsing it into objects and serializing them again.
 * The statements of the hot paths, the offer's insert, the partner's read and an agent's
 * (get_offer_details), are here, without the query builder.
 */
import type { Knex } from 'knex';
import { queryPlannedEachCall, queryPrepared } from '../db/prepared.js';
import type { Offer } from './offer-schemas.js';

export interface OfferRow {
  id: string;
  provider_id: string;
  provider_offer_id: string | null;
  priced_at: Date | null;
  user_id: string | null;
  offer: StoredOffer;
  raw_offer: Record<string, unknown>;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** What every read of an offer needs to decide whether the caller reaches it and whether it expired. */
export type ReachedRow = Pick<OfferRow, 'id' | 'user_id' | 'expires_at' | 'created_at' | 'updated_at'>;

/** The offer's stored JSON as text (`offer_json`), and the provider's own. */
export interface StoredJsonRow extends ReachedRow {
  offer_json: string;
  raw_json: string;
}

export type Columns = (string | Knex.Raw)[];

/** The offer column: see stored(). */
export type StoredOffer = Omit<Offer, 'raw_offer' | 'id' | 'created_at' | 'updated_at'>;

/** The columns of a read that leaves the provider's own offer out. */
export const WITHOUT_RAW = ['id', 'user_id', 'expires_at', 'created_at', 'updated_at', 'offer'];

/** The offer as it is answered: ours (id, times), the stored offer, and the provider's own. */
export function present(row: Pick<OfferRow, 'id' | 'offer' | 'raw_offer' | 'created_at' | 'updated_at'>): Offer {
  return { ...normalized(row), raw_offer: row.raw_offer };
}

export function normalized(row: Pick<OfferRow, 'id' | 'offer' | 'created_at' | 'updated_at'>): Offer {
  const ours = { id: row.id, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
  // Ours first, as presentJson writes them, and again after the stored offer: one kept before stored()
  // left them out still has the provider's id and times.
  return { ...ours, ...row.offer, ...ours };
}

/** present() as JSON text, made of the stored JSON as it is. */
export function presentJson(row: StoredJsonRow): string {
  // An offer kept before the column left out what is ours (jsonb writes the shortest key, "id", first).
  if (row.offer_json.startsWith('{"id"')) {
    return JSON.stringify(present({ ...row, offer: JSON.parse(row.offer_json), raw_offer: JSON.parse(row.raw_json) }));
  }
  const ours = `{"id":${JSON.stringify(row.id)},"created_at":"${row.created_at.toISOString()}","updated_at":"${row.updated_at.toISOString()}"`;
  return `${ours},${row.offer_json.slice(1, -1)},"raw_offer":${row.raw_json}}`;
}

// getProviderOffer's read, a partner's offer by its key alone (owner.ts reaches it by partner), without the
// query builder, which cost more than the database; planned at each call (see queryPlannedEachCall).
const STORED_JSON_OF_PARTNER = `SELECT id, user_id, expires_at, created_at, updated_at, offer::text AS offer_json, raw_offer::text AS raw_json
  FROM offers WHERE id = $1::uuid AND provider_id = $2::text AND partner_id = $3::uuid`;

/** The partner's offer `offerId` of `providerId`, its JSON as stored; undefined when the partner has none. */
export async function storedJsonOfPartner(db: Knex, offerId: string, providerId: string, partnerId: string): Promise<StoredJsonRow | undefined> {
  const [row] = await queryPlannedEachCall<StoredJsonRow>(db, STORED_JSON_OF_PARTNER, [offerId, providerId, partnerId]);
  return row;
}

// An agent's read of an offer (get_offer_details): the traveler's own or one no traveler has
// claimed yet (owner.ts), without the provider's copy; one statement without the query builder, planned
// at each call as the partner's read above.
const OFFER_OF_TRAVELER = `SELECT ${WITHOUT_RAW.join(', ')} FROM offers
  WHERE id = $1::uuid AND provider_id = $2::text AND (user_id = $3::uuid OR user_id IS NULL)`;

/** The offer `offerId` of `providerId` that the traveler `userId` reaches through the tools, without `raw_offer`. */
export async function offerOfTraveler(db: Knex, offerId: string, providerId: string, userId: string): Promise<Omit<OfferRow, 'raw_offer'> | undefined> {
  const [row] = await queryPlannedEachCall<Omit<OfferRow, 'raw_offer'>>(db, OFFER_OF_TRAVELER, [offerId, providerId, userId]);
  return row;
}

const INSERT_OFFER = `INSERT INTO offers (provider_id, provider_offer_id, partner_id, user_id, offer, raw_offer, expires_at, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`;

/** A new offer's row (createProviderOffer, create_offer), as a prepared statement: its id. */
export async function insertOffer(
  db: Knex,
  row: Pick<OfferRow, 'provider_id' | 'provider_offer_id' | 'user_id' | 'expires_at' | 'created_at'> & { partner_id: string | null; offer: string; raw_offer: string },
): Promise<string> {
  const values = [row.provider_id, row.provider_offer_id, row.partner_id, row.user_id, row.offer, row.raw_offer, row.expires_at, row.created_at];
  const [inserted] = await queryPrepared<{ id: string }>(db, 'offers_insert', INSERT_OFFER, values);
  return (inserted as { id: string }).id;
}

/** What the offer column keeps: the normalized offer without what is kept beside it or is ours. */
export function stored(offer: Offer): StoredOffer {
  const { raw_offer: _raw, id: _id, created_at: _created, updated_at: _updated, ...rest } = offer;
  return rest;
}
