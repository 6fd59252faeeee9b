import { Offer } from '../../core/flights/offer-schemas.js';
import { defineTool } from '../tool.js';
import { OfferReference } from './offer-shared.js';

export const getOfferDetails = defineTool({
  name: 'get_offer_details',
  title: 'Get an offer',
  description:
    'Reads an offer: its total and the currency, its flights (slices of segments, local times), passengers, fare conditions, bags and ' +
    'other services on sale, and until when it can be booked (expires_at). The provider’s own copy of the offer (raw_offer) is left out. An offer past expires_at answers offer_expired: search ' +
    'again. Needs the bookings.write scope.',
  input: OfferReference,
  output: Offer,
  scopes: ['bookings.write'],
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  // Read without raw_offer, which an agent is not shown.
  run: async ({ provider_id, offer_id }, { owner, services }) => services.offers.getNormalized(owner, provider_id, offer_id),
});
