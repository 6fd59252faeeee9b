/**
 * The hosted checkout (decisions §12): what its page may do, given the session's client secret, and what
 * it may do for the traveler, given the traveler token the e-mail code sign-in inside the frame hands it.
 *
 * The client secret is in the embedding page's hands too, so it only opens the page: the offer, the seat
 * maps, and starting a sign-in. Everything that reads or uses the traveler's own data (saved passengers
 * and cards, the card vault, booking) needs the traveler token as well: random, kept here as a digest on
 * the session, replaced by the next sign-in, and of no use once the session is over. The sign-in is the
 * hosted sign-in's own (core/sign-in): the same codes, tries, resend pace, accounts, and the same limits
 * on mail per address and network (SignInLimits, handed in by the composition root).
 *
 * Reviewing and paying are in checkout-payment.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { DomainError, GoneError, NotFoundError, UnauthenticatedError } from '../errors.js';
import { checkDepartureWindow } from '../flights/departure-window.js';
import type { Offer } from '../flights/offer-schemas.js';
import type { OfferService } from '../flights/offers.js';
import type { Owner } from '../flights/owner.js';
import type { ProviderCatalog } from '../flights/provider-catalog.js';
import { toDecimalString } from '../money/money.js';
import type { PassengerService } from '../passengers/service.js';
import type { PaymentMethodService } from '../payment-methods/service.js';
import { travelerTypeOn } from '../passengers/traveler-type.js';
import type { SignInCodes } from '../sign-in/sign-in-codes.js';
import type { UserService } from '../users/service.js';
import { parseOrThrow } from '../validation.js';
import { clientSecretDigest, clientSecretMatches } from './client-secret.js';
import { SavePassenger, SignInCode, SignInEmail } from './hosted-schemas.js';
import { departureDateOf, offerView, seatMapView, stepsOf, type CheckoutSteps, type OfferView, type SeatMapView } from './offer-view.js';
import type { CheckoutSession } from './schemas.js';
import { presentSession, requireOpen, type CheckoutSessionService, type HostedCheckoutSession } from './service.js';
import * as store from './store.js';
import type { CheckoutSessionRow } from './store.js';

/** The hosted sign-in's limits on sign-in mail (authz/abuse-limits.ts), as the checkout uses them. */
export interface SignInLimits {
  /** Counts a code about to go to `email` at the request of `clientAddress`; RateLimitedError past a limit. */
  signInCode(email: string, clientAddress: string): Promise<{ refund(): Promise<void> }>;
  /** The traveler signed in from `clientAddress`. */
  signedIn(userId: string, clientAddress: string): Promise<void>;
}

export interface HostedCheckoutDeps {
  db: Knex;
  clock: Clock;
  sessions: CheckoutSessionService;
  offers: OfferService;
  providers: ProviderCatalog;
  passengers: PassengerService;
  paymentMethods: PaymentMethodService;
  users: UserService;
  codes: SignInCodes;
  limits: SignInLimits;
  /** The origin the hosted checkout is served on (AUTH_URL's): the vault's fields are framed by it. */
  authOrigin: string;
}

/** A session opened with its client secret. */
export interface CheckoutAccess {
  session: HostedCheckoutSession;
  row: CheckoutSessionRow;
}

/** The traveler signed in inside this session's frame. */
export interface CheckoutTraveler {
  userId: string;
  email: string;
}

export interface CheckoutSummary {
  session: Pick<CheckoutSession, 'id' | 'status' | 'origin' | 'provider_id' | 'booking_id' | 'airline_pnr' | 'total_amount' | 'currency' | 'failure_reason' | 'expires_at'>;
  /** Null once the offer cannot be read any more (the session is over). */
  offer: OfferView | null;
  steps: CheckoutSteps | null;
  /** The traveler the request's traveler token stands for, if it is this session's. */
  traveler: { email: string } | null;
}

export interface SavedPassengerView {
  id: string;
  first_name: string;
  last_name: string;
  born_on: string;
  gender: 'male' | 'female';
  /** At the offer's first departure. */
  traveler_type: 'adult' | 'child' | 'infant';
  /** Their primary passport, the number masked; null when none is saved. */
  passport: { number_ending: string; issuing_country_code: string; expires_on: string | null } | null;
}

export interface CardView {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
}

