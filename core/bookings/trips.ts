/**
 * A traveler's trips and the records of their bookings (specification: User bookings; decisions §2):
 * the read side, beside the saga. Another traveler's booking is 403 here too (decisions §3).
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import { presentPassenger, presentResponse, presentTrip } from './present.js';
import { documentsContext } from './stored-parts.js';
import type { Booking, BookingPassenger, TripSummary } from './schemas.js';
import * as store from './store.js';
import type { BookingRow } from './store.js';

export class TripService {
  constructor(private readonly deps: { db: Knex; clock: Clock; secrets: SecretBox }) {}

  /** listUserBookings: trips, newest first, `limit` per page; the cursor is the last one's position. */
  async list(userId: string, query: { status?: TripSummary['status'] | undefined; limit: number; cursor?: string | undefined }): Promise<{ trips: TripSummary[]; next: string | undefined }> {
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    const rows = await store.tripsOf(this.deps.db, userId, { status: query.status, today, limit: query.limit + 1, after: decodeCursor(query.cursor) });
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return { trips: page.map((row) => presentTrip(row, today)), next: rows.length > query.limit && last ? encodeCursor(last) : undefined };
  }

  /** getUserBooking. */
  async ofUser(userId: string, bookingId: string): Promise<Booking> {
    return presentResponse(await this.#ofUser(userId, bookingId)).booking;
  }

  /** getUserBookingPassengers. */
  async passengers(userId: string, bookingId: string): Promise<BookingPassenger[]> {
    const row = await this.#ofUser(userId, bookingId);
    const [passengers, seats] = await Promise.all([store.passengersOf(this.deps.db, row.id), store.seatsOf(this.deps.db, row.id)]);
    return passengers.map((passenger) => presentPassenger(passenger, seats, this.#knownTravelerNumber(passenger)));
  }

  /** getUserBookingOffer: the offer as it was booked. */
  async offer(userId: string, bookingId: string): Promise<Record<string, unknown>> {
    const row = await this.#ofUser(userId, bookingId);
    return { ...row.offer, id: row.offer_id ?? row.provider_offer_id };
  }

  #knownTravelerNumber(passenger: store.BookingPassengerRow): string | null {
    if (!passenger.documents_sealed) return null;
    return (JSON.parse(this.deps.secrets.open(passenger.documents_sealed, documentsContext(passenger.id))) as { knownTravelerNumber: string | null }).knownTravelerNumber;
  }

  /** A trip of the traveler: `/users/{userid}/bookings/{id}` of another traveler is 403 too (decisions §3). */
  async #ofUser(userId: string, bookingId: string): Promise<BookingRow> {
    const row = await store.findById(this.deps.db, bookingId);
    if (!row) throw bookingNotFound(bookingId);
    if (row.user_id !== userId) throw new ForbiddenError(`Booking ${bookingId} is not this traveler's: only its traveler (or an administrator) reaches it.`, 'not_booking_owner');
    return row;
  }
}

export function bookingNotFound(bookingId: string): NotFoundError {
  return new NotFoundError(`There is no booking ${bookingId}: list the traveler's trips with GET /v1/users/me/bookings.`, 'booking_not_found');
}
