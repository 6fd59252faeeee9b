import type { Knex } from 'knex';

/**
 * Offers now belong to the first traveler who uses them (decisions §2, "Offer reach"). Before, an offer a
 * partner made over REST stayed unclaimed while travelers' agents used it, so the passenger details kept
 * for its order may have been written by any of them. Those details are deleted (whose they are cannot
 * be told; the traveler gives them again), and an offer whose passengers one traveler mapped becomes that
 * traveler's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('DELETE FROM offer_passenger_details d USING offers o WHERE d.offer_id = o.id AND o.user_id IS NULL');
  await knex.raw(`
    UPDATE offers o SET user_id = mapped.user_id
    FROM (
      SELECT offer_id, (array_agg(DISTINCT user_id))[1] AS user_id
      FROM offer_passengers GROUP BY offer_id HAVING count(DISTINCT user_id) = 1
    ) mapped
    WHERE o.id = mapped.offer_id AND o.user_id IS NULL`);
}

/** Nothing to undo: the claims and the deleted details are as the older code would have them anyway. */
export async function down(): Promise<void> {}
