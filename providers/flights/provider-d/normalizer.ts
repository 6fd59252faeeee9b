/** provider_d's offers: checked with the native schema, then normalized (see map.ts). */
import { z } from 'zod';
import type { NormalizedOffer, OfferNormalizer } from '../../../core/flights/offer-normalizer.js';
import { parseOrThrow } from '../../../core/validation.js';
import { PROVIDER_ID, toOffer } from './map.js';
import { WireOffer } from './wire.js';

/** Compiled once: valid offers take zod's generated fast path; invalid ones fall back to its parser, errors unchanged. */
const NativeOffer = z.compile(WireOffer);

export const providerDOffers: OfferNormalizer = {
  providerId: PROVIDER_ID,
  normalize(native: unknown, now: Date): NormalizedOffer {
    const parsed = parseOrThrow(NativeOffer, native);
    return { offer: toOffer(parsed, now), providerOfferId: (parsed.data[0] as { booking_token: string }).booking_token };
  },
};
