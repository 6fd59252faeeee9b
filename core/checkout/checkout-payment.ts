/**
 * The hosted checkout's review and pay (decisions §12): the traveler's choices turned into one booking
 * request against our stored offer, priced again where the provider requires it, and booked through the
 * booking saga as the traveler, for the session's partner, with the session's metadata.
 *
 * One booking per session, whatever the clicks and reloads: a pay holds the session's pay lease while it
 * books (a conditional write: of two at once one takes it, the other waits), and books attempt n under
 * the traveler's idempotency key `checkout_<session id>_<n>`. While attempt n's booking is pending or
 * confirmed, a pay answers that booking; only after it failed (a declined card) does the next pay start
 * attempt n+1. A held order whose price moved (providers c, d, e) is paid at its new total by retrying
 * that same booking, once the traveler accepted the new total. No database transaction is held while the
 * saga runs: the embedded database has one connection.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { planBooking } from '../bookings/booking-plan.js';
import { CreateBookingRequest, type BookingPassengerInput, type BookingResponse } from '../bookings/schemas.js';
import type { Booker, BookingService } from '../bookings/service.js';
import * as bookingStore from '../bookings/store.js';
import type { BookingRow } from '../bookings/store.js';
import type { Clock } from '../clock.js';
import { ConflictError, DomainError, PriceChangedError, UnprocessableError } from '../errors.js';
import { checkDepartureWindow } from '../flights/departure-window.js';
import type { BookableOffer, OfferService } from '../flights/offers.js';
import type { Owner } from '../flights/owner.js';
import type { ProviderCatalog } from '../flights/provider-catalog.js';
import { fromMinorUnits, toMinorUnits } from '../money/money.js';
import type { PassengerService } from '../passengers/service.js';
import type { PaymentMethodService } from '../payment-methods/service.js';
import { parseOrThrow } from '../validation.js';
import { checkoutBookingMetadata, completedBookingOf } from './booking.js';
import { partnerOwner, UNSELLABLE, type CheckoutAccess, type CheckoutTraveler, type HostedCheckout } from './hosted-checkout.js';
import { CheckoutChoices, CheckoutPayment, type Passport, type TravelingPassenger } from './hosted-schemas.js';
import { presentSession, requireOpen, type CheckoutSessionService, type HostedCheckoutSession } from './service.js';
import * as store from './store.js';
import type { CheckoutSessionRow } from './store.js';

export interface CheckoutPaymentDeps {
  db: Knex;
  clock: Clock;
  hosted: HostedCheckout;
  sessions: CheckoutSessionService;
  offers: OfferService;
  bookings: BookingService;
  providers: ProviderCatalog;
  passengers: PassengerService;
  paymentMethods: PaymentMethodService;
}

/** What the review step shows: the final total, in parts. */
export interface CheckoutReview {
  total_amount: string;
  currency: string;
  offer_total_amount: string;
  seats_amount: string;
  bags_amount: string;
  /** The provider priced the offer again just now. */
  priced: boolean;
  /** The offer's total before this pricing moved it, or before a held order's price moved; null when it did not move. */
  previous_total_amount: string | null;
  card: { id: string; brand: string; last4: string };
}

/** The booking the checkout made. */
export interface CheckoutBooked {
  booking_id: string;
  airline_pnr: string | null;
  provider_id: string;
  status: string;
  total_amount: string;
  currency: string;
}

const WAIT_POLL_MS = 200;

export class CheckoutPayments {
  constructor(private readonly deps: CheckoutPaymentDeps) {}

