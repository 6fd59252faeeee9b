import { z } from 'zod';
import { BookingResponse } from '../../core/bookings/schemas.js';
import { ProviderId } from '../../core/flights/schemas.js';
import { defineTool } from '../tool.js';

export const getBooking = defineTool({
  name: 'get_booking',
  title: 'Get a booking',
  description:
    'Reads one of the traveler’s bookings: its status (confirmed, booking_created for an unpaid hold with payment_required_by, failed, ' +
    'cancelled), the airline’s PNR, the total charged, the card (brand and last four) and the trip. Only the traveler’s own bookings: ' +
    'another traveler’s answers not_booking_owner. Needs the bookings.read scope.',
  input: z.strictObject({
    provider_id: ProviderId,
    booking_id: z.uuid().describe('The booking’s id, as create_booking answered it (booking.id).'),
  }),
  output: BookingResponse,
  scopes: ['bookings.read'],
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ provider_id, booking_id }, { actor, owner, services }) => services.bookings.get({ ...owner, userId: actor.userId, clientId: actor.clientId }, provider_id, booking_id),
});
