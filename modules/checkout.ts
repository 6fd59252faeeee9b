/**
 * The checkout (decisions §12): checkout sessions for partners' offers and their REST routes, the hosted
 * checkout's page and JSON API on AUTH_URL (checkout/), the job that expires a session at its time and
 * tells its partner, and the sweep of sessions that expired without a sale. The hosted checkout signs
 * travelers in with the hosted sign-in's codes and limits, and books through the booking saga.
 */
import type { Middleware } from 'koa';
import { hostedCheckoutRoutes } from '../checkout/routes.js';
import type { BookingService } from '../core/bookings/service.js';
import { CheckoutPayments } from '../core/checkout/checkout-payment.js';
import { HostedCheckout, type SignInLimits } from '../core/checkout/hosted-checkout.js';
import { CheckoutSessionService, SESSION_EXPIRY_JOB } from '../core/checkout/service.js';
import type { OfferService } from '../core/flights/offers.js';
import type { ProviderCatalog } from '../core/flights/provider-catalog.js';
import { PassengerService } from '../core/passengers/service.js';
import type { PaymentMethodService } from '../core/payment-methods/service.js';
import type { SignInCodes } from '../core/sign-in/sign-in-codes.js';
import type { WebhookEvents } from '../core/webhooks/events.js';
import { checkoutButtonRoutes } from '../rest/routes/checkout-button.js';
import { checkoutSessionRoutes } from '../rest/routes/checkout-sessions.js';
import type { Capability, SharedPieces } from './capability.js';

export interface CheckoutPieces {
  offers: OfferService;
  providers: ProviderCatalog;
  bookings: BookingService;
  paymentMethods: PaymentMethodService;
  /** The hosted sign-in's codes and its limits on sign-in mail. */
  signIn: { codes: SignInCodes; limits: SignInLimits };
  /** Where the partners' checkout events are recorded. */
  events: WebhookEvents;
}

export function checkoutModule(shared: SharedPieces, pieces: CheckoutPieces): Capability & { checkoutSessions: CheckoutSessionService; hostedPages: Middleware[] } {
  const { config, db, clock } = shared;
  const checkoutSessions = new CheckoutSessionService({
    db: db.knex,
    clock,
    events: pieces.events,
    jobs: shared.jobs,
    offers: pieces.offers,
    providers: pieces.providers,
    mode: config.sandbox ? 'sandbox' : 'production',
    authUrl: config.authUrl,
  });
  const passengers = new PassengerService({ db: db.knex, clock, secrets: shared.secrets });
  const hosted = new HostedCheckout({
    db: db.knex,
    clock,
    sessions: checkoutSessions,
    offers: pieces.offers,
    providers: pieces.providers,
    passengers,
    paymentMethods: pieces.paymentMethods,
    users: shared.users,
    codes: pieces.signIn.codes,
    limits: pieces.signIn.limits,
    authOrigin: new URL(config.authUrl).origin,
  });
  const payments = new CheckoutPayments({
    db: db.knex,
    clock,
    hosted,
    sessions: checkoutSessions,
    offers: pieces.offers,
    bookings: pieces.bookings,
    providers: pieces.providers,
    passengers,
    paymentMethods: pieces.paymentMethods,
  });
  return {
    checkoutSessions,
    // The button partners embed (components/checkout-button.js) opens these sessions.
    routes: [...checkoutSessionRoutes({ checkoutSessions }), ...checkoutButtonRoutes()],
    hostedPages: [hostedCheckoutRoutes({ checkout: hosted, payments, vaultUrl: config.vault?.url })],
    sweepers: [() => checkoutSessions.sweepExpired()],
    jobs: [{ name: SESSION_EXPIRY_JOB, timeoutSeconds: 60, run: (data) => checkoutSessions.expire(String(data.session_id)) }],
  };
}
