/** What the offer tools share: how they name an offer, and how they show one to an agent. */
import { z } from 'zod';
import type { Offer } from '../../core/flights/offer-schemas.js';
import { ProviderId } from '../../core/flights/schemas.js';

export const OfferReference = z.strictObject({
  provider_id: ProviderId,
  offer_id: z.uuid().describe('The offer’s id, as create_offer (or createProviderOffer over REST) answered it.'),
});

/**
 * The offer without the provider's own native copy (`raw_offer`): an agent reads the normalized fields,
 * and the native one would only cost it tokens (the REST API still gives it to partners).
 */
export function forAgent(offer: Offer): Offer {
  const { raw_offer: _native, ...normalized } = offer;
  return normalized;
}
