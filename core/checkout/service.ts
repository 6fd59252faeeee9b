/**
 * Checkout sessions (decisions §12): a partner opens one for one of its offers and one page's origin; the
 * traveler books it in the hosted checkout, which finds the session by its id and client secret; the
 * partner's backend confirms the sale by reading the session with its secret key. Sessions live in the
 * database, so every instance serves every session. A session lives 30 minutes, or less when its offer
 * expires first; an open one past `expires_at` reads as `expired`.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { ConflictError, DomainError, GoneError, NotFoundError, ValidationError } from '../errors.js';
import { checkDepartureWindow } from '../flights/departure-window.js';
import type { Offer } from '../flights/offer-schemas.js';
import type { OfferService } from '../flights/offers.js';
import type { ProviderCatalog } from '../flights/provider-catalog.js';
import type { JobQueue } from '../jobs.js';
import { originProblem } from '../partners/origins.js';
import type { PartnerIdentity } from '../partners/schemas.js';
import type { WebhookEvents } from '../webhooks/events.js';
import { clientSecretDigest, clientSecretMatches, mintClientSecret } from './client-secret.js';
import type { CheckoutFailureReason, CheckoutSession, CreateCheckoutSessionRequest, CreatedCheckoutSession } from './schemas.js';
import * as store from './store.js';
import type { CheckoutSessionRow } from './store.js';

export const CHECKOUT_SESSION_MINUTES = 30;
/** The job that marks a session expired at its `expires_at` and tells the partner. */
export const SESSION_EXPIRY_JOB = 'checkout-session-expire';
const DAY_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Refusals of the offer that mean the checkout cannot sell it (the button's `offer_unavailable`). */
const UNSELLABLE = new Set(['offer_expired', 'flight_departed', 'departure_too_soon', 'departure_too_far_ahead']);

/** Which service this is: the sandbox sells no real tickets (config SANDBOX), production does. */
export type ServiceMode = 'sandbox' | 'production';

export interface CheckoutDeps {
  db: Knex;
  clock: Clock;
  /** Where the partner's checkout events are recorded, with the change that causes them. */
  events: WebhookEvents;
  /** A session's expiry is a job, due at `expires_at`, enqueued with the session. */
  jobs: JobQueue;
  offers: OfferService;
  providers: ProviderCatalog;
  mode: ServiceMode;
  /** Where the hosted checkout is served: `{authUrl}/checkout/{id}`. */
  authUrl: string;
}

/** The partner's key that opens a session. */
export type CheckoutOpener = Pick<PartnerIdentity, 'partnerId' | 'keyId' | 'keyKind'>;

export interface CreateCheckoutSession {
  request: CreateCheckoutSessionRequest;
  /** The button's `iataCode` (x-customer-id), already checked. */
  customerId: string;
  /** The request's `Origin`, if it had one (with a publishable key, checked against the key's origins). */
  requestOrigin: string | undefined;
}

/** A session as the hosted checkout needs it: the public fields, whose partner it is, and its mode. */
export type HostedCheckoutSession = CheckoutSession & { partner_id: string; is_prod: boolean };

/** What a booking made through the checkout leaves on its session. */
export interface CompletedBooking {
  booking_id: string;
  airline_pnr: string | null;
  /** What the traveler was charged, a decimal string in `currency`. */
  total_amount: string;
  currency: string;
}

export class CheckoutSessionService {
  constructor(private readonly deps: CheckoutDeps) {}

  /** createCheckoutSession: checks the mode, the origin and the offer, then keeps the session. */
  async create(opener: CheckoutOpener, input: CreateCheckoutSession): Promise<CreatedCheckoutSession> {
    const { request } = input;
    checkMode(request.is_prod, this.deps.mode);
    const origin = originOf(opener, request.origin, input.requestOrigin, this.deps.mode);
    const now = this.deps.clock.now();
    const offer = await this.#sellableOffer(opener.partnerId, request.provider_id, request.offer_id, now);
    const id = randomUUID();
    const clientSecret = mintClientSecret(id);
    const expiresAt = new Date(Math.min(now.getTime() + CHECKOUT_SESSION_MINUTES * 60_000, new Date(offer.expires_at).getTime()));
    const row: CheckoutSessionRow = {
      id,
      partner_id: opener.partnerId,
      key_id: opener.keyId,
      provider_id: request.provider_id,
      offer_id: offer.id,
      origin,
      customer_id: input.customerId,
      is_prod: request.is_prod,
      client_secret_hash: clientSecretDigest(clientSecret),
      status: 'open',
      failure_reason: null,
      booking_id: null,
      airline_pnr: null,
      total_amount: offer.total_amount,
      currency: offer.total_currency,
      expires_at: expiresAt,
      created_at: now,
      updated_at: now,
    };
    await this.deps.db.transaction(async (trx) => {
      await store.insertSession(trx, row);
      await this.deps.jobs.enqueue(trx, [expiryJob(id, expiresAt)]);
    });
    return { id, url: `${this.deps.authUrl}/checkout/${id}#${clientSecret}`, client_secret: clientSecret, expires_at: expiresAt.toISOString() };
  }

  /** getCheckoutSession: the partner's own; another partner's is the same 404 as an unknown one. */
  async get(partnerId: string, id: string): Promise<CheckoutSession> {
    const row = await this.#row(id);
    if (!row || row.partner_id !== partnerId) throw notFound(id);
    return this.#present(row);
  }

  /**
   * The hosted checkout's way in: the session whose client secret this is, in any status (the page shows
   * a finished checkout as finished). An unknown id, a wrong secret and another session's secret are the
   * same 404.
   */
  async openWithSecret(id: string, clientSecret: string): Promise<HostedCheckoutSession> {
    const row = await this.#row(id);
    // The digest is compared even when there is no row, so that both refusals cost the same.
    const matches = clientSecretMatches(clientSecret, row?.client_secret_hash ?? Buffer.alloc(32));
    if (!row || !matches) throw notFound(id);
    return { ...this.#present(row), partner_id: row.partner_id, is_prod: row.is_prod };
  }

  /**
   * Records the booking the checkout made. Only an open session completes (a booking begun before
   * `expires_at` completes it even if it ends after); completing it again with the same booking answers
   * the same, with another booking is 409 `checkout_session_closed`.
   */
  async complete(id: string, booking: CompletedBooking): Promise<CheckoutSession> {
    const now = this.deps.clock.now();
    const changes = { status: 'complete' as const, booking_id: booking.booking_id, airline_pnr: booking.airline_pnr, total_amount: booking.total_amount, currency: booking.currency };
    const row = UUID.test(id)
      ? await this.deps.db.transaction(async (trx) => {
          const completed = await store.closeSession(trx, id, changes, now);
          if (completed) await this.#tell(trx, completed, 'checkout.session.completed');
          return completed;
        })
      : undefined;
    if (row) return this.#present(row);
    const current = await this.#row(id);
    if (current?.status === 'complete' && current.booking_id === booking.booking_id) return this.#present(current);
    throw current ? closed(current) : notFound(id);
  }

  /** Ends an open session without a booking (the offer sold out, the traveler chose to search again). */
  async fail(id: string, reason: CheckoutFailureReason): Promise<CheckoutSession> {
    const row = UUID.test(id) ? await store.closeSession(this.deps.db, id, { status: 'failed', failure_reason: reason }, this.deps.clock.now()) : undefined;
    if (row) return this.#present(row);
    const current = await this.#row(id);
    if (current?.status === 'failed') return this.#present(current);
    throw current ? closed(current) : notFound(id);
  }

  /**
   * The expiry job: an open session past `expires_at` becomes expired, and its partner is told. One
   * being paid right now is left to its booking (begun in time, it may still complete the session), and
   * looked at again once that booking's lease is over.
   */
  async expire(id: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (trx) => {
      const expired = await store.expireSession(trx, id, now);
      if (expired) return this.#tell(trx, expired, 'checkout.session.expired');
      const row = await store.findSession(trx, id);
      if (row?.status !== 'open') return;
      // Not yet (the job ran a moment early by this clock), or being paid: looked at again then.
      const later = row.expires_at > now ? row.expires_at : row.paying_until && row.paying_until > now ? row.paying_until : undefined;
      if (later) await this.deps.jobs.enqueue(trx, [expiryJob(id, later)]);
    });
  }

  async #tell(trx: Knex.Transaction, row: CheckoutSessionRow, type: 'checkout.session.completed' | 'checkout.session.expired'): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.events.record(trx, { partnerId: row.partner_id, type, data: { checkout_session: presentSession(row, now) }, at: now });
  }

  /** Sessions that expired a day ago without a sale (a complete one stays, beside its booking). */
  async sweepExpired(): Promise<number> {
    return store.deleteUnsoldBefore(this.deps.db, new Date(this.deps.clock.now().getTime() - DAY_MS));
  }

  /**
   * The partner's offer, if the checkout can still sell it: reached by the partner (404 `offer_not_found`
   * otherwise, as createProviderOffer answers), not expired, its first flight not gone and within the
   * provider's window. One that cannot be sold is 422 `offer_unavailable`, `details` naming why.
   */
  async #sellableOffer(partnerId: string, providerId: string, offerId: string, now: Date): Promise<Offer> {
    try {
      const offer = await this.deps.offers.get({ partnerId, door: 'rest' }, providerId, offerId);
      checkDepartureWindow(offer, this.deps.providers.capabilities(providerId), providerId, now);
      return offer;
    } catch (error) {
      if (error instanceof DomainError && UNSELLABLE.has(error.code)) {
        throw new DomainError('unprocessable', 'offer_unavailable', `The checkout cannot sell this offer: ${error.message}`, error.code);
      }
      throw error;
    }
  }

  async #row(id: string): Promise<CheckoutSessionRow | undefined> {
    return UUID.test(id) ? store.findSession(this.deps.db, id) : undefined;
  }

  #present(row: CheckoutSessionRow): CheckoutSession {
    return presentSession(row, this.deps.clock.now());
  }
}

