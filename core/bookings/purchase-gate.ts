/**
 * What stands between a checked booking request and the card (decisions §10). Partners' bookings over
 * REST pass no gate. A purchase through the tools passes one (core/purchases/) that refuses a purchase
 * over the traveler's spending limit for that agent and one the traveler has not confirmed on our hosted
 * page. It is asked after every check of the request against the offer, and before any card is touched.
 */
import type { Knex } from 'knex';
import type { TotalBreakdown } from '../errors.js';

/** Exactly what would be bought, as the booking checks computed it from our own records. */
export interface PurchaseQuote {
  userId: string;
  /** The agent's OAuth client. */
  clientId: string | undefined;
  providerId: string;
  offerId: string;
  /** A digest of the offer as it would be booked (priced): a new pricing is a new version. */
  offerVersion: string;
  amountMinor: bigint;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  breakdown: TotalBreakdown;
  passengers: { provider_passenger_id: string; type: string; first_name: string; last_name: string; born_on: string }[];
  seats: { segment_id: string; provider_passenger_id: string; seat_number: string; price: string | null }[];
  /** The offer's services chosen (bags and the like), with their titles as the offer names them. */
  services: { id: string; quantity: number; title: string; total_amount: string }[];
  card: { id: string; brand: string; last4: string };
  contactEmail: string;
  /** A digest binding all of the above: what a confirmation confirms. */
  fingerprint: string;
}

export interface PurchaseGate {
  /** Throws to refuse (over a limit, not confirmed, confirmation used, outdated or declined). */
  admit(quote: PurchaseQuote): Promise<PurchaseAdmission>;
}

export interface PurchaseAdmission {
  /**
   * Inside the transaction that stores the booking: takes what admitted it for good (the confirmation,
   * used once; the rolling limit, summed again under a lock). Throws to refuse; nothing is stored then.
   */
  commit(trx: Knex.Transaction, bookingId: string): Promise<void>;
}
