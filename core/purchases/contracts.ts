/**
 * What the purchase confirmation and spending limit services offer the hosted pages (authz/) and the
 * tools. Implemented in confirmations.ts and spending-limits.ts of this folder.
 */
import type { TotalBreakdown } from '../errors.js';

export type ConfirmationStatus = 'pending' | 'confirmed' | 'declined' | 'used';

/** What the hosted page at `{AUTH_URL}/confirm/{id}` shows: our own stored data, never the agent's text. */
export interface ConfirmationView {
  id: string;
  status: ConfirmationStatus;
  /** ISO 8601. */
  expiresAt: string;
  expired: boolean;
  /** The agent's client id and the name the traveler knows it by (client_name, or its host). */
  clientId: string;
  clientName: string;
  summary: ConfirmationSummary;
}

/** Stored with the confirmation when it is asked. */
export interface ConfirmationSummary {
  providerId: string;
  offerId: string;
  /**
   * The trip, slice by slice: origin and destination IATA codes, departure and arrival local times, carriers
   * and flight numbers; and each flight of the slice, so the page shows where it stops. `segments` is absent
   * from confirmations stored before it was kept.
   */
  slices: { origin: string; destination: string; departingAt: string; arrivingAt: string; flights: string[]; segments?: SegmentSummary[] }[];
  passengers: { name: string; type: string; bornOn: string }[];
  seats: { passenger: string; segment: string; seatNumber: string; price: string | null }[];
  services: { title: string; quantity: number; totalAmount: string }[];
  card: { brand: string; last4: string };
  total: TotalBreakdown;
}

/** One flight of a slice: its airports (IATA), local departure and arrival times, and flight ("EI 153"). */
export interface SegmentSummary {
  origin: string;
  destination: string;
  departingAt: string;
  arrivingAt: string;
  flight: string;
}

export interface ConfirmationDecisions {
  /** The page's view for the signed-in traveler `userId`; NotFoundError for an unknown id, ForbiddenError (`confirmation_not_yours`) for another traveler's. */
  view(id: string, userId: string): Promise<ConfirmationView>;
  /** The traveler confirms: pending → confirmed. Refused (a DomainError saying why) when expired, decided already, or not theirs. */
  confirm(id: string, userId: string): Promise<ConfirmationView>;
  /** The traveler declines: pending → declined. */
  decline(id: string, userId: string): Promise<ConfirmationView>;
}

/** A traveler's caps for one connected agent, in minor units of `currency`; null: no cap of that kind. */
export interface SpendingLimit {
  currency: string;
  perBookingMinor: bigint | null;
  per30DaysMinor: bigint | null;
}

export interface SpendingLimitSettings {
  get(userId: string, clientId: string): Promise<SpendingLimit | undefined>;
  /** Sets (or with null removes) the caps; ValidationError for an unknown currency or a negative amount. */
  set(userId: string, clientId: string, limit: SpendingLimit | null): Promise<void>;
  /** What the agent spent for the traveler in the rolling 30 days, in the limit's currency (minor units). */
  spentIn30Days(userId: string, clientId: string, currency: string): Promise<bigint>;
}
