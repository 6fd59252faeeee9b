/**
 * Bookings: the saga that turns an offer into a paid booking (the processor and the providers' order
 * steps), its REST routes and the traveler's trips, the agent tools, and the jobs that finish bookings a
 * dead process left half-done, warn of holds about to lapse and let lapsed holds go.
 */
import { AgentBooking } from '../core/bookings/agent-booking.js';
import { HOLD_EXPIRING_JOB, HOLD_LAPSE_JOB } from '../core/bookings/booking-events.js';
import { BookingService } from '../core/bookings/service.js';
import { TripService } from '../core/bookings/trips.js';
import { NotImplementedError } from '../core/errors.js';
import type { FlightProvider } from '../core/flights/flight-provider.js';
import type { OfferService } from '../core/flights/offers.js';
import type { ProviderCatalog } from '../core/flights/provider-catalog.js';
import { PassengerService } from '../core/passengers/service.js';
import { PurchaseConfirmations } from '../core/purchases/confirmations.js';
import { SpendingLimits } from '../core/purchases/spending-limits.js';
import type { PaymentMethodService } from '../core/payment-methods/service.js';
import type { PaymentProcessor } from '../core/ports.js';
import type { WebhookEvents } from '../core/webhooks/events.js';
import { BOOKING_TOOLS } from '../mcp/tools/index.js';
import { bookingRoutes } from '../rest/routes/bookings.js';
import { userBookingRoutes } from '../rest/routes/user-bookings.js';
import type { Capability, SharedPieces } from './capability.js';

export interface BookingPieces {
  offers: OfferService;
  adapters: FlightProvider[];
  providers: ProviderCatalog;
  paymentMethods: PaymentMethodService;
  processor: PaymentProcessor | undefined;
  /** Where the partners' booking events are recorded. */
  events: WebhookEvents;
}

export function bookingsModule(shared: SharedPieces, pieces: BookingPieces): Capability & { bookings: BookingService } {
  const { config, db, clock, logger } = shared;
  const adapters = new Map(pieces.adapters.map((adapter) => [adapter.providerId, adapter]));
  const bookings = new BookingService({
    db: db.knex,
    clock,
    events: pieces.events,
    jobs: shared.jobs,
    logger,
    secrets: shared.secrets,
    processor: pieces.processor ?? unconfiguredProcessor,
    offers: pieces.offers,
    providers: pieces.providers,
    paymentMethods: pieces.paymentMethods,
    adapter(providerId) {
      const adapter = adapters.get(providerId);
      if (!adapter) {
        throw new NotImplementedError(`Bookings with ${providerId} are not available here (its system is not configured).`, 'provider_not_supported');
      }
      return adapter;
    },
    faults: faultInjection(config.bookingFaultAfter, logger),
  });
  // create_booking's lookup: the traveler's default card, saved passengers and profile; and its gate, the
  // traveler's spending limit for the agent and their confirmation on the hosted page (decisions §10).
  // The page itself is the sign-in module's (it names the agent from the authorization server's clients).
  const agentBookings = new AgentBooking({
    purchases: new PurchaseConfirmations({ db: db.knex, clock, limits: new SpendingLimits({ db: db.knex, clock }), authUrl: config.authUrl }),
    bookings,
    offers: pieces.offers,
    paymentMethods: pieces.paymentMethods,
    passengers: new PassengerService({ db: db.knex, clock, secrets: shared.secrets }),
    users: shared.users,
  });
  return {
    bookings,
    routes: [...bookingRoutes({ bookings }), ...userBookingRoutes({ trips: new TripService({ db: db.knex, clock, secrets: shared.secrets }), users: shared.users, baseUrl: config.baseUrl })],
    tools: BOOKING_TOOLS,
    toolServices: { bookings, agentBookings },
    sweepers: [() => bookings.holds.sweepLapsed()],
    recoveries: [() => bookings.recoverAbandoned()],
    jobs: [
      // Due at a hold's deadline, and two hours before it: enqueued with the step that left the hold at rest.
      { name: HOLD_LAPSE_JOB, timeoutSeconds: 300, run: async (data) => void (await bookings.holds.lapse(String(data.booking_id))) },
      { name: HOLD_EXPIRING_JOB, timeoutSeconds: 60, run: (data) => bookings.holds.warnExpiring(String(data.booking_id)) },
    ],
  };
}

/** Tests only: dies right after the named step, as a crash would (no cleanup, no answer). */
function faultInjection(step: string | undefined, logger: SharedPieces['logger']): ((reached: string) => void) | undefined {
  if (!step) return undefined;
  return (reached) => {
    if (reached !== step) return;
    logger.warn({ step }, 'BOOKING_FAULT_AFTER: the process dies here, as the test asked');
    process.kill(process.pid, 'SIGKILL');
  };
}

/** Without a processor (none configured, no sandbox), every booking is refused before any provider call. */
const notConfigured = () => Promise.reject(new NotImplementedError('No payment processor is configured here: bookings cannot be paid.', 'payment_processor_not_configured'));
const unconfiguredProcessor: PaymentProcessor = { authorize: notConfigured, capture: notConfigured, cancel: notConfigured, refund: notConfigured, retrieve: notConfigured };
