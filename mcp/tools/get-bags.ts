import { z } from 'zod';
import { ProviderRejectedError } from '../../core/errors.js';
import { AvailableService } from '../../core/flights/offer-schemas.js';
import { defineTool } from '../tool.js';
import { OfferReference } from './offer-shared.js';

export const getBags = defineTool({
  name: 'get_bags',
  title: 'Get the bags of an offer',
  description:
    'Says which bags the fare includes and which extra bags are on sale, with their price, weight and size. Bags chosen here are ' +
    'booked with the offer (their ids go in bag_selections). Only where the provider sells bags: otherwise it answers ' +
    'bag_selection_not_supported. Needs the bookings.write scope.',
  input: OfferReference,
  output: z.object({
    offer_id: z.string(),
    included: z.object({
      carry_on_bags: z.number().int().describe('Per passenger, included in the fare.'),
      checked_bags: z.number().int().describe('Per passenger, included in the fare.'),
    }),
    bags_for_sale: z.array(AvailableService).describe('Extra bags: each `id` is what a booking’s bag_selections names.'),
  }),
  scopes: ['bookings.write'],
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ provider_id, offer_id }, { owner, services }) {
    if (!services.providers.capabilities(provider_id).supports_bag_selection) {
      throw new ProviderRejectedError(
        `${provider_id} does not sell bags (its capabilities say supports_bag_selection: false): book with the bags the fare includes.`,
        'bag_selection_not_supported',
      );
    }
    const offer = await services.offers.get(owner, provider_id, offer_id);
    return {
      offer_id: offer.id,
      included: { carry_on_bags: offer.fare_class_metadata?.carry_on_bags ?? 0, checked_bags: offer.fare_class_metadata?.checked_bags ?? 0 },
      bags_for_sale: (offer.available_services ?? []).filter((service) => service.type === 'baggage'),
    };
  },
});
