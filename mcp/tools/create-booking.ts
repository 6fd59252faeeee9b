import { AgentBookingRequest, BookingResponse } from '../../core/bookings/schemas.js';
import { defineTool } from '../tool.js';

export const createBooking = defineTool({
  name: 'create_booking',
  title: 'Book an offer, paid with a saved card',
  description:
    'Books an offer for the traveler and charges their card: the offer’s total plus the chosen bags (bag_selections, from get_bags) ' +
    'and seats (seat_selections, from get_seat_map). The card is the traveler’s default unless payment_method_id names another ' +
    '(list_payment_methods); passengers are the saved passengers the partner matched to the offer unless sent; the contact is the ' +
    'traveler’s profile unless sent. What is missing is refused with what to send. ' +
    'The traveler confirms every purchase themselves, on our page: nothing is charged before. The first call asks for that ' +
    'confirmation. A client that opens URLs for the user (MCP 2026-07-28 with URL elicitation) gets an input-required result whose URL ' +
    'is our confirmation page, and its retry carries the confirmation. Otherwise the call fails with code confirmation_required and ' +
    'needs_user: show the traveler confirmation_url (it expires at expires_at, 15 minutes), and once they confirmed, call ' +
    'create_booking again with the same arguments and confirmation_id. A confirmation pays for this exact purchase once: if the ' +
    'total, passengers, seats, bags or card change, the answer is confirmation_outdated with a new URL; confirmation_pending means ' +
    'not confirmed yet, confirmation_declined that the traveler said no (do not book), confirmation_expired that a new call must ask ' +
    'again. spending_limit_exceeded: the purchase is over the limit the traveler set for you (only they can change it, at apps_url). ' +
    'Send expected_total (amount and currency) with the total you showed the traveler: if the total is another, the answer is ' +
    'total_changed with the current breakdown, before anything is charged. ' +
    'Send an idempotency_key of your own and keep it for this purchase: retrying with the same key and input never books or charges twice. ' +
    'The answer is the booking: confirmed with the airline’s PNR, or booking_created for a hold (order_type hold, where the provider ' +
    'holds). Other errors name a code: price_changed (tell the traveler the new total), offer_expired or offer_no_longer_available (search ' +
    'again), flight_departed, departure_too_soon or departure_too_far_ahead (the first flight has left, leaves sooner than the ' +
    'provider’s min_advance_booking_hours, or a flight is beyond its max_advance_booking_days: said before any confirmation or ' +
    'charge; offer the traveler another flight), card_declined (ask for another card). Needs the bookings.write scope (naming a card by id takes list_payment_methods, which needs payments.read).',
  input: AgentBookingRequest,
  output: BookingResponse,
  scopes: ['bookings.write'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (input, { actor, owner, services }) => services.agentBookings.create({ ...owner, userId: actor.userId, clientId: actor.clientId }, input),
});
