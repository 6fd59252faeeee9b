/** The tools the endpoint serves, by capability; tools/list gives them in the order the root lists the modules. */
import type { Tool } from '../tool.js';
import { createBooking } from './create-booking.js';
import { createOffer } from './create-offer.js';
import { getBags } from './get-bags.js';
import { getBooking } from './get-booking.js';
import { getOfferDetails } from './get-offer-details.js';
import { getSeatMap } from './get-seat-map.js';
import { listPaymentMethods } from './list-payment-methods.js';
import { searchFlights } from './search-flights.js';
import { updatePassenger } from './update-passenger.js';
import { updatePaymentMethod } from './update-payment-method.js';

// Each tool's `run` takes its own input type; the lists hold them as tools of any schema.
export const OFFER_TOOLS: Tool[] = [searchFlights, createOffer, getOfferDetails, getBags, getSeatMap, updatePassenger] as unknown as Tool[];

/** Saved cards: read them, and change the details the traveler states. Adding a card is deliberately not a tool (the card number goes only from the traveler's browser to the vault). */
export const CARD_TOOLS: Tool[] = [listPaymentMethods, updatePaymentMethod] as unknown as Tool[];

/** Bookings: book an offer with a saved card, and read a booking. */
export const BOOKING_TOOLS: Tool[] = [createBooking, getBooking] as unknown as Tool[];
