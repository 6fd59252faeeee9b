/**
 * provider_e's checkout sessions (prebooks): placing one for an offer (with the client's reference: a
 * second prebook with it answers the first), reading it, attaching seats and bags (a new transactionId
 * and price), and cancelling it (invented: no source documents cancelling a prebook).
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { answerSlowly } from '../sandbox-timing.js';
import { contactProblems, passengerProblems } from './sandbox-checks.js';
import { MAGIC_OFFERS, OFFER_LIFETIME_MS, risen, type Catalogue, type Display } from './sandbox-catalogue.js';
import { error, token, utc, type Problem } from './sandbox-dialect.js';
import { attachable } from './sandbox-seat-maps.js';
import type { CheckoutStore, PrebookDocument, SelectedService } from './sandbox-store.js';
import { lapsed, prebookView, priced } from './sandbox-views.js';
import { ERROR_CODES } from './wire.js';

/** Past provider_e's 30 s booking timeout. */
const SLOW_BOOKING_MS = 32_000;

export interface CheckoutDeps {
  catalogue: Catalogue;
  store: CheckoutStore;
  clock: { now(): Date };
  body: Middleware;
  /** The slow and failing magic offers; true when the answer was given. */
  steered(ctx: Context, offerId: string, options: { slow: boolean }): Promise<boolean>;
}

export function prebookRoutes(router: Router, { catalogue, store, clock, body, steered }: CheckoutDeps): void {
  router.post('/v3.0/flights/prebooks', body, async (ctx) => {
    const offer = catalogue.offerOf(ctx);
    if (!offer) return;
    if (await steered(ctx, offer.offerId, { slow: false })) return;
    if (offer.offerId === MAGIC_OFFERS.slowAtBooking) {
      // The caller gave up waiting: the airline never saw the prebook.
      if (!(await answerSlowly(ctx, SLOW_BOOKING_MS))) return;
    }
    const request = ctx.request.body as { contact?: unknown; passengers?: unknown; usePaymentSdk?: unknown; clientReference?: unknown };
    const problems = [...contactProblems(request.contact), ...passengerProblems(request.passengers, offer, clock.now())];
    if (request.clientReference !== undefined && (typeof request.clientReference !== 'string' || request.clientReference === '')) {
      problems.push({ field: 'clientReference', message: 'clientReference must be a non-empty string' });
    }
    if (problems.length > 0) return error(ctx, 400, ERROR_CODES.validation, 'Validation failed', problems);
    if (offer.offerId === MAGIC_OFFERS.soldOut) return error(ctx, 409, ERROR_CODES.noAvailability, 'No availability for the requested offer');
    const old = offer.pricing.display;
    const fare = offer.offerId === MAGIC_OFFERS.priceChangeAtBooking ? risen(old) : old;
    const passengers = (request.passengers as Record<string, unknown>[]).map((passenger, index) => ({
      ...passenger,
      // Passengers are matched to the offer's by position.
      passengerRef: offer.passengers[index]?.passengerRef,
    }));
    const prebook = await store.createPrebook({
      kind: 'prebook',
      prebookId: token(12),
      offerId: offer.offerId,
      clientReference: (request.clientReference as string | undefined) ?? null,
      status: 'PREBOOKED',
      transactionId: `tr_${token(16)}`,
      secretKey: request.usePaymentSdk === true ? `sk_test_${token(24)}` : null,
      expiration: utc(new Date(clock.now().getTime() + OFFER_LIFETIME_MS)),
      fare,
      pricing: { display: fare },
      changes: fare !== old ? { pricing: { old, new: fare } } : null,
      selectedServices: [],
      contact: request.contact as Record<string, unknown>,
      passengers,
      offer,
      bookingId: null,
      cancelledAt: null,
    });
    ctx.body = { data: prebookView(prebook, clock.now()) };
  });

  router.get('/v3.0/flights/prebooks/:prebookId', async (ctx) => {
    const prebook = await store.prebook(ctx.params.prebookId as string);
    if (!prebook) return error(ctx, 404, ERROR_CODES.prebookNotFound, 'Prebook not found or expired');
    ctx.body = { data: prebookView(prebook.document, clock.now()) };
  });

  // The services attached become exactly those asked for (attaching the same list twice changes nothing
  // but the transactionId), priced as the offer and its seat maps sell them.
  router.post('/v3.0/flights/prebooks/:prebookId/services', body, async (ctx) => {
    const found = await store.prebook(ctx.params.prebookId as string);
    if (!found || found.document.status === 'CANCELLED' || lapsed(found.document, clock.now())) {
      return error(ctx, 404, ERROR_CODES.prebookNotFound, 'Prebook not found or expired');
    }
    if (found.document.status === 'BOOKED') return error(ctx, 409, ERROR_CODES.prebookBooked, 'Prebook already booked');
    const chosen = selection(ctx.request.body, found.document);
    if ('problems' in chosen) return error(ctx, 400, ERROR_CODES.validation, 'Validation failed', chosen.problems);
    const display: Display = priced(found.document.fare, chosen.services);
    const updated = await store.updatePrebook(
      { ...found.document, selectedServices: chosen.services, pricing: { display }, transactionId: `tr_${token(16)}` },
      ['PREBOOKED'],
    );
    if (!updated) return error(ctx, 409, ERROR_CODES.prebookBooked, 'Prebook already booked');
    ctx.body = { data: prebookView(updated, clock.now()) };
  });

  router.delete('/v3.0/flights/prebooks/:prebookId', async (ctx) => {
    const found = await store.prebook(ctx.params.prebookId as string);
    if (!found) return error(ctx, 404, ERROR_CODES.prebookNotFound, 'Prebook not found or expired');
    let prebook = found.document;
    if (prebook.status === 'PREBOOKED') {
      prebook = (await store.updatePrebook({ ...prebook, status: 'CANCELLED', cancelledAt: utc(clock.now()) }, ['PREBOOKED'])) ?? ((await store.prebook(prebook.prebookId))?.document as PrebookDocument);
    }
    if (prebook.status === 'BOOKED') return error(ctx, 409, ERROR_CODES.prebookBooked, 'Prebook already booked: cancel the booking');
    // Nothing was paid for a prebook: nothing is refunded.
    ctx.body = { data: { ...prebookView(prebook, clock.now()), refund: null } };
  });
}

