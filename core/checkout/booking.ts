/**
 * What a checkout session gives the booking the hosted checkout makes, and what that booking gives back
 * to the session. The checkout button's `iataCode` (the session's customer id) goes on the booking as
 * `metadata.iata_code` (decisions §12), with the session's id beside it, so that the partner can tell
 * which sale a booking was.
 */
import type { BookingResponse, CreateBookingRequest } from '../bookings/schemas.js';
import { toDecimalString } from '../money/money.js';
import type { CheckoutSession } from './schemas.js';
import type { CompletedBooking } from './service.js';

export function checkoutBookingMetadata(session: Pick<CheckoutSession, 'id' | 'customer_id'>): NonNullable<CreateBookingRequest['metadata']> {
  return { iata_code: session.customer_id, checkout_session_id: session.id };
}

/** The booking as its session keeps it (the booking's total is a JSON number; the session's a decimal string). */
export function completedBookingOf(response: BookingResponse): CompletedBooking {
  const { booking } = response;
  return {
    booking_id: booking.id,
    airline_pnr: booking.airline_pnr,
    total_amount: toDecimalString(booking.total_amount, booking.currency),
    currency: booking.currency,
  };
}
