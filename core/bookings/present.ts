/** Booking rows as the API shows them (Booking, BookingResponse, BookingPassenger, TripSummary). */
import { fromMinorUnits } from '../money/money.js';
import type { Booking, BookingPassenger, BookingResponse, CancellationResult, TripSummary } from './schemas.js';
import type { BookingPassengerRow, BookingRow, SeatSelectionRow } from './store.js';
import { tripStatus } from './trip.js';

export function presentBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    flight_offer_id: row.offer_id,
    user_id: row.user_id,
    payment_method_id: row.payment_method_id,
    airline_pnr: row.airline_pnr,
    payment_intent_id: row.payment_intent_id,
    total_amount: Number(fromMinorUnits(BigInt(row.amount_minor), row.currency)),
    currency: row.currency,
    status: row.status,
    idempotency_key: row.idempotency_key,
    provider_id: row.provider_id,
    provider_offer_id: row.provider_offer_id,
    provider_order_id: row.provider_order_id,
    order_type: row.order_type,
    payment_required_by: row.status === 'booking_created' && row.payment_required_by ? row.payment_required_by.toISOString() : null,
    card_brand: row.card_brand,
    card_last4: row.card_last4,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    trip_type: row.trip_type as Booking['trip_type'],
    origin_city: row.origin_city,
    origin_iata_code: row.origin_iata_code,
    destination_city: row.destination_city,
    destination_iata_code: row.destination_iata_code,
    departure_date: localTime(row.departure_date),
    return_date: localTime(row.return_date),
    airline_name: row.airline_name,
    airline_iata_code: row.airline_iata_code,
    airline_logo_url: row.airline_logo_url,
    passenger_count: row.adult_count + row.child_count + row.infant_count,
    adult_count: row.adult_count,
    child_count: row.child_count,
    infant_count: row.infant_count,
  };
}

export function presentResponse(row: BookingRow): BookingResponse {
  return { booking: presentBooking(row), payment_intent_id: row.payment_intent_id, status: row.status, metadata: row.metadata };
}

export function presentTrip(row: BookingRow, today: string): TripSummary {
  const departure = localTime(row.departure_date);
  const returning = localTime(row.return_date);
  return {
    id: row.id,
    user_id: row.user_id,
    status: tripStatus(row.status, departure, returning, today),
    trip_type: row.trip_type as TripSummary['trip_type'],
    origin_city: row.origin_city,
    origin_iata_code: row.origin_iata_code,
    destination_city: row.destination_city,
    destination_iata_code: row.destination_iata_code,
    departure_date: departure?.slice(0, 10) ?? null,
    return_date: returning?.slice(0, 10) ?? null,
    airline_name: row.airline_name,
    airline_iata_code: row.airline_iata_code,
    airline_logo_url: row.airline_logo_url,
    passenger_count: row.adult_count + row.child_count + row.infant_count,
    created_at: row.created_at.toISOString(),
  };
}

export function presentPassenger(row: BookingPassengerRow, seats: SeatSelectionRow[], knownTravelerNumber: string | null): BookingPassenger {
  const own = seats.filter((seat) => seat.booking_passenger_id === row.id);
  return {
    id: row.id,
    user_passenger_id: row.user_passenger_id,
    provider_passenger_id: row.provider_passenger_id,
    first_name: row.first_name,
    middle_name: row.middle_name,
    last_name: row.last_name,
    gender: (row.gender ?? 'female') as BookingPassenger['gender'],
    date_of_birth: dateOnly(row.date_of_birth),
    email: row.email,
    phone_number: row.phone_number,
    nationality: row.nationality,
    traveler_type: row.traveler_type as BookingPassenger['traveler_type'],
    known_traveler_number: knownTravelerNumber,
    ticket_number: row.ticket_number,
    seat_number: own[0]?.seat_number ?? null,
    fare_basis_code: row.fare_basis_code,
    seat_selections: own.map((seat) => ({
      id: seat.id,
      booking_id: seat.booking_id,
      user_passenger_id: seat.user_passenger_id,
      segment_id: seat.segment_id,
      seat_number: seat.seat_number,
      seat_row: seat.seat_row,
      seat_column: seat.seat_column,
      price: seat.price === null ? null : Number(seat.price),
      currency: seat.currency,
      created_at: seat.created_at.toISOString(),
      updated_at: seat.updated_at.toISOString(),
    })),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentCancellation(row: BookingRow): CancellationResult {
  return {
    booking_id: row.id,
    is_cancelled: row.status === 'cancelled',
    refund_amount: row.refund_minor === null ? null : Number(fromMinorUnits(BigInt(row.refund_minor), row.refund_currency ?? row.currency)),
    refund_currency: row.refund_minor === null ? null : row.refund_currency,
    cancelled_at: (row.cancelled_at ?? row.updated_at).toISOString(),
    reason: row.cancellation_reason,
  };
}

/** A `timestamp without time zone` read back as a Date in UTC terms: its wall-clock text, without offset. */
function localTime(value: Date | string | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value.replace(' ', 'T').slice(0, 19) : value.toISOString().slice(0, 19);
}

function dateOnly(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}
