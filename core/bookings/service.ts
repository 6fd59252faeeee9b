/**
 * Bookings: what the doors call. A booking is always one traveler's (the token's), whoever made it.
 * Creating one checks the request against the offer, stores the booking with its passengers and seats
 * under the traveler's idempotency key, and drives the saga (saga.ts). A repeat of the key with the same
 * body waits for the first and answers as it did; with another body it is 409 `idempotency_conflict`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { ConflictError, ForbiddenError, NotFoundError, PriceChangedError, UnprocessableError, ValidationError } from '../errors.js';
import type { BookableOffer, OfferService } from '../flights/offers.js';
import type { Owner } from '../flights/owner.js';
import type { ProviderCatalog } from '../flights/provider-catalog.js';
import { toMinorUnits } from '../money/money.js';
import type { PaymentMethodService } from '../payment-methods/service.js';
import { planBooking, type BookingPlan } from './booking-plan.js';
import { presentCancellation, presentPassenger, presentResponse, presentTrip } from './present.js';
import { BookingSaga, documentsContext, failureError, LeaseLost, vaultTokenContext, type SagaDeps } from './saga.js';
import type { BookingPassenger, BookingResponse, CancellationResult, CreateBookingRequest, RetryBookingRequest, TripSummary } from './schemas.js';
import * as store from './store.js';
import type { BookingRow } from './store.js';
import { tripColumns } from './trip.js';

export interface BookingDeps extends SagaDeps {
  offers: OfferService;
  providers: ProviderCatalog;
  paymentMethods: PaymentMethodService;
}

/** Who books: the traveler of the token, through a partner's key and client or a self-registered agent. */
export interface Booker extends Owner {
  userId: string;
  clientId?: string | undefined;
}

/** How often a repeat looks whether the first request is done. */
const WAIT_POLL_MS = 100;

export class BookingService {
  readonly #saga: BookingSaga;

  constructor(private readonly deps: BookingDeps) {
    this.#saga = new BookingSaga(deps);
  }