  /** Checks the choices against the offer (priced again where the provider requires it) and says the total. */
  async review(access: CheckoutAccess, traveler: CheckoutTraveler, input: unknown): Promise<CheckoutReview> {
    const { session } = access;
    requireOpen(session);
    const choices = parseOrThrow(CheckoutChoices, input);
    if (!choices.payment_method_id) throw new UnprocessableError('Choose a card first.', 'payment_method_required');
    // Read as the session's partner: the traveler claims the offer only when they pay (a traveler who signs
    // out again leaves it to the next one).
    const owner = partnerOwner(session);
    const capabilities = this.deps.providers.capabilities(session.provider_id);
    try {
      let current = await this.deps.offers.get(owner, session.provider_id, session.offer_id);
      checkDepartureWindow(current, capabilities, session.provider_id, this.deps.clock.now());
      let previous: string | null = null;
      let priced = false;
      if (capabilities.requires_pricing) {
        const result = await this.deps.offers.price(owner, session.provider_id, session.offer_id);
        priced = true;
        if (result.price_changed) previous = result.previous_total_amount;
        current = result.offer;
      }
      const offer: BookableOffer = { id: current.id, providerOfferId: null, offer: current, raw: current.raw_offer ?? {}, pricedAt: null, savedPassengers: new Map() };
      const request = await this.#request(access, traveler, choices, choices.payment_method_id, 'checkout_review');
      const plan = await this.#plan(owner, session, offer, request);
      const card = await this.deps.paymentMethods.chargeable(traveler.userId, choices.payment_method_id);
      const offerMinor = toMinorUnits(offer.offer.total_amount, plan.currency);
      const seatsMinor = plan.seats.reduce((sum, seat) => sum + (seat.price === null ? 0n : toMinorUnits(seat.price, plan.currency)), 0n);
      const review: CheckoutReview = {
        total_amount: plan.amount,
        currency: plan.currency,
        offer_total_amount: offer.offer.total_amount,
        seats_amount: fromMinorUnits(seatsMinor, plan.currency),
        bags_amount: fromMinorUnits(plan.amountMinor - offerMinor - seatsMinor, plan.currency),
        priced,
        previous_total_amount: previous,
        card: { id: card.id, brand: card.brand, last4: card.last4 },
      };
      // A held order whose price moved is paid at the provider's new total (providers c, d and e).
      const held = await this.#heldPriceChange(access.row, traveler);
      if (!held) return review;
      // The provider's new total is the whole order's: the flight is what is left of it after the extras.
      const newMinor = toMinorUnits(held.newTotalAmount, plan.currency);
      const flight = fromMinorUnits(newMinor - (plan.amountMinor - offerMinor), plan.currency);
      return { ...review, total_amount: fromMinorUnits(newMinor, plan.currency), offer_total_amount: flight, previous_total_amount: held.previousTotalAmount };
    } catch (error) {
      throw await this.#unavailable(session, error);
    }
  }

  /** Books the session's offer once, at the total the review showed (`expected_total`). */
  async pay(access: CheckoutAccess, traveler: CheckoutTraveler, input: unknown): Promise<CheckoutBooked> {
    const payment = parseOrThrow(CheckoutPayment, input);
    const { session } = access;
    const booker = bookerOf(session, traveler);
    const leaseMs = this.#leaseMs(session.provider_id);
    const giveUpAt = this.deps.clock.now().getTime() + leaseMs + 10_000;
    for (;;) {
      const now = this.deps.clock.now();
      if (now.getTime() > giveUpAt) throw inProgress(session.id);
      const row = await store.findSession(this.deps.db, session.id);
      if (!row) throw new ConflictError(`Checkout session ${session.id} is over: it takes no other booking.`, 'checkout_session_closed');
      const current = presentSession(row, now);
      if (current.status === 'complete') return this.#alreadyBooked(row, traveler);
      requireOpen(current);
      const attempt = row.booking_attempt ?? 0;
      if (row.paying_until && row.paying_until > now) {
        // Another pay of this session is booking right now (a double click, a second tab): its outcome is the answer.
        await sleep(WAIT_POLL_MS);
        continue;
      }
      const earlier = attempt > 0 && row.attempt_user_id ? await bookingStore.findByKey(this.deps.db, row.attempt_user_id, attemptKey(session.id, attempt)) : undefined;
      if (earlier && earlier.status !== 'failed') {
        if (row.attempt_user_id !== traveler.userId) throw bookedByAnother(session.id);
        return this.#settle(access, booker, earlier);
      }
      const change = earlier?.failure?.priceChange;
      const retry = change?.orderId && row.attempt_user_id === traveler.userId && sameAmount(payment.expected_total, change.newTotalAmount, change.currency) ? change.orderId : undefined;
      const until = new Date(now.getTime() + leaseMs);
      const taken = await store.takePayLease(this.deps.db, session.id, { seen: attempt, userId: traveler.userId, until, now, newAttempt: !retry });
      if (taken === undefined) continue;
      try {
        const request = await this.#request(access, traveler, payment, payment.payment_method_id, attemptKey(session.id, taken), payment.expected_total);
        const response = retry
          ? await this.deps.bookings.retry(booker, session.provider_id, { ...request, order_id: retry })
          : (await this.deps.bookings.create(booker, session.provider_id, request)).response;
        return await this.#booked(session, response);
      } catch (error) {
        throw await this.#payFailure(session, booker, error);
      } finally {
        await store.releasePayLease(this.deps.db, session.id, taken);
      }
    }
  }

