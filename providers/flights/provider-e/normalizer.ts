/** provider_e's offers: checked with the native schema, then normalized (see map.ts). */
import type { NormalizedOffer, OfferNormalizer } from '../../../core/flights/offer-normalizer.js';
import { parseOrThrow } from '../../../core/validation.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { WireOffer } from './wire.js';

export const providerEOffers: OfferNormalizer = {
  providerId: PROVIDER_ID,
  normalize(native: unknown): NormalizedOffer {
    const parsed = parseOrThrow(WireOffer, native);
    return { offer: toOffer(parsed), providerOfferId: parsed.offerId };
  },
};