/** The body's `services: [{serviceId, quantity?}]`, each one the prebook can take, priced; or what is wrong. */
function selection(body: unknown, prebook: PrebookDocument): { services: SelectedService[] } | { problems: Problem[] } {
  const asked = (body as { services?: unknown } | undefined)?.services;
  if (!Array.isArray(asked)) return { problems: [{ field: 'services', message: 'services must be a list of {serviceId, quantity}' }] };
  const sellable = attachable(prebook.offer);
  const problems: Problem[] = [];
  const services: SelectedService[] = [];
  const seatTaken = new Set<string>();
  const seated = new Set<string>();
  asked.forEach((item: unknown, index) => {
    const { serviceId, quantity = 1 } = (item ?? {}) as { serviceId?: unknown; quantity?: unknown };
    const service = typeof serviceId === 'string' ? sellable.get(serviceId) : undefined;
    const at = `services[${index}]`;
    if (!service) return problems.push({ field: `${at}.serviceId`, message: 'not attachable to this prebook' });
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > (service.type === 'SEAT' ? 1 : (service.maxQuantity ?? 1))) {
      return problems.push({ field: `${at}.quantity`, message: 'quantity is more than the service allows' });
    }
    if (service.type === 'SEAT') {
      // One seat per passenger per segment, and one passenger per seat.
      const seat = `${service.segmentRef}/${service.seatNumber}`;
      const passenger = `${service.segmentRef}/${service.passengerRef}`;
      if (seatTaken.has(seat) || seated.has(passenger)) return problems.push({ field: `${at}.serviceId`, message: 'one seat per passenger and segment' });
      seatTaken.add(seat);
      seated.add(passenger);
    }
    services.push({ ...service, quantity });
  });
  return problems.length > 0 ? { problems } : { services };
}