/** Refusals of the offer that mean the checkout cannot sell it (SVC_BOOKING_FAILED `offer_unavailable`). */
export const UNSELLABLE = new Set([
  'offer_unavailable',
  'offer_no_longer_available',
  'offer_expired',
  'offer_not_found',
  'flight_departed',
  'departure_too_soon',
  'departure_too_far_ahead',
]);

const TRAVELER_TOKEN_BYTES = 32;
/** An offer priced this recently is not priced again as the page opens (the booking saga's own rule too). */
const PRICED_RECENTLY_MS = 10 * 60_000;

export class HostedCheckout {
  constructor(readonly deps: HostedCheckoutDeps) {}

  /** The session of this id whose client secret this is (any status); otherwise 404, alike for every cause. */
  async open(id: string, clientSecret: string): Promise<CheckoutAccess> {
    const session = await this.deps.sessions.openWithSecret(id, clientSecret);
    const row = await store.findSession(this.deps.db, session.id);
    if (!row) throw new NotFoundError(`There is no checkout session ${id} of yours: create one with createCheckoutSession.`, 'checkout_session_not_found');
    return { session, row };
  }

  /** The origin that may frame the session's page (looked up by id alone: the page itself carries no secret). */
  async framingOrigin(id: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
    return (await store.findSession(this.deps.db, id))?.origin;
  }

  /**
   * The traveler whose token this is. No token, another one (an older sign-in's, another session's) or a
   * session nobody signed in to: 401 `checkout_sign_in_required`. Once the session expired its token is
   * of no use: 410, as the session.
   */
  async travelerOf(access: CheckoutAccess, token: string | undefined): Promise<CheckoutTraveler> {
    if (access.session.status === 'expired') requireOpen(access.session);
    const { traveler_id: userId, traveler_token_hash: digest } = access.row;
    const matches = clientSecretMatches(token ?? '', digest ?? Buffer.alloc(32));
    if (!token || !userId || !digest || !matches) {
      throw new UnauthenticatedError('Sign in inside the checkout first: this needs the traveler signed in to this checkout session.', 'checkout_sign_in_required');
    }
    return { userId, email: (await this.deps.users.getUser(userId)).email };
  }

  /** What the page shows first: the session, its offer and steps, and who is signed in (if anyone). */
  async summary(access: CheckoutAccess, travelerToken: string | undefined): Promise<CheckoutSummary> {
    let { session } = access;
    let offer: Offer | undefined;
    try {
      if (session.status === 'open') await this.#priceWhereRequired(session);
      offer = await this.#offer(session);
      if (session.status === 'open') checkDepartureWindow(offer, this.deps.providers.capabilities(session.provider_id), session.provider_id, this.deps.clock.now());
    } catch (error) {
      if (!(error instanceof DomainError) || !UNSELLABLE.has(error.code)) throw error;
      if (session.status === 'open') session = { ...session, ...(await this.fail(session.id, 'offer_unavailable')) };
      offer = undefined;
    }
    const traveler = travelerToken ? await this.travelerOf(access, travelerToken).catch(() => undefined) : undefined;
    const capabilities = this.deps.providers.capabilities(session.provider_id);
    return {
      session: {
        id: session.id,
        status: session.status,
        origin: session.origin,
        provider_id: session.provider_id,
        booking_id: session.booking_id,
        airline_pnr: session.airline_pnr,
        total_amount: session.total_amount,
        currency: session.currency,
        failure_reason: session.failure_reason,
        expires_at: session.expires_at,
      },
      offer: offer ? offerView(offer, capabilities) : null,
      steps: offer ? stepsOf(offer, capabilities) : null,
      traveler: traveler ? { email: traveler.email } : null,
    };
  }

