/** How the offer tools name an offer: its provider and our id of it. */
import { z } from 'zod';
import { ProviderId } from '../../core/flights/schemas.js';

export const OfferReference = z.strictObject({
  provider_id: ProviderId,
  offer_id: z.uuid().describe('The offer’s id, as create_offer (or createProviderOffer over REST) answered it.'),
});
