/**
 * A booking's own copy of its passengers and seats, written with the booking: what the traveler sent,
 * with a reference to the saved passenger it was booked as (which keeps that passenger from hard
 * deletion). Identity documents and the known-traveler number are sealed under the passenger row's id.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { SecretBox } from '../crypto/secret-box.js';
import type { BookingPlan } from './booking-plan.js';
import { documentsContext } from './saga.js';

export async function storePassengers(trx: Knex.Transaction, secrets: SecretBox, bookingId: string, plan: BookingPlan, now: Date): Promise<void> {
  const ids = new Map<string, string>();
  for (const passenger of plan.passengers) {
    // The id is made here: the documents are sealed under it, in the same insert.
    const id = randomUUID();
    const hasDocuments = passenger.identityDocuments.length > 0 || passenger.knownTravelerNumber !== null;
    await trx('booking_passengers').insert({
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
    });
    ids.set(passenger.providerPassengerId, id);
  }
  for (const seat of plan.seats) {
    await trx('booking_seat_selections').insert({
      booking_id: bookingId,
      booking_passenger_id: ids.get(seat.providerPassengerId),
      user_passenger_id: plan.passengers.find((passenger) => passenger.providerPassengerId === seat.providerPassengerId)?.userPassengerId ?? null,
      segment_id: seat.segmentId,
      seat_number: seat.seatNumber,
      seat_row: seat.row,
      seat_column: seat.column,
      price: seat.price,
      currency: seat.price === null ? null : plan.currency,
      created_at: now,
      updated_at: now,
    });
  }
}