  /** createProviderBooking: 201 with a new booking, or (`replayed`) the booking its key made before. */
  async create(booker: Booker, providerId: string, request: CreateBookingRequest): Promise<{ response: BookingResponse; replayed: boolean }> {
    this.deps.providers.get(providerId);
    const digest = requestDigest(providerId, request);
    const earlier = await store.findByKey(this.deps.db, booker.userId, request.idempotency_key);
    if (earlier) return { response: await this.#replay(earlier, digest), replayed: true };

    const capabilities = this.deps.providers.capabilities(providerId);
    const priced = await this.#bookableOffer(booker, providerId, request.offer_id, capabilities.requires_pricing);
    const wantsSeats = (request.seat_selections?.length ?? 0) > 0;
    const seatMaps = wantsSeats && capabilities.supports_seat_selection ? await this.deps.offers.seatMaps(booker, providerId, request.offer_id) : undefined;
    const plan = planBooking({ request, offer: priced, capabilities, providerId, seatMaps });
    const card = await this.deps.paymentMethods.chargeable(booker.userId, request.payment_method_id);

    const owner = this.#saga.newOwner();
    const now = this.deps.clock.now();
    const id = randomUUID();
    // Sealed under the booking's own id: the token opens for this booking only.
    const vaultToken = this.deps.secrets.seal(card.vaultToken, vaultTokenContext(id));
    const row = await this.deps.db.transaction(async (trx) => {
      const inserted = await store.insertBooking(trx, {
        id,
        user_id: booker.userId,
        partner_id: booker.partnerId ?? null,
        client_id: booker.clientId ?? null,
        idempotency_key: request.idempotency_key,
        request_digest: digest,
        provider_id: providerId,
        offer_id: priced.id,
        provider_offer_id: priced.providerOfferId,
        offer: JSON.stringify(priced.offer),
        order_type: plan.orderType,
        status: 'pending',
        payment_method_id: card.id,
        card_brand: card.brand,
        card_last4: card.last4,
        vault_token: vaultToken,
        amount_minor: plan.amountMinor.toString(),
        currency: plan.currency,
        metadata: JSON.stringify(request.metadata ?? {}),
        contact: JSON.stringify(request.contact_info),
        services: JSON.stringify(plan.services),
        lease_owner: owner,
        lease_expires_at: this.#saga.leaseUntil(),
        ...tripColumns(priced.offer, plan.passengers),
        created_at: now,
        updated_at: now,
      });
      if (inserted) await this.#storePassengers(trx, inserted.id, plan, now);
      return inserted;
    });
    // Another request with this key got there first: answer as it does.
    if (!row) return { response: await this.#replay(await this.#byKey(booker.userId, request.idempotency_key), digest), replayed: true };
    this.deps.faults?.('pending');
    return { response: await this.#driveAndAnswer(row, owner), replayed: false };
  }

  /**
   * retryProviderBooking: pays the order a price change left held, at its new total, under a new
   * authorization. The booking is the failed attempt's; a retry already done answers its booking.
   */
  async retry(booker: Booker, providerId: string, request: RetryBookingRequest): Promise<BookingResponse> {
    this.deps.providers.get(providerId);
    const row = await store.findByOrder(this.deps.db, booker.userId, providerId, request.order_id);
    if (!row || row.offer_id !== request.offer_id) {
      throw new NotFoundError(
        `There is no booking of this traveler whose order ${request.order_id} of ${providerId} can be retried: use the order_id of a price_changed error of ${request.offer_id}.`,
        'retryable_order_not_found',
      );
    }
    const change = row.failure?.priceChange;
    if (row.status !== 'failed' || change?.orderId !== request.order_id) return presentResponse(await this.#settled(row));
    const owner = this.#saga.newOwner();
    const taken = await store.takeLease(this.deps.db, row.id, ['failed'], owner, this.#saga.leaseUntil(), this.deps.clock.now());
    if (!taken) return presentResponse(await this.#settled(row));
    const restarted = await store.advance(
      this.deps.db,
      row.id,
      owner,
      ['failed'],
      {
        status: 'pending',
        attempt: row.attempt + 1,
        amount_minor: toMinorUnits(change.newTotalAmount, change.currency).toString(),
        failure: null,
        payment_intent_id: null,
        retried_order_id: change.orderId,
      },
      this.deps.clock.now(),
      `retry of order ${change.orderId} at ${change.newTotalAmount} ${change.currency}`,
    );
    if (!restarted) return presentResponse(await this.#settled(row));
    return this.#driveAndAnswer(restarted, owner);
  }

  /** Pays a hold (decisions §9): captures the authorization held for it, then the provider's payment step. */
  async confirmHold(booker: Booker, providerId: string, bookingId: string): Promise<BookingResponse> {
    const row = await this.#own(booker, providerId, bookingId);
    if (row.order_type !== 'hold' || row.status !== 'booking_created') {
      if (row.order_type === 'hold' && ['payment_captured', 'confirmed'].includes(row.status)) return presentResponse(await this.#settled(row));
      throw new ConflictError(`Booking ${row.id} is ${row.status}, not a hold awaiting payment: only a held booking (order_type hold, status booking_created) is confirmed.`, 'booking_not_held');
    }
    if (row.payment_required_by && row.payment_required_by <= this.deps.clock.now()) {
      throw new UnprocessableError(`The hold lapsed at ${row.payment_required_by.toISOString()}: book the offer again.`, 'hold_expired');
    }
    const owner = this.#saga.newOwner();
    const now = this.deps.clock.now();
    const taken = await store.takeLease(this.deps.db, row.id, ['booking_created'], owner, this.#saga.leaseUntil(), now);
    if (!taken) return presentResponse(await this.#settled(row));
    const requested = await store.advance(this.deps.db, row.id, owner, ['booking_created'], { confirm_requested: true }, now, 'confirm requested');
    if (!requested) return presentResponse(await this.#settled(row));
    return this.#driveAndAnswer(requested, owner);
  }

  /** getProviderBooking: the traveler's own; another traveler's is 403 (decisions §3). */
  async get(booker: Booker, providerId: string, bookingId: string): Promise<BookingResponse> {
    return presentResponse(await this.#own(booker, providerId, bookingId));
  }

  /**
   * cancelProviderBooking: the owner, or an administrator with an unscoped token. A confirmed booking is
   * cancelled at the provider, and the traveler refunded what the provider refunds; a hold's authorization
   * is voided. Cancelling again answers the same result.
   */
  async cancel(booker: Booker & { isAdmin: boolean }, providerId: string, bookingId: string, reason: string | undefined): Promise<CancellationResult> {
    const row = booker.isAdmin ? await this.#any(providerId, bookingId) : await this.#own(booker, providerId, bookingId);
    if (row.status === 'cancelled') return presentCancellation(row);
    const cancellable = row.status === 'confirmed' || (row.order_type === 'hold' && row.status === 'booking_created');
    if (!cancellable) {
      throw new ConflictError(`Booking ${row.id} is ${row.status}: only a confirmed booking or an unpaid hold can be cancelled.`, 'booking_not_cancellable');
    }
    const owner = this.#saga.newOwner();
    const taken = await store.takeLease(this.deps.db, row.id, [row.status], owner, this.#saga.leaseUntil(), this.deps.clock.now());
    if (!taken) throw new ConflictError(`Booking ${row.id} is being changed by another request: read it again in a moment.`, 'booking_busy');
    return presentCancellation(await this.#saga.cancel(taken, owner, reason ?? null));
  }

  /** listUserBookings: trips, newest first, `limit` per page; the cursor is the last one's position. */
  async trips(userId: string, query: { status?: TripSummary['status'] | undefined; limit: number; cursor?: string | undefined }): Promise<{ trips: TripSummary[]; next: string | undefined }> {
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    const rows = await store.tripsOf(this.deps.db, userId, { status: query.status, today, limit: query.limit + 1, after: decodeCursor(query.cursor) });
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return { trips: page.map((row) => presentTrip(row, today)), next: rows.length > query.limit && last ? encodeCursor(last) : undefined };
  }

  /** getUserBooking. */
  async ofUser(userId: string, bookingId: string): Promise<BookingResponse['booking']> {
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

  /** The recovery pass: drives on every booking whose process died mid-saga. Returns how many. */
  async recoverAbandoned(): Promise<number> {
    let recovered = 0;
    for (const id of await store.abandoned(this.deps.db, this.deps.clock.now(), 50)) {
      const owner = this.#saga.newOwner();
      const taken = await store.takeLease(this.deps.db, id, store.IN_FLIGHT, owner, this.#saga.leaseUntil(), this.deps.clock.now());
      if (!taken) continue;
      try {
        await this.#saga.drive(taken, owner);
        recovered += 1;
      } catch (error) {
        if (!(error instanceof LeaseLost)) this.deps.logger.error({ err: error, booking_id: id }, 'booking recovery failed; the next pass tries again');
      }
    }
    return recovered;
  }

  /** Holds past their provider deadline: authorization voided, order cancelled, booking cancelled. */
  async sweepLapsedHolds(): Promise<number> {
    let swept = 0;
    for (const id of await store.lapsedHolds(this.deps.db, this.deps.clock.now(), 50)) {
      const owner = this.#saga.newOwner();
      const taken = await store.takeLease(this.deps.db, id, ['booking_created'], owner, this.#saga.leaseUntil(), this.deps.clock.now());
      if (!taken || taken.confirm_requested) continue;
      try {
        await this.#saga.cancel(taken, owner, 'hold_lapsed');
        swept += 1;
      } catch (error) {
        // One hold that cannot be let go now does not keep the others: the next sweep tries it again.
        if (!(error instanceof LeaseLost)) this.deps.logger.error({ err: error, booking_id: id }, 'a lapsed hold could not be let go; the next sweep tries again');
      }
    }
    return swept;
  }

  /** Drives a booking this request holds the lease of, and answers its outcome (or its recorded failure). */
  async #driveAndAnswer(row: BookingRow, owner: string): Promise<BookingResponse> {
    let done: BookingRow;
    try {
      done = await this.#saga.drive(row, owner);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      done = await this.#settled(row);
    }
    if (done.status === 'failed' && done.failure) throw failureError(done.failure);
    return presentResponse(done);
  }

  /** The answer to a repeat of the key: the same body waits for the first request's outcome. */
  async #replay(row: BookingRow, digest: string): Promise<BookingResponse> {
    if (row.request_digest !== digest) {
      throw new ConflictError(
        `The idempotency_key ${row.idempotency_key} was used for another request (booking ${row.id}): send the same body to read that booking, or a new key for a new booking.`,
        'idempotency_conflict',
      );
    }
    const settled = await this.#settled(row);
    if (settled.status === 'failed' && settled.failure) throw failureError(settled.failure);
    return presentResponse(settled);
  }

  /**
   * The booking once no process drives it any more. A booking whose process died is driven on here, by
   * whoever waits for it: the recovery pass need not come first.
   */
  async #settled(start: BookingRow): Promise<BookingRow> {
    const limit = this.deps.clock.now().getTime() + this.deps.providers.capabilities(start.provider_id).booking_timeout_seconds * 2000 + 30_000;
    let row = start;
    while (row.lease_owner !== null && this.deps.clock.now().getTime() < limit) {
      if (row.lease_expires_at && row.lease_expires_at < this.deps.clock.now()) {
        // Its holder died after the last step was recorded (confirmed, failed): nothing is left to wait for.
        if (!store.IN_FLIGHT.includes(row.status)) return row;
        const owner = this.#saga.newOwner();
        const taken = await store.takeLease(this.deps.db, row.id, store.IN_FLIGHT, owner, this.#saga.leaseUntil(), this.deps.clock.now());
        if (taken) return this.#saga.drive(taken, owner).catch((error: unknown) => (error instanceof LeaseLost ? this.#reload(row.id) : Promise.reject(error)));
      }
      await sleep(WAIT_POLL_MS);
      row = await this.#reload(row.id);
    }
    return row;
  }

  async #reload(id: string): Promise<BookingRow> {
    const row = await store.findById(this.deps.db, id);
    if (!row) throw new Error(`booking ${id} vanished`);
    return row;
  }

  async #byKey(userId: string, key: string): Promise<BookingRow> {
    const row = await store.findByKey(this.deps.db, userId, key);
    if (!row) throw new Error(`booking of key ${key} vanished`);
    return row;
  }

  /**
   * The offer to book. A provider that requires pricing is priced first, unless it was priced in the last
   * minutes: a total that moved is said now (409 price_changed, no order exists yet), whether this request
   * priced it or another one did at the same moment.
   */
  async #bookableOffer(booker: Booker, providerId: string, offerId: string, requiresPricing: boolean): Promise<BookableOffer> {
    const offer = await this.deps.offers.bookable(booker, providerId, offerId);
    if (!requiresPricing || (offer.pricedAt && this.deps.clock.now().getTime() - offer.pricedAt.getTime() < PRICING_FRESH_MS)) return offer;
    try {
      await this.deps.offers.price(booker, providerId, offerId);
    } catch (error) {
      // Priced by a concurrent request: its result is stored, and compared below all the same.
      if (!(error instanceof ConflictError && error.code === 'offer_changed')) throw error;
    }
    const priced = await this.deps.offers.bookable(booker, providerId, offerId);
    const before = offer.offer;
    if (priced.offer.total_amount !== before.total_amount || priced.offer.total_currency !== before.total_currency) {
      throw new PriceChangedError({ orderId: null, previousTotalAmount: before.total_amount, newTotalAmount: priced.offer.total_amount, currency: priced.offer.total_currency });
    }
    return priced;
  }

  async #storePassengers(trx: Knex.Transaction, bookingId: string, plan: BookingPlan, now: Date): Promise<void> {
    const ids = new Map<string, string>();
    for (const passenger of plan.passengers) {
      const [row] = await trx('booking_passengers')
        .insert({
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
          created_at: now,
          updated_at: now,
        })
        .returning('id');
      const id = row.id as string;
      ids.set(passenger.providerPassengerId, id);
      if (passenger.identityDocuments.length > 0 || passenger.knownTravelerNumber) {
        const sealed = this.deps.secrets.seal(JSON.stringify({ identityDocuments: passenger.identityDocuments, knownTravelerNumber: passenger.knownTravelerNumber }), documentsContext(id));
        await trx('booking_passengers').where({ id }).update({ documents_sealed: sealed });
      }
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

  #knownTravelerNumber(passenger: store.BookingPassengerRow): string | null {
    if (!passenger.documents_sealed) return null;
    return (JSON.parse(this.deps.secrets.open(passenger.documents_sealed, documentsContext(passenger.id))) as { knownTravelerNumber: string | null }).knownTravelerNumber;
  }

  /** A booking of the provider: the traveler's own, 403 for another traveler's, 404 for none. */
  async #own(booker: Booker, providerId: string, bookingId: string): Promise<BookingRow> {
    const row = await this.#any(providerId, bookingId);
    if (row.user_id !== booker.userId) throw new ForbiddenError(`Booking ${bookingId} is not this traveler's: only its traveler (or an administrator) reaches it.`, 'not_booking_owner');
    return row;
  }

  async #any(providerId: string, bookingId: string): Promise<BookingRow> {
    this.deps.providers.get(providerId);
    const row = await store.findById(this.deps.db, bookingId);
    if (!row || row.provider_id !== providerId) throw notFound(bookingId);
    return row;
  }

  /** A trip of the traveler: `/users/{userid}/bookings/{id}` of another traveler is 403 too (decisions §3). */
  async #ofUser(userId: string, bookingId: string): Promise<BookingRow> {
    const row = await store.findById(this.deps.db, bookingId);
    if (!row) throw notFound(bookingId);
    if (row.user_id !== userId) throw new ForbiddenError(`Booking ${bookingId} is not this traveler's: only its traveler (or an administrator) reaches it.`, 'not_booking_owner');
    return row;
  }
}

/** A priced offer younger than this is not priced again before booking. */
const PRICING_FRESH_MS = 10 * 60_000;

function notFound(bookingId: string): NotFoundError {
  return new NotFoundError(`There is no booking ${bookingId}: list the traveler's trips with GET /v1/users/me/bookings.`, 'booking_not_found');
}

/** The request as it means: fields the server ignores (provider_id, customer_id) left out, keys sorted. */
function requestDigest(providerId: string, request: CreateBookingRequest): string {
  const { provider_id: _provider, customer_id: _customer, ...meaningful } = request;
  return createHash('sha256').update(JSON.stringify(sorted({ providerId, ...meaningful }))).digest('base64url');
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((name) => [name, sorted((value as Record<string, unknown>)[name])]));
  return value;
}

/** A creation time as encodeCursor writes it (toISOString of a four-digit year). */
const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function encodeCursor(row: BookingRow): string {
  return Buffer.from(JSON.stringify([row.created_at.toISOString(), row.id])).toString('base64url');
}

function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (!cursor) return undefined;
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    // Only what encodeCursor writes: a date such as -271821-04-20 parses in JavaScript, but PostgreSQL
    // cannot hold it and the query would fail with a 500.
    if (typeof createdAt !== 'string' || !CURSOR_INSTANT.test(createdAt) || !store.UUID.test(id)) throw new Error('bad cursor');
    const date = new Date(createdAt);
    if (Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw new ValidationError([{ field: 'cursor', rule: 'cursor', message: 'not a cursor this API gave: start again without it' }]);
  }
}

