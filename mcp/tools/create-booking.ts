import { AgentBookingRequest, BookingResponse } from '../../core/bookings/schemas.js';
import { defineTool } from '../tool.js';

export const createBooking = defineTool({
  name: 'create_booking',
  title: 'Book an offer, paid with a saved card',
  description:
    'Books an offer for the traveler and charges their card: the offer’s total plus the chosen bags (bag_selections, from get_bags) ' +
    'and seats (seat_selections, from get_seat_map). Only book what the traveler agreed to, at the total they saw. The card is the ' +
    'traveler’s default unless payment_method_id names another (list_payment_methods); passengers are the saved passengers the partner ' +
    'matched to the offer unless sent; the contact is the traveler’s profile unless sent. What is missing is refused with what to send. ' +
    'Send an idempotency_key of your own and keep it for this purchase: retrying with the same key and input never books or charges twice. ' +
    'The answer is the booking: confirmed with the airline’s PNR, or booking_created for a hold (order_type hold, where the provider ' +
    'holds). Errors name a code: price_changed (tell the traveler the new total), offer_expired or offer_no_longer_available (search ' +
    'again), card_declined (ask for another card). Needs the bookings.write scope (naming a card by id takes list_payment_methods, which needs payments.read).',
  input: AgentBookingRequest,
  output: BookingResponse,
  scopes: ['bookings.write'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (input, { actor, owner, services }) => services.agentBookings.create({ ...owner, userId: actor.userId, clientId: actor.clientId }, input),
});
