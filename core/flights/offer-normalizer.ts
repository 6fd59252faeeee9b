/**
 * What a provider adapter gives the offers service: its native offer checked with the native schema and
 * turned into the normalized Offer. Implemented per provider in providers/flights/<provider>/.
 */
import type { Offer } from './offer-schemas.js';

export interface NormalizedOffer {
  /** The offer, normalized; its `id` is still the provider's (the service gives it its own). */
  offer: Offer;
  /** The provider's id of the offer. */
  providerOfferId: string;
}

export interface OfferNormalizer {
  readonly providerId: string;
  /**
   * Throws ValidationError (fields keyed by the native path) when `native` is not this provider's offer.
   * `now` dates offers whose provider gives them no expiry of their own.
   */
  normalize(native: unknown, now: Date): NormalizedOffer;
}
