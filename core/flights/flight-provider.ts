/**
 * The port of a flight provider's system, for what happens after an offer exists: pricing it again and
 * reading its seat maps. Adapters in providers/flights/<provider>/ reach the system over HTTP, parse its
 * answers with its native schema, and throw domain errors (never the provider's own words).
 */
import type { NormalizedOffer } from './offer-normalizer.js';
import type { FlightSearchRequest } from './search-schemas.js';
import type { OfferPassengerDetails, PassengerUpdateRequest, SeatMap } from './offer-schemas.js';

export interface FlightProvider {
  readonly providerId: string;
  /** The offer as the provider prices it now (`raw` is the provider's own offer as stored). */
  price(raw: Record<string, unknown>): Promise<NormalizedOffer>;
  /** One seat map per segment that has one; `offerId` is ours, for the answer. Absent: no seats are sold. */
  seatMaps?(raw: Record<string, unknown>, offerId: string): Promise<SeatMap[]>;
  /**
   * Gives the provider the details of one of the offer's passengers, for a provider that takes them
   * before the order. Absent: the provider takes them with the order, and we keep them until then.
   */
  updatePassenger?(raw: Record<string, unknown>, providerPassengerId: string, update: PassengerUpdateRequest): Promise<OfferPassengerDetails>;
  /** The provider matches passengers by their id inside the offer: updates must name it (`passenger_id`). */
  readonly requiresPassengerId?: boolean;
}

/** A provider that can be searched. */
export interface FlightSearcher {
  readonly providerId: string;
  search(request: FlightSearchRequest): Promise<SearchHit[]>;
}

export interface SearchHit {
  /** Names the result within its search. */
  resultId: string;
  /** The provider's own offer, whole: what its normalizer takes. */
  native: Record<string, unknown>;
}
