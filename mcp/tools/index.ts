/** Every tool the endpoint serves, in the order tools/list gives them. */
import type { Tool } from '../tool.js';
import { createOffer } from './create-offer.js';
import { getBags } from './get-bags.js';
import { getOfferDetails } from './get-offer-details.js';
import { getSeatMap } from './get-seat-map.js';
import { searchFlights } from './search-flights.js';
import { updatePassenger } from './update-passenger.js';

// Each tool's `run` takes its own input type; the list holds them as tools of any schema.
export const TOOLS: Tool[] = [searchFlights, createOffer, getOfferDetails, getBags, getSeatMap, updatePassenger] as unknown as Tool[];