/** The public view; an open session past `expires_at` is `expired`. */
export function presentSession(row: CheckoutSessionRow, now: Date): CheckoutSession {
  return {
    id: row.id,
    status: row.status === 'open' && row.expires_at <= now ? 'expired' : row.status,
    provider_id: row.provider_id as CheckoutSession['provider_id'],
    offer_id: row.offer_id,
    customer_id: row.customer_id,
    origin: row.origin,
    booking_id: row.booking_id,
    airline_pnr: row.airline_pnr,
    total_amount: row.total_amount,
    currency: row.currency,
    failure_reason: row.failure_reason,
    expires_at: row.expires_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * The hosted checkout, before it takes a step that books: the session must still be open. Past
 * `expires_at` it is 410 `checkout_session_expired` (the button's `session_expired`); complete or failed,
 * 409 `checkout_session_closed`.
 */
export function requireOpen(session: CheckoutSession): void {
  if (session.status === 'expired') {
    throw new GoneError(`Checkout session ${session.id} expired at ${session.expires_at}: open a new checkout for the offer.`, 'checkout_session_expired');
  }
  if (session.status !== 'open') throw closed(session);
}

/** `is_prod` must say what this service is: a test page never sells a real ticket, nor a live page a test one. */
function checkMode(isProd: boolean, mode: ServiceMode): void {
  if (isProd === (mode === 'production')) return;
  throw new DomainError(
    'validation',
    'environment_mismatch',
    isProd
      ? 'is_prod is true, but this is the sandbox: it sells no real tickets. Send is_prod: false here, or use the production service and its keys.'
      : 'is_prod is false, but this is the production service: it sells real tickets. Send is_prod: true here, or use the sandbox for tests.',
  );
}

/**
 * The page that will frame the checkout. A secret key (a partner's backend) names it in the body. A
 * publishable key is used from that page itself: its `Origin`, which the key check has already held to
 * the key's allowed origins; a body `origin` must then be that same one.
 */
function originOf(opener: CheckoutOpener, bodyOrigin: string | undefined, requestOrigin: string | undefined, mode: ServiceMode): string {
  if (opener.keyKind === 'secret') {
    if (bodyOrigin === undefined) {
      throw new ValidationError([
        { field: 'origin', rule: 'required', message: 'origin is required with a secret key: the origin of the page that will embed the checkout, such as https://www.example-airline.com' },
      ]);
    }
    // The same rule as a publishable key's allowed origins: exactly as a browser sends Origin.
    const problem = originProblem(bodyOrigin, { sandbox: mode === 'sandbox' });
    if (problem) throw new ValidationError([{ field: 'origin', rule: 'origin', message: problem }]);
    return bodyOrigin;
  }
  if (!requestOrigin) {
    throw new ValidationError([{ field: 'origin', rule: 'required', message: 'a publishable key is used from a browser page, whose Origin names the page: none was sent' }]);
  }
  if (bodyOrigin !== undefined && bodyOrigin !== requestOrigin) {
    throw new ValidationError([
      { field: 'origin', rule: 'matches_request_origin', message: `origin must be the request's Origin (${requestOrigin}) with a publishable key, or left out` },
    ]);
  }
  return requestOrigin;
}

function expiryJob(sessionId: string, at: Date) {
  return { name: SESSION_EXPIRY_JOB, data: { session_id: sessionId }, startAfter: at };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`There is no checkout session ${id} of yours: create one with createCheckoutSession.`, 'checkout_session_not_found');
}

function closed(session: Pick<CheckoutSession, 'id' | 'status'>): ConflictError {
  return new ConflictError(`Checkout session ${session.id} is ${session.status}: it takes no other booking. Open a new checkout for another sale.`, 'checkout_session_closed');
}
