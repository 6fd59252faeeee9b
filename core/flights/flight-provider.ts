/**
 * The port of a flight provider's system, for what happens after an offer exists: pricing it again,
 * reading its seat maps, and its order (create, pay, retrieve, cancel). Adapters in
 * providers/flights/<provider>/ reach the system over HTTP, parse its answers with its native schema, and
 * throw domain errors (never the provider's own words).
 */
import type { NormalizedOffer } from './offer-normalizer.js';
import type { FlightSearchRequest } from './search-schemas.js';
import type { Offer, OfferPassengerDetails, PassengerUpdateRequest, SeatMap } from './offer-schemas.js';

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

  /**
   * Places the order for the offer: `instant` (paid from the partner's balance where the provider does
   * that in the same step) or `hold`. It comes back `held` where the provider needs a payment step
   * (requires_payment_step) or a hold was asked for, `confirmed` otherwise. A second call with the same
   * `reference` returns the first order instead of placing another, so that a step repeated after a
   * crash books once.
   *
   * Failures: `PriceChangedError` (the total moved since the offer; `orderId` set where an order now
   * exists that can be paid at the new total), `ProviderRejectedError` `offer_no_longer_available` (sold
   * out) or `invalid_passenger`, `GoneError` `offer_expired`, `ProviderUnavailableError`,
   * `ProviderTimeoutError` (after `booking_timeout_seconds`).
   */
  createOrder(request: OrderRequest): Promise<ProviderOrder>;
  /**
   * Pays a held order `amount` (its total as last agreed) from the partner's balance, and tickets it.
   * Paying an order already paid returns it. A total the provider moved meanwhile is `PriceChangedError`
   * with `orderId`: nothing is paid, and the order can be paid again at the new total. The order that
   * comes back may carry a new `orderId` (provider_e's booking replaces its prebook).
   */
  payOrder(payment: OrderPayment): Promise<ProviderOrder>;
  /** The order as the provider has it now. Unknown: `NotFoundError` `provider_order_not_found`. */
  retrieveOrder(orderId: string): Promise<ProviderOrder>;
  /**
   * Cancels the order, and says what the provider refunds to the partner's balance (null when nothing).
   * Cancelling an order already cancelled answers the same again.
   */
  cancelOrder(orderId: string): Promise<OrderCancellation>;
}

/** A passenger of the order, named by their id inside the offer. */
export interface OrderPassenger {
  providerPassengerId: string;
  type: 'adult' | 'child' | 'infant_without_seat';
  title: string | null;
  firstName: string;
  middleName: string | null;
  lastName: string;
  /** YYYY-MM-DD. */
  bornOn: string;
  gender: 'male' | 'female' | null;
  email: string | null;
  phoneNumber: string | null;
  knownTravelerNumber: string | null;
  identityDocuments: {
    type: 'passport' | 'tax_id' | 'known_traveler_number' | 'passenger_redress_number';
    uniqueIdentifier: string;
    issuingCountryCode: string;
    /** YYYY-MM-DD. */
    expiresOn: string;
  }[];
}

export interface OrderRequest {
  /** Our booking's id, kept by the provider with the order (its client reference). */
  reference: string;
  /** The provider's own offer, as stored (last priced). */
  raw: Record<string, unknown>;
  /** The same offer, normalized. */
  offer: Offer;
  type: 'instant' | 'hold';
  /** Every passenger of the offer, once. */
  passengers: OrderPassenger[];
  contact: { email: string; phoneNumber: string; firstName: string; lastName: string; title: string | null };
  /** Seats chosen from the offer's seat maps; `price` null when free. */
  seats: { segmentId: string; providerPassengerId: string; seatNumber: string; price: string | null }[];
  /** Chosen `available_services` of the offer (bags and the like). */
  services: { id: string; quantity: number }[];
  /** What the provider is paid: the offer's total plus chosen services and seats, a decimal string. */
  amount: string;
  currency: string;
}

export interface OrderPayment {
  orderId: string;
  /** Our booking's id, as given at createOrder. */
  reference: string;
  /** The provider's own offer the order was made from. */
  raw: Record<string, unknown>;
  /** The total as last agreed, a decimal string in `currency`. */
  amount: string;
  currency: string;
}

export interface ProviderOrder {
  /** The provider's id of the order (our `provider_order_id`). */
  orderId: string;
  /** The airline's booking reference, once it exists. */
  pnr: string | null;
  status: 'held' | 'confirmed' | 'cancelled';
  /** The order's total at the provider, a decimal string in `currency`. */
  amount: string;
  currency: string;
  /** Ticket numbers by the passenger's id inside the offer; empty until ticketed or where none are given. */
  tickets: { providerPassengerId: string; ticketNumber: string }[];
  /** Seats the order holds. */
  seats: { segmentId: string; providerPassengerId: string; seatNumber: string }[];
  /** A held order must be paid before this (UTC ISO 8601), or it lapses; null when not held. */
  paymentRequiredBy: string | null;
}

export interface OrderCancellation {
  orderId: string;
  /** What the provider refunds (decimal string), or null when nothing. */
  refundAmount: string | null;
  refundCurrency: string | null;
  cancelledAt: string;
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
