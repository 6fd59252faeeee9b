/**
 * The read of an offer a booking makes (OfferService.bookable), as one statement without the query
 * builder (planned at each call: see queryPlannedEachCall): the offer as its traveler reaches it
 * (owner.ts), claimed by them in the same statement when it was no traveler's yet, with the saved
 * passengers said for it. It was three statements through the query builder on every booking (issue 25).
 */
import type { Knex } from 'knex';
import { queryPlannedEachCall } from '../db/prepared.js';
import type { OfferRow } from './offer-rows.js';
import type { Owner } from './owner.js';

export interface BookableRow extends OfferRow {
  /** Whether this statement claimed the offer for the traveler. */
  claimed: boolean;
  saved_passengers: { provider_passenger_id: string; user_passenger_id: string }[];
}

// The reach of offersReachedBy for a traveler: their own or no traveler's yet, and over REST the key's
// partner's only. The claim is offers' own conditional write (#claim): of two travelers racing, the
// second's waits for the first's and then finds the offer taken.
const BOOKABLE = `WITH found AS (
    SELECT * FROM offers
    WHERE id = $1::uuid AND provider_id = $2::text AND (user_id = $3::uuid OR user_id IS NULL)
      AND (NOT $4::boolean OR partner_id IS NOT DISTINCT FROM $5::uuid)
  ), claimed AS (
    UPDATE offers SET user_id = $3::uuid FROM found WHERE offers.id = found.id AND found.user_id IS NULL AND offers.user_id IS NULL
    RETURNING offers.id
  )
  SELECT found.*, EXISTS (SELECT 1 FROM claimed) AS claimed,
    (SELECT coalesce(json_agg(json_build_object('provider_passenger_id', provider_passenger_id, 'user_passenger_id', user_passenger_id)), '[]')
      FROM offer_passengers WHERE offer_id = found.id) AS saved_passengers
  FROM found`;

/**
 * The offer `owner` reaches, claimed for them if it was no traveler's; undefined when they reach none.
 * A claim another request made meanwhile comes back unclaimed (`user_id` null, `claimed` false): the
 * caller then asks again the way offers.ts always does.
 */
export async function readBookable(db: Knex, owner: Owner & { userId: string }, providerId: string, offerId: string): Promise<BookableRow | undefined> {
  const [row] = await queryPlannedEachCall<BookableRow>(db, BOOKABLE, [offerId, providerId, owner.userId, owner.door === 'rest', owner.partnerId ?? null]);
  return row && row.claimed ? { ...row, user_id: owner.userId } : row;
}
