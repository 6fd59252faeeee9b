import { CreateOfferFromSearchRequest, CreatedOfferFromSearch } from '../../core/flights/search-schemas.js';
import { defineTool } from '../tool.js';
import { forAgent } from './offer-shared.js';

export const createOffer = defineTool({
  name: 'create_offer',
  title: 'Create an offer from a search result',
  description:
    'Turns one result of search_flights into an offer that can be booked: the airline confirms the flights are still sold and at what ' +
    'price. If the price changed since the search, price_changed is true and previous_total_amount is the price the search showed: ' +
    'tell the traveler before going on. The answer’s offer_id is what get_offer_details, get_bags, get_seat_map and update_passenger ' +
    'take, with provider_id "provider_d". Needs the bookings.write scope.',
  input: CreateOfferFromSearchRequest,
  output: CreatedOfferFromSearch,
  scopes: ['bookings.write'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(input, { owner, services }) {
    const created = await services.flightSearch.createOffer(owner, input);
    return { ...created, offer: forAgent(created.offer) };
  },
});
