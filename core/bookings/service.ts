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
import { checkDepartureWindow } from '../flights/departure-window.js';
import type { Offer } from '../flights/offer-schemas.js';
import type { BookableOffer, OfferService } from '../flights/offers.js';
import type { Owner } from '../flights/owner.js';
import type { ProviderCatalog } from '../flights/provider-catalog.js';
import type { ProviderCapabilities } from '../flights/schemas.js';
import { boundProblem, maxAmount, toMinorUnits } from '../money/money.js';
import type { PaymentMethodService } from '../payment-methods/service.js';
import { planBooking } from './booking-plan.js';
import type { PurchaseGate } from './purchase-gate.js';
import { checkExpectedTotal, quotePurchase, totalBreakdown } from './purchase-quote.js';
import { orderParts, passengerRecords } from './passenger-records.js';
import { presentCancellation, presentResponse } from './present.js';
import { failureError } from './failures.js';
import { HoldDeadlines } from './hold-deadlines.js';
import { BookingSaga, LeaseLost, type SagaDeps } from './saga.js';
import { vaultTokenContext, type HeldParts } from './stored-parts.js';
import type { BookingResponse, CancellationResult, CreateBookingRequest, RetryBookingRequest } from './schemas.js';
import * as store from './store.js';
import type { BookingRow } from './store.js';
import { bookingNotFound } from './trips.js';
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
  /** Unpaid holds at their deadlines: the warning two hours before, the lapse at it (the jobs' work). */
  readonly holds: HoldDeadlines;

  constructor(private readonly deps: BookingDeps) {
    this.#saga = new BookingSaga(deps);
    this.holds = new HoldDeadlines(deps, this.#saga);
  }

  /** createProviderBooking: 201 with a new booking, or (`replayed`) the booking its key made before. */
  async create(booker: Booker, providerId: string, request: CreateBookingRequest, gate?: PurchaseGate): Promise<{ response: BookingResponse; replayed: boolean }> {
    this.deps.providers.get(providerId);
    const digest = requestDigest(providerId, request);
    const earlier = await store.findByKey(this.deps.db, booker.userId, request.idempotency_key);
    if (earlier) return { response: await this.#replay(earlier, digest), replayed: true };

    const capabilities = this.deps.providers.capabilities(providerId);
    // The card is read while the offer is: its refusal still comes after the offer's and the plan's.
    const cardRead = this.deps.paymentMethods.chargeable(booker.userId, request.payment_method_id);
    cardRead.catch(() => undefined);
    const priced = await this.#bookableOffer(booker, providerId, request.offer_id, capabilities);
    const wantsSeats = (request.seat_selections?.length ?? 0) > 0;
    const seatMaps = wantsSeats && capabilities.supports_seat_selection ? await this.deps.offers.seatMaps(booker, providerId, request.offer_id) : undefined;
    const plan = planBooking({ request, offer: priced, capabilities, providerId, seatMaps });
    const card = await cardRead;
    checkExpectedTotal(request.expected_total, { amountMinor: plan.amountMinor, breakdown: totalBreakdown(priced, plan) });
    // The quote's fingerprint digests the whole offer: only a gate needs it.
    const admission = gate ? await gate.admit(quotePurchase({ userId: booker.userId, clientId: booker.clientId, providerId, offer: priced, plan, card, request })) : undefined;

    const owner = this.#saga.newOwner();
    const now = this.deps.clock.now();
    const id = randomUUID();
    // Sealed under the booking's own id: the token opens for this booking only.
    const vaultToken = this.deps.secrets.seal(card.vaultToken, vaultTokenContext(id));
    const booking = {
      id,
      user_id: booker.userId,
      partner_id: booker.partnerId ?? null,
      client_id: booker.clientId ?? null,
      idempotency_key: request.idempotency_key,
      request_digest: digest,
      provider_id: providerId,
      offer_id: priced.id,
      provider_offer_id: priced.providerOfferId,
      offer: priced.offer,
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
    };
    const { passengers, seats } = passengerRecords(this.deps.secrets, id, plan, now);
    const insert = (db: Knex) => store.insertBooking(db, booking, passengers, seats);
    // One statement stores the booking whole; a gate's commit joins it in a transaction.
    const row = admission
      ? await this.deps.db.transaction(async (trx) => {
          const inserted = await insert(trx);
          if (inserted) await admission.commit(trx, inserted.id);
          return inserted;
        })
      : await insert(this.deps.db);
    // Another request with this key got there first: answer as it does.
    if (!row) return { response: await this.#replay(await this.#byKey(booker.userId, request.idempotency_key), digest), replayed: true };
    this.deps.faults?.('pending');
    return { response: await this.#driveAndAnswer(row, owner, { ...orderParts(plan), vaultToken: card.vaultToken }), replayed: false };
  }

  /**
   * The answer of a booking already made under `key`, for a caller whose request is rebuilt from data that
   * may have changed since (create_booking's lookup): the same provider and offer answer that booking (or
   * its failure) even after the offer expired; another offer under the key is 409 `idempotency_conflict`.
   */
  async madeWithKey(booker: Booker, providerId: string, offerId: string, key: string): Promise<BookingResponse | undefined> {
    const row = await store.findByKey(this.deps.db, booker.userId, key);
    if (!row) return undefined;
    if (row.provider_id !== providerId || row.offer_id !== offerId) {
      throw new ConflictError(`The idempotency_key ${key} was used for another offer (booking ${row.id}): send a new key for a new booking.`, 'idempotency_conflict');
    }
    return answerOf(await this.#settled(row));
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
    if (row.status !== 'failed' || change?.orderId !== request.order_id) return answerOf(await this.#settled(row));
    checkDepartureWindow(row.offer as Pick<Offer, 'slices'>, this.deps.providers.capabilities(providerId), providerId, this.deps.clock.now());
    // The new total is the provider's word: one beyond the bound of every amount cannot be charged.
    const tooLarge = boundProblem(toMinorUnits(change.newTotalAmount, change.currency), change.currency, 'order_id');
    if (tooLarge) {
      const message = `the provider's new total for order ${change.orderId}, ${change.newTotalAmount} ${change.currency}, is beyond the largest amount taken (${maxAmount(change.currency)} ${change.currency}): it cannot be paid; book another offer`;
      throw new ValidationError([{ ...tooLarge, message }]);
    }
    const owner = this.#saga.newOwner();
    const taken = await store.takeLease(this.deps.db, row.id, ['failed'], owner, this.#saga.leaseUntil(), this.deps.clock.now());
    if (!taken) return answerOf(await this.#settled(row));
    const restarted = await store.advance(this.deps.db, taken, {
      leaseOwner: owner,
      from: ['failed'],
      changes: {
        status: 'pending',
        attempt: row.attempt + 1,
        amount_minor: toMinorUnits(change.newTotalAmount, change.currency).toString(),
        failure: null,
        payment_intent_id: null,
        retried_order_id: change.orderId,
      },
      now: this.deps.clock.now(),
      note: `retry of order ${change.orderId} at ${change.newTotalAmount} ${change.currency}`,
    });
    if (!restarted) return answerOf(await this.#settled(row));
    return this.#driveAndAnswer(restarted, owner);
  }

  /** Pays a hold (decisions §9): captures the authorization held for it, then the provider's payment step. */
  async confirmHold(booker: Booker, providerId: string, bookingId: string): Promise<BookingResponse> {
    const row = await this.#own(booker, providerId, bookingId);
    if (row.order_type !== 'hold' || row.status !== 'booking_created') {
      if (row.order_type === 'hold' && ['payment_captured', 'confirmed'].includes(row.status)) return answerOf(await this.#settled(row));
      throw new ConflictError(`Booking ${row.id} is ${row.status}, not a hold awaiting payment: only a held booking (order_type hold, status booking_created) is confirmed.`, 'booking_not_held');
    }
    if (row.payment_required_by && row.payment_required_by <= this.deps.clock.now()) {
      throw new UnprocessableError(`The hold lapsed at ${row.payment_required_by.toISOString()}: book the offer again.`, 'hold_expired');
    }
    const owner = this.#saga.newOwner();
    const now = this.deps.clock.now();
    const taken = await store.takeLease(this.deps.db, row.id, ['booking_created'], owner, this.#saga.leaseUntil(), now);
    if (!taken) return answerOf(await this.#settled(row));
    const requested = await store.advance(this.deps.db, taken, { leaseOwner: owner, from: ['booking_created'], changes: { confirm_requested: true }, now, note: 'confirm requested' });
    if (!requested) return answerOf(await this.#settled(row));
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

  /** Drives a booking this request holds the lease of, and answers its outcome (or its recorded failure). */
  async #driveAndAnswer(row: BookingRow, owner: string, held?: HeldParts): Promise<BookingResponse> {
    let done: BookingRow;
    try {
      done = await this.#saga.drive(row, owner, held);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      done = await this.#settled(row);
    }
    return answerOf(done);
  }

  /** The answer to a repeat of the key: the same body waits for the first request's outcome. */
  async #replay(row: BookingRow, digest: string): Promise<BookingResponse> {
    if (row.request_digest !== digest) {
      throw new ConflictError(
        `The idempotency_key ${row.idempotency_key} was used for another request (booking ${row.id}): send the same body to read that booking, or a new key for a new booking.`,
        'idempotency_conflict',
      );
    }
    return answerOf(await this.#settled(row));
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
  async #bookableOffer(booker: Booker, providerId: string, offerId: string, capabilities: ProviderCapabilities): Promise<BookableOffer> {
    const offer = await this.deps.offers.bookable(booker, providerId, offerId);
    // A flight that has left (or leaves too soon, or too far ahead) is refused before the provider is asked.
    checkDepartureWindow(offer.offer, capabilities, providerId, this.deps.clock.now());
    if (!capabilities.requires_pricing || (offer.pricedAt && this.deps.clock.now().getTime() - offer.pricedAt.getTime() < PRICING_FRESH_MS)) return offer;
    let priced: BookableOffer;
    try {
      // Priced as just read: not read again.
      const result = await this.deps.offers.priceBookable(booker, providerId, offer);
      const { version: _read, ...read } = offer;
      priced = { ...read, offer: result.offer, raw: result.offer.raw_offer ?? offer.raw, pricedAt: this.deps.clock.now() };
    } catch (error) {
      // Priced by a concurrent request: its result is stored, read and compared all the same.
      if (!(error instanceof ConflictError && error.code === 'offer_changed')) throw error;
      priced = await this.deps.offers.bookable(booker, providerId, offerId);
    }
    const before = offer.offer;
    if (priced.offer.total_amount !== before.total_amount || priced.offer.total_currency !== before.total_currency) {
      throw new PriceChangedError({ orderId: null, previousTotalAmount: before.total_amount, newTotalAmount: priced.offer.total_amount, currency: priced.offer.total_currency });
    }
    return priced;
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
    if (!row || row.provider_id !== providerId) throw bookingNotFound(bookingId);
    return row;
  }

}

/**
 * What a booking answers once waited for: its recorded failure, or the booking; one still being driven
 * (a process still on it, or one that died less than a lease ago) is 409, to be read again shortly.
 */
function answerOf(row: BookingRow): BookingResponse {
  if (row.status === 'failed' && row.failure) throw failureError(row.failure);
  if (row.lease_owner !== null && store.IN_FLIGHT.includes(row.status)) {
    throw new ConflictError(
      `Booking ${row.id} is still being completed (${row.status}): send the same request again in a minute to read its outcome; it will not be booked or charged twice.`,
      'booking_in_progress',
    );
  }
  return presentResponse(row);
}

/** A priced offer younger than this is not priced again before booking. */
const PRICING_FRESH_MS = 10 * 60_000;


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
