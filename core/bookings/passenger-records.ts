/**
 * A booking's own copy of its passengers and seats, written with the booking: what the traveler sent,
 * with a reference to the saved passenger it was booked as (which keeps that passenger from hard
 * deletion). Identity documents and the known-traveler number are sealed under the passenger row's id.
 */
import { randomUUID } from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box.js';
import type { OrderPassenger, OrderRequest } from '../flights/flight-provider.js';
import type { BookingPlan } from './booking-plan.js';
import { documentsContext } from './stored-parts.js';
import type { NewPassengerRow, NewSeatRow } from './store.js';

/** The rows of the plan's passengers and seats, for store.insertBooking. */
export function passengerRecords(secrets: SecretBox, bookingId: string, plan: BookingPlan, now: Date): { passengers: NewPassengerRow[]; seats: NewSeatRow[] } {
  const passengers = plan.passengers.map((passenger): NewPassengerRow => {
    // The id is made here: the documents are sealed under it, in the same insert.
    const id = randomUUID();
    const hasDocuments = passenger.identityDocuments.length > 0 || passenger.knownTravelerNumber !== null;
    return {
      id,
      booking_id: bookingId,
      user_passenger_id: passenger.userPassengerId,
      provider_passenger_id: passenger.providerPassengerId,
      traveler_type: passenger.type === 'infant_without_seat' ? 'infant' : passenger.type,
      title: passenger.title,
      first_name: passenger.firstName,
      middle_name: passenger.middleName,
      last_name: passenger.lastName,
      date_of_birth: passenger.bornOn,
      gender: passenger.gender,
      email: passenger.email,
      phone_number: passenger.phoneNumber,
      nationality: passenger.nationality,
      fare_basis_code: passenger.fareBasisCode,
      position: passenger.position,
      documents_sealed: hasDocuments
        ? secrets.seal(JSON.stringify({ identityDocuments: passenger.identityDocuments, knownTravelerNumber: passenger.knownTravelerNumber }), documentsContext(id))
        : null,
      created_at: now,
      updated_at: now,
    };
  });
  const ids = new Map(passengers.map((row) => [row.provider_passenger_id, row]));
  const seats = plan.seats.map(
    (seat): NewSeatRow => ({
      booking_id: bookingId,
      booking_passenger_id: ids.get(seat.providerPassengerId)?.id as string,
      user_passenger_id: ids.get(seat.providerPassengerId)?.user_passenger_id ?? null,
      segment_id: seat.segmentId,
      seat_number: seat.seatNumber,
      seat_row: seat.row,
      seat_column: seat.column,
      price: seat.price,
      currency: seat.price === null ? null : plan.currency,
      created_at: now,
      updated_at: now,
    }),
  );
  return { passengers, seats };
}

/**
 * The order's passengers and seats straight from the plan, as the saga would read them back from the rows
 * above: passengers in their positions, seats by segment and seat number.
 */
export function orderParts(plan: BookingPlan): { passengers: OrderPassenger[]; seats: OrderRequest['seats'] } {
  const passengers = [...plan.passengers]
    .sort((a, b) => a.position - b.position)
    .map((passenger): OrderPassenger => ({
      providerPassengerId: passenger.providerPassengerId,
      type: passenger.type,
      title: passenger.title,
      firstName: passenger.firstName,
      middleName: passenger.middleName,
      lastName: passenger.lastName,
      bornOn: passenger.bornOn,
      gender: passenger.gender,
      email: passenger.email,
      phoneNumber: passenger.phoneNumber,
      knownTravelerNumber: passenger.knownTravelerNumber,
      identityDocuments: passenger.identityDocuments,
    }));
  const seats = [...plan.seats]
    .sort((a, b) => compare(a.segmentId, b.segmentId) || compare(a.seatNumber, b.seatNumber))
    .map((seat) => ({ segmentId: seat.segmentId, providerPassengerId: seat.providerPassengerId, seatNumber: seat.seatNumber, price: seat.price }));
  return { passengers, seats };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
