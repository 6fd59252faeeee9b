/**
 * A booking's order as the saga needs it: held by the request that stored the booking, or read back from
 * the stored booking by a drive without that request (the recovery pass, a repeat that finds its process
 * dead, a retry), which opens what the request sealed. Both give the same order.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../crypto/secret-box.js';
import type { OrderPassenger, OrderRequest } from '../flights/flight-provider.js';
import { fromMinorUnits, toMinorUnits } from '../money/money.js';
import * as store from './store.js';
import type { BookingRow } from './store.js';

/** The order's passengers and seats. */
export interface OrderParts {
  passengers: OrderPassenger[];
  seats: OrderRequest['seats'];
}

/**
 * What the request that stored the booking still holds, in plain text: the order's passengers and seats
 * as the plan made them, and the card's vault token. The drive that follows the insert uses them instead
 * of reading the rows it just wrote and opening what it just sealed.
 */
export interface HeldParts extends OrderParts {
  vaultToken: string;
}

/** The order's passengers and seats as the booking stored them, documents opened. */
export async function storedParts(db: Knex, secrets: SecretBox, row: BookingRow): Promise<OrderParts> {
  const [passengers, seats] = await Promise.all([store.passengersOf(db, row.id), store.seatsOf(db, row.id)]);
  const byId = new Map(passengers.map((passenger) => [passenger.id, passenger]));
  return {
    passengers: passengers.map((passenger) => orderPassenger(secrets, passenger)),
    seats: seats.map((seat) => ({
      segmentId: seat.segment_id,
      providerPassengerId: byId.get(seat.booking_passenger_id)?.provider_passenger_id as string,
      seatNumber: seat.seat_number,
      price: seat.price === null ? null : fromMinorUnits(toMinorUnits(seat.price, row.currency), row.currency),
    })),
  };
}

/** The card's vault token as the booking sealed it. */
export function storedVaultToken(secrets: SecretBox, row: BookingRow): string {
  return secrets.open(row.vault_token as string, vaultTokenContext(row.id));
}

export function vaultTokenContext(bookingId: string): string {
  return `bookings:${bookingId}:vault_token`;
}

export function documentsContext(bookingPassengerId: string): string {
  return `booking_passengers:${bookingPassengerId}:documents`;
}

function orderPassenger(secrets: SecretBox, passenger: store.BookingPassengerRow): OrderPassenger {
  const sealed = passenger.documents_sealed
    ? (JSON.parse(secrets.open(passenger.documents_sealed, documentsContext(passenger.id))) as Pick<OrderPassenger, 'identityDocuments' | 'knownTravelerNumber'>)
    : { identityDocuments: [], knownTravelerNumber: null };
  return {
    providerPassengerId: passenger.provider_passenger_id,
    type: travelerTypeOfRow(passenger.traveler_type),
    title: passenger.title,
    firstName: passenger.first_name,
    middleName: passenger.middle_name,
    lastName: passenger.last_name,
    bornOn: dateOnly(passenger.date_of_birth),
    gender: passenger.gender as OrderPassenger['gender'],
    email: passenger.email,
    phoneNumber: passenger.phone_number,
    knownTravelerNumber: sealed.knownTravelerNumber,
    identityDocuments: sealed.identityDocuments,
  };
}

function travelerTypeOfRow(type: string): OrderPassenger['type'] {
  return type === 'infant' ? 'infant_without_seat' : (type as OrderPassenger['type']);
}

function dateOnly(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}
