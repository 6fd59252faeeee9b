/** provider_d's offers: checked with the native schema, then normalized (see map.ts). */
import type { NormalizedOffer, OfferNormalizer } from '../../../core/flights/offer-normalizer.js';
import { parseOrThrow } from '../../../core/validation.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { WireOffer } from './wire.js';

export const providerDOffers: OfferNormalizer = {
  providerId: PROVIDER_ID,
  normalize(native: unknown, now: Date): NormalizedOffer {
    const parsed = parseOrThrow(WireOffer, native);
    return { offer: toOffer(parsed, now), providerOfferId: (parsed.data[0] as { booking_token: string }).booking_token };
  },
};