  /** The session already has its booking: the traveler who made it reads it again; anyone else is refused. */
  #alreadyBooked(row: CheckoutSessionRow, traveler: CheckoutTraveler): CheckoutBooked {
    if (row.attempt_user_id !== traveler.userId || !row.booking_id) throw bookedByAnother(row.id);
    return { booking_id: row.booking_id, airline_pnr: row.airline_pnr, provider_id: row.provider_id, status: 'confirmed', total_amount: row.total_amount, currency: row.currency };
  }

  /** An earlier attempt's booking, pending or confirmed: waited for, and answered. */
  async #settle(access: CheckoutAccess, booker: Booker, earlier: BookingRow): Promise<CheckoutBooked> {
    const { session } = access;
    try {
      const response = await this.deps.bookings.madeWithKey(booker, session.provider_id, session.offer_id, earlier.idempotency_key);
      if (!response) throw new Error(`booking ${earlier.id} vanished`);
      return await this.#booked(session, response);
    } catch (error) {
      throw await this.#payFailure(session, booker, error);
    }
  }

  /** A confirmed booking completes the session (again: the same booking answers the same). */
  async #booked(session: HostedCheckoutSession, response: BookingResponse): Promise<CheckoutBooked> {
    const completed = completedBookingOf(response);
    if (response.status === 'confirmed') await this.deps.sessions.complete(session.id, completed);
    return {
      booking_id: completed.booking_id,
      airline_pnr: completed.airline_pnr,
      provider_id: session.provider_id,
      status: response.status,
      total_amount: completed.total_amount,
      currency: completed.currency,
    };
  }

  /**
   * What a failed pay answers. An offer that cannot be sold any more ends the session
   * (`offer_unavailable`). A price that moved at the provider with no order held is priced again, so
   * that the next review shows the new total; the traveler accepts it there (or searches again).
   */
  async #payFailure(session: HostedCheckoutSession, booker: Booker, error: unknown): Promise<unknown> {
    if (error instanceof PriceChangedError && error.orderId === null) {
      try {
        await this.deps.offers.price(booker, session.provider_id, session.offer_id);
      } catch (pricing) {
        const unavailable = await this.#unavailable(session, pricing);
        if (unavailable !== pricing) return unavailable;
      }
      return error;
    }
    return this.#unavailable(session, error);
  }

  /** An error that means the offer cannot be sold fails the session and becomes 422 `offer_unavailable`. */
  async #unavailable(session: HostedCheckoutSession, error: unknown): Promise<unknown> {
    if (!(error instanceof DomainError) || !UNSELLABLE.has(error.code)) return error;
    await this.deps.hosted.fail(session.id, 'offer_unavailable');
    return new DomainError('unprocessable', 'offer_unavailable', 'This flight can no longer be sold at this price: search again for another flight.', error.code);
  }

  /** The last attempt's price change with an order held (to be paid at its new total), if it is this traveler's. */
  async #heldPriceChange(row: CheckoutSessionRow, traveler: CheckoutTraveler) {
    const attempt = row.booking_attempt ?? 0;
    if (attempt === 0 || row.attempt_user_id !== traveler.userId) return undefined;
    const earlier = await bookingStore.findByKey(this.deps.db, traveler.userId, attemptKey(row.id, attempt));
    const change = earlier?.status === 'failed' ? earlier.failure?.priceChange : undefined;
    return change?.orderId ? change : undefined;
  }

  /** The booking request the choices mean, checked as a partner's body is. */
  async #request(
    access: CheckoutAccess,
    traveler: CheckoutTraveler,
    choices: CheckoutChoices,
    paymentMethodId: string,
    key: string,
    expected?: { amount: string; currency: string },
  ): Promise<CreateBookingRequest> {
    const { session } = access;
    const passengers = await Promise.all(choices.passengers.map((passenger) => this.#passenger(traveler.userId, passenger)));
    const first = passengers[0] as BookingPassengerInput;
    const bags = choices.bags.filter((bag) => bag.quantity > 0);
    return parseOrThrow(CreateBookingRequest, {
      offer_id: session.offer_id,
      passengers,
      contact_info: { email: traveler.email, phone_number: choices.phone_number, first_name: first.first_name, last_name: first.last_name },
      payment_method_id: paymentMethodId,
      currency: session.currency,
      user_id: traveler.userId,
      idempotency_key: key,
      metadata: checkoutBookingMetadata(session),
      // Holds are not offered in the checkout: the traveler pays now.
      order_type: 'instant',
      ...(choices.seats.length > 0 ? { seat_selections: choices.seats } : {}),
      ...(bags.length > 0 ? { services: bags } : {}),
      ...(expected ? { expected_total: expected } : {}),
    });
  }

  async #plan(owner: Owner, session: HostedCheckoutSession, offer: BookableOffer, request: CreateBookingRequest) {
    const capabilities = this.deps.providers.capabilities(session.provider_id);
    const wantsSeats = (request.seat_selections?.length ?? 0) > 0 && capabilities.supports_seat_selection;
    const seatMaps = wantsSeats ? await this.deps.offers.seatMaps(owner, session.provider_id, session.offer_id) : undefined;
    return planBooking({ request: { ...request, currency: offer.offer.total_currency }, offer, capabilities, providerId: session.provider_id, seatMaps });
  }

  /** One passenger of the offer: a saved one (with their saved passport unless one is entered now) or a new one. */
  async #passenger(userId: string, choice: TravelingPassenger): Promise<BookingPassengerInput> {
    const entered = choice.passport ? passportDocument(choice.passport) : undefined;
    if (!choice.saved_passenger_id) {
      return {
        provider_passenger_id: choice.provider_passenger_id,
        first_name: choice.first_name as string,
        last_name: choice.last_name as string,
        born_on: choice.born_on as string,
        gender: choice.gender,
        ...(entered ? { identity_documents: [entered] } : {}),
      };
    }
    const [saved, documents] = await Promise.all([this.deps.passengers.get(userId, choice.saved_passenger_id), this.deps.passengers.listDocuments(userId, choice.saved_passenger_id)]);
    const passport = documents
      .filter((document) => document.document_type === 'passport' && document.expires_on)
      .sort((a, b) => Number(b.is_primary) - Number(a.is_primary))
      .map((document) => ({ type: 'passport' as const, unique_identifier: document.document_number, issuing_country_code: document.issuing_country_code, expires_on: document.expires_on as string }))[0];
    const document = entered ?? passport;
    return {
      provider_passenger_id: choice.provider_passenger_id,
      first_name: saved.first_name,
      ...(saved.middle_name ? { middle_name: saved.middle_name } : {}),
      last_name: saved.last_name,
      born_on: saved.date_of_birth,
      gender: saved.gender,
      ...(saved.known_traveler_number ? { known_traveler_number: saved.known_traveler_number } : {}),
      ...(document ? { identity_documents: [document] } : {}),
    };
  }

  /** Long enough for pricing, seat maps and the whole saga: a pay that died lets go of the session after it. */
  #leaseMs(providerId: string): number {
    const capabilities = this.deps.providers.capabilities(providerId);
    return ((capabilities.pricing_timeout_seconds + capabilities.booking_timeout_seconds) * 2 + 60) * 1000;
  }
}