  /** Ends an open session without a booking; one already over stays as it is. */
  async fail(id: string, reason: 'offer_unavailable' | 'search_again'): Promise<CheckoutSession> {
    try {
      return await this.deps.sessions.fail(id, reason);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'checkout_session_closed') {
        const row = await store.findSession(this.deps.db, id);
        if (row) return presentSession(row, this.deps.clock.now());
      }
      throw error;
    }
  }

  // ---- Sign-in inside the frame: the hosted sign-in's codes and limits --------------------------------

  /** Sends the code to `email` (6 digits for a new traveler, 8 for a returning one). */
  async startSignIn(access: CheckoutAccess, input: unknown, clientAddress: string): Promise<{ digits: number; sent_to: string }> {
    requireOpen(access.session);
    const { email } = parseOrThrow(SignInEmail, input);
    const allowance = await this.deps.limits.signInCode(email, clientAddress);
    try {
      const sent = await this.deps.codes.start(signInAttempt(access), email);
      return { digits: sent.digits, sent_to: sent.sentTo };
    } catch (error) {
      // No code went out: what the limits counted for it is given back.
      await allowance.refund();
      throw error;
    }
  }

  /** "Send a new code": once a minute, within the limits on mail. */
  async resendCode(access: CheckoutAccess, clientAddress: string): Promise<{ digits: number; sent_to: string }> {
    requireOpen(access.session);
    const pending = await this.deps.codes.pending(signInAttempt(access));
    if (!pending) throw new GoneError('This sign-in has no code to resend: enter your e-mail address again.', 'sign_in_not_started');
    const allowance = await this.deps.limits.signInCode(pending.email, clientAddress);
    try {
      const sent = await this.deps.codes.resend(signInAttempt(access));
      return { digits: sent.digits, sent_to: sent.sentTo };
    } catch (error) {
      await allowance.refund();
      throw error;
    }
  }

  /**
   * Checks the code (5 tries, then a new code is needed); the traveler's account exists from then on. The
   * answer's traveler token acts as them in this session, and a previous sign-in's token no longer does.
   */
  async confirmSignIn(access: CheckoutAccess, input: unknown, clientAddress: string): Promise<{ traveler_token: string; email: string }> {
    requireOpen(access.session);
    const { code } = parseOrThrow(SignInCode, input);
    const signedIn = await this.deps.codes.confirm(signInAttempt(access), code);
    await this.deps.limits.signedIn(signedIn.userId, clientAddress);
    const token = `ctt_${randomBytes(TRAVELER_TOKEN_BYTES).toString('base64url')}`;
    if (!(await store.setTraveler(this.deps.db, access.session.id, signedIn.userId, clientSecretDigest(token), this.deps.clock.now()))) {
      requireOpen(presentSession((await store.findSession(this.deps.db, access.session.id)) ?? access.row, this.deps.clock.now()));
    }
    return { traveler_token: token, email: signedIn.email };
  }

  async signOut(access: CheckoutAccess): Promise<void> {
    await store.setTraveler(this.deps.db, access.session.id, null, null, this.deps.clock.now());
  }

  // ---- The traveler's own data ------------------------------------------------------------------------

  /** The traveler's saved passengers, their types at the offer's departure, and their passports (masked). */
  async savedPassengers(access: CheckoutAccess, traveler: CheckoutTraveler): Promise<SavedPassengerView[]> {
    const departure = await this.#departureDate(access);
    const saved = await this.deps.passengers.list(traveler.userId, departure);
    return Promise.all(saved.map((passenger) => this.#passengerView(traveler.userId, passenger.id, departure)));
  }

  /** Keeps a new passenger for the traveler (asked for on the passengers step), with their passport. */
  async savePassenger(access: CheckoutAccess, traveler: CheckoutTraveler, input: unknown): Promise<SavedPassengerView> {
    requireOpen(access.session);
    const fields = parseOrThrow(SavePassenger, input);
    const { id } = await this.deps.passengers.create(traveler.userId, {
      first_name: fields.first_name,
      last_name: fields.last_name,
      gender: fields.gender,
      date_of_birth: fields.born_on,
    });
    if (fields.passport) {
      await this.deps.passengers.createDocument(traveler.userId, id, {
        document_type: 'passport',
        document_number: fields.passport.number.toUpperCase(),
        issuing_country_code: fields.passport.issuing_country_code,
        expires_on: fields.passport.expires_on,
        is_primary: true,
      });
    }
    return this.#passengerView(traveler.userId, id, await this.#departureDate(access));
  }

  /** The seats of each segment where the provider sells seats; none otherwise. */
  async seatMaps(access: CheckoutAccess): Promise<SeatMapView[]> {
    const { session } = access;
    if (!this.deps.providers.capabilities(session.provider_id).supports_seat_selection) return [];
    const maps = await this.deps.offers.seatMaps(partnerOwner(session), session.provider_id, session.offer_id);
    return maps.map((map) => seatMapView(map, session.currency, (amount) => toDecimalString(amount, session.currency)));
  }

  /** The traveler's saved cards (the default first). */
  async cards(traveler: CheckoutTraveler): Promise<CardView[]> {
    const methods = await this.deps.paymentMethods.list(traveler.userId);
    return methods.filter((method) => method.methodType === 'credit_card').map(cardView);
  }

  /**
   * A vault session for the hosted card fields nested in the checkout: framed by the checkout's own
   * origin (its messages go there), inside the session's page.
   */
  async cardSession(access: CheckoutAccess, traveler: CheckoutTraveler): Promise<{ vault_url: string; session_key: string; expires_at: string }> {
    requireOpen(access.session);
    const opened = await this.deps.paymentMethods.openTokenizationSession(traveler.userId, this.deps.authOrigin, [access.session.origin]);
    return { vault_url: opened.vaultUrl, session_key: opened.sessionKey, expires_at: opened.expiresAt };
  }

  /** Saves the card behind a vault token made in the traveler's vault session. */
  async saveCard(access: CheckoutAccess, traveler: CheckoutTraveler, vaultToken: string): Promise<CardView> {
    requireOpen(access.session);
    const { id } = await this.deps.paymentMethods.fromToken(traveler.userId, { vaultToken });
    return cardView(await this.deps.paymentMethods.get(traveler.userId, id));
  }

  /**
   * A provider that requires pricing says what its offer needs only once priced (provider_a: whether
   * passports are needed, which bags are on sale): the checkout prices it as it opens, unless it was
   * priced in the last minutes, so that its steps are known from the start. The review prices it again.
   * A provider that cannot answer now is not the traveler's problem yet: the stored offer is shown.
   */
  async #priceWhereRequired(session: HostedCheckoutSession): Promise<void> {
    if (!this.deps.providers.capabilities(session.provider_id).requires_pricing) return;
    const owner = partnerOwner(session);
    const pricedAt = await this.deps.offers.pricedAt(owner, session.provider_id, session.offer_id);
    if (pricedAt && this.deps.clock.now().getTime() - pricedAt.getTime() < PRICED_RECENTLY_MS) return;
    try {
      await this.deps.offers.price(owner, session.provider_id, session.offer_id);
    } catch (error) {
      if (!(error instanceof DomainError) || UNSELLABLE.has(error.code)) throw error;
    }
  }

  async #offer(session: HostedCheckoutSession): Promise<Offer> {
    return this.deps.offers.get(partnerOwner(session), session.provider_id, session.offer_id);
  }

  async #departureDate(access: CheckoutAccess): Promise<string> {
    return departureDateOf(await this.#offer(access.session));
  }

  async #passengerView(userId: string, passengerId: string, departure: string): Promise<SavedPassengerView> {
    const [passenger, documents] = await Promise.all([this.deps.passengers.get(userId, passengerId), this.deps.passengers.listDocuments(userId, passengerId)]);
    const passport = documents.filter((document) => document.document_type === 'passport').sort((a, b) => Number(b.is_primary) - Number(a.is_primary))[0];
    return {
      id: passenger.id,
      first_name: passenger.first_name,
      last_name: passenger.last_name,
      born_on: passenger.date_of_birth,
      gender: passenger.gender,
      traveler_type: travelerTypeOn(passenger.date_of_birth, departure),
      passport: passport ? { number_ending: passport.document_number.slice(-3), issuing_country_code: passport.issuing_country_code, expires_on: passport.expires_on } : null,
    };
  }
}

/** The session's partner reaches its offer as it does over REST with its key. */
export function partnerOwner(session: Pick<HostedCheckoutSession, 'partner_id'>): Owner {
  return { partnerId: session.partner_id, door: 'rest' };
}

/** One sign-in attempt per checkout session, as one per authorization request in the hosted sign-in. */
function signInAttempt(access: CheckoutAccess): string {
  return `checkout:${access.session.id}`;
}

function cardView(method: { id: string; brand: string; last4: string; expMonth: number; expYear: number; isDefault: boolean }): CardView {
  return { id: method.id, brand: method.brand, last4: method.last4, exp_month: method.expMonth, exp_year: method.expYear, is_default: method.isDefault };
}
