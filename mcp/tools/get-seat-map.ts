import { z } from 'zod';
import { SeatMap } from '../../core/flights/offer-schemas.js';
import { defineTool } from '../tool.js';
import { OfferReference } from './offer-shared.js';

export const getSeatMap = defineTool({
  name: 'get_seat_map',
  title: 'Get the seat maps of an offer',
  description:
    'Reads the seats of each flight of an offer: which are free, taken or blocked, window, middle or aisle, and what a seat costs ' +
    '(seats without a price are free). Only where the provider sells seats: otherwise it answers seat_selection_not_supported, and ' +
    'the traveler books without choosing a seat. Needs the bookings.write scope.',
  input: OfferReference,
  output: z.object({ seat_maps: z.array(SeatMap).describe('One per flight (segment) that has a seat map.') }),
  scopes: ['bookings.write'],
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: async ({ provider_id, offer_id }, { owner, services }) => ({ seat_maps: await services.offers.seatMaps(owner, provider_id, offer_id) }),
});