/** The traveler books, through the session's partner (no OAuth client: the checkout is ours). */
export function bookerOf(session: Pick<HostedCheckoutSession, 'partner_id'>, traveler: CheckoutTraveler): Booker {
  return { userId: traveler.userId, partnerId: session.partner_id, door: 'rest' };
}

/** The idempotency key of a session's booking attempt. */
export function attemptKey(sessionId: string, attempt: number): string {
  return `checkout_${sessionId}_${attempt}`;
}

function passportDocument(passport: Passport) {
  return { type: 'passport' as const, unique_identifier: passport.number.toUpperCase(), issuing_country_code: passport.issuing_country_code, expires_on: passport.expires_on };
}

function sameAmount(expected: { amount: string; currency: string }, amount: string, currency: string): boolean {
  return expected.currency === currency && toMinorUnits(expected.amount, currency) === toMinorUnits(amount, currency);
}

function inProgress(id: string): ConflictError {
  return new ConflictError(`The booking of checkout session ${id} is still being completed: ask again in a moment; it will not be booked or charged twice.`, 'booking_in_progress');
}

function bookedByAnother(id: string): ConflictError {
  return new ConflictError(`Checkout session ${id} is being booked, or was booked, by another traveler: it takes no other booking.`, 'checkout_session_closed');
}
