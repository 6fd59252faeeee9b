import { FlightSearchRequest, FlightSearchResult } from '../../core/flights/search-schemas.js';
import { defineTool } from '../tool.js';

export const searchFlights = defineTool({
  name: 'search_flights',
  title: 'Search flights',
  description:
    'Searches flights for a trip (one way, or a return with return_date) and answers the offers found, cheapest first, each with its ' +
    'price, flights, bags and passengers. Results can be booked for 30 minutes: to book one, call create_offer with the search_id and ' +
    'the offer’s id. Whether passengers need identity documents is not known at search (null): create_offer’s offer says it. ' +
    'Dates are local days (YYYY-MM-DD), from today on; airports are IATA codes. Needs the bookings.write scope.',
  input: FlightSearchRequest,
  output: FlightSearchResult,
  scopes: ['bookings.write'],
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (input, { owner, services }) => services.flightSearch.search(owner, input),
});
