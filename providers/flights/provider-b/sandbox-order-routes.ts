/**
 * provider_b's order endpoints in its sandbox (Duffel v2 dialect), every order in the database through
 * SandboxOrders so that any instance serves what another placed:
 *
 *   POST /air/orders                       `{type, selected_offers, passengers, services, payments, metadata}`
 *   GET  /air/orders/{ord_id}              the order as it is now
 *   POST /air/payments                     `{order_id, payment: {type: "balance", amount, currency}}`: pays a hold
 *   POST /air/order_cancellations          `{order_id}`: a quote of the refund
 *   POST /air/order_cancellations/{ore_id}/actions/confirm   cancels the order
 *
 * *(invented)*: `metadata.booking_reference` is the client's reference and a second order with it answers
 * the first (Duffel keeps metadata but does not deduplicate by it); a cancellation asked of an order
 * already cancelled answers its confirmed cancellation; an unpaid hold past payment_required_by is
 * cancelled by the airline on the next look at it.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { SandboxOrders, type FlightSandboxDeps } from '../sandbox-orders.js';
import { answerSlowly } from '../sandbox-timing.js';
import { MAGIC_OFFERS, type Catalogue } from './sandbox-catalogue.js';
import { answerError, notFound } from './sandbox-errors.js';
import { passengerRefusal, pricedServices, soldOutFor, type OrderPassengerInput, type Refusal } from './sandbox-order-checks.js';
import { cancelled, isOverdue, lapsed, orderIdOfCancellation, placeOrder, quote, statusOf, ticketed, type StoredOrder } from './sandbox-order-document.js';

/** Past provider_b's booking_timeout_seconds (60): the caller gives up first. */
const SLOW_ORDER_MS = 65_000;

const body = koaBody({ json: true, jsonLimit: '256kb', urlencoded: false, text: false, multipart: false });
const dataOf = (ctx: Context) => ((ctx.request.body as { data?: Record<string, unknown> } | undefined)?.data ?? {}) as Record<string, unknown>;
const refuse = (ctx: Context, refusal: Refusal) => answerError(ctx, refusal.status, refusal.type, refusal.code, refusal.title, refusal.message);
const unavailableOffer = (ctx: Context) =>
  answerError(ctx, 422, 'invalid_state_error', 'offer_no_longer_available', 'Offer no longer available', 'The offer is no longer available.');
const priceChanged = (ctx: Context) =>
  answerError(ctx, 422, 'invalid_state_error', 'price_changed', 'Price changed', 'The price has changed: retrieve the offer or order again and retry with its new total.');
const wrongAmount = (ctx: Context) =>
  answerError(ctx, 422, 'validation_error', 'invalid_payment_amount', 'Invalid payment amount', 'The payment amount must equal the total of the offer and its services.');

export function orderRoutes(router: Router, catalogue: Catalogue, { db, clock }: FlightSandboxDeps): void {
  const orders = new SandboxOrders<StoredOrder>(db, 'provider_b', clock);

  /** The order now: an overdue hold is cancelled by the airline first. */
  const current = async (id: string): Promise<StoredOrder | undefined> => {
    const row = await orders.get(id);
    if (!row || !isOverdue(row.document, clock.now())) return row?.document;
    const after = lapsed(row.document);
    return (await orders.transition(id, ['held'], { status: 'cancelled', document: after }))?.document ?? (await orders.get(id))?.document;
  };

  router.post('/air/orders', body, async (ctx) => {
    const data = dataOf(ctx);
    const offerId = Array.isArray(data.selected_offers) ? String(data.selected_offers[0]) : '';
    const offer = catalogue.offer(offerId);
    if (!offer) return unavailableOffer(ctx);
    if (offerId === MAGIC_OFFERS.slow) {
      // The caller hung up: the airline never got the order.
      if (!(await answerSlowly(ctx, SLOW_ORDER_MS))) return;
    }
    if (offerId === MAGIC_OFFERS.error) return answerError(ctx, 500, 'api_error', 'internal_server_error', 'Internal server error', 'An unexpected error occurred.');
    if (offerId === MAGIC_OFFERS.soldOut || Date.parse(offer.expires_at) <= clock.now().getTime()) return unavailableOffer(ctx);
    const type = data.type;
    if (type !== 'instant' && type !== 'hold') return refuse(ctx, { status: 422, type: 'validation_error', code: 'validation_required', title: 'Invalid data', message: 'type must be instant or hold.' });
    const metadata = (data.metadata ?? {}) as Record<string, unknown>;
    if (typeof metadata !== 'object' || Object.values(metadata).some((value) => typeof value !== 'string')) {
      return refuse(ctx, { status: 422, type: 'validation_error', code: 'validation_required', title: 'Invalid data', message: 'metadata values must be strings.' });
    }
    const passengers = (Array.isArray(data.passengers) ? data.passengers : []) as OrderPassengerInput[];
    const refusal = passengerRefusal(offer, passengers, clock.now());
    if (refusal) return refuse(ctx, refusal);
    if (soldOutFor(passengers)) return unavailableOffer(ctx);
    if (type === 'hold' && offer.payment_requirements.requires_instant_payment) {
      return answerError(ctx, 422, 'invalid_state_error', 'instant_payment_required', 'Instant payment required', 'This offer cannot be held: create an instant order.');
    }
    const services = pricedServices(offer, Array.isArray(data.services) ? (data.services as { id?: unknown; quantity?: unknown }[]) : []);
    if ('code' in services) return refuse(ctx, services);
    const currency = offer.total_currency;
    const plus = (amount: string) => fromMinorUnits(toMinorUnits(amount, currency) + toMinorUnits(services.total, currency), currency);
    const servedTotal = plus(offer.total_amount);
    const total = plus(catalogue.livePrice(offer).total_amount);
    const payments = (Array.isArray(data.payments) ? data.payments : []) as { type?: unknown; amount?: unknown; currency?: unknown }[];
    if (type === 'hold' && payments.length > 0) {
      return refuse(ctx, { status: 422, type: 'validation_error', code: 'validation_forbidden', title: 'Invalid data', message: 'A hold order is paid later: send no payments.' });
    }
    if (type === 'instant') {
      const payment = payments[0];
      if (payments.length !== 1 || payment?.type !== 'balance' || payment.currency !== currency) {
        return refuse(ctx, { status: 422, type: 'validation_error', code: 'validation_required', title: 'Invalid data', message: `Send one balance payment in ${currency}.` });
      }
      if (payment.amount !== total) return payment.amount === servedTotal ? priceChanged(ctx) : wrongAmount(ctx);
    }
    const placed = placeOrder({
      offer,
      type,
      passengers: passengers.map((passenger) => ({ ...passenger, type: offer.passengers.find((item) => item.id === passenger.id)?.type ?? 'adult' })),
      services: services.services,
      metadata: metadata as Record<string, string>,
      total,
      servedTotal,
      now: clock.now(),
    });
    const reference = typeof metadata.booking_reference === 'string' ? metadata.booking_reference : null;
    const { order, created } = await orders.create({ id: placed.order.id, reference, status: statusOf(placed.order), document: placed });
    ctx.status = created ? 201 : 200;
    ctx.body = { data: order.document.order };
  });

  router.get('/air/orders/:id', async (ctx) => {
    const stored = await current(ctx.params.id as string);
    if (!stored) return notFound(ctx, 'order');
    ctx.body = { data: stored.order };
  });

  router.post('/air/payments', body, async (ctx) => {
    const data = dataOf(ctx);
    const payment = (data.payment ?? {}) as { type?: unknown; amount?: unknown; currency?: unknown };
    const id = String(data.order_id ?? '');
    const stored = await current(id);
    if (!stored) return notFound(ctx, 'order');
    const status = statusOf(stored.order);
    if (status === 'cancelled') return answerError(ctx, 422, 'invalid_state_error', 'order_cancelled', 'Order cancelled', 'The order is cancelled and cannot be paid.');
    if (status === 'confirmed') return answerError(ctx, 422, 'invalid_state_error', 'already_paid', 'Already paid', 'The order has already been paid.');
    if (payment.type !== 'balance' || payment.currency !== stored.order.total_currency) {
      return refuse(ctx, { status: 422, type: 'validation_error', code: 'validation_required', title: 'Invalid data', message: `Send a balance payment in ${stored.order.total_currency}.` });
    }
    if (payment.amount !== stored.order.total_amount) return payment.amount === stored.servedTotal ? priceChanged(ctx) : wrongAmount(ctx);
    const paid = await orders.transition(id, ['held'], { status: 'confirmed', document: { ...stored, order: ticketed(stored.order, clock.now()) } });
    // Another request paid or cancelled it meanwhile: answer as that order is now.
    if (!paid) return answerError(ctx, 422, 'invalid_state_error', 'already_paid', 'Already paid', 'The order has already been paid or cancelled.');
    ctx.status = 201;
    ctx.body = {
      data: { id: `pay_${id.slice(4)}`, live_mode: false, type: 'balance', amount: payment.amount, currency: payment.currency, created_at: clock.now().toISOString() },
    };
  });

  router.post('/air/order_cancellations', body, async (ctx) => {
    const id = String(dataOf(ctx).order_id ?? '');
    const stored = await current(id);
    if (!stored) return notFound(ctx, 'order');
    if (statusOf(stored.order) === 'cancelled' && stored.cancellation?.confirmed_at) {
      ctx.body = { data: stored.cancellation };
      return;
    }
    const offered = quote(stored, clock.now());
    const status = statusOf(stored.order);
    const saved = await orders.transition(id, [status], { status, document: { ...stored, cancellation: offered } });
    if (!saved) return answerError(ctx, 409, 'invalid_state_error', 'order_changed', 'Order changed', 'The order changed meanwhile: ask again.');
    ctx.status = 201;
    ctx.body = { data: offered };
  });

  router.post('/air/order_cancellations/:id/actions/confirm', async (ctx) => {
    const cancellationId = ctx.params.id as string;
    const orderId = orderIdOfCancellation(cancellationId);
    const stored = await current(orderId);
    if (!stored?.cancellation || stored.cancellation.id !== cancellationId) return notFound(ctx, 'order cancellation');
    if (stored.cancellation.confirmed_at) {
      ctx.body = { data: stored.cancellation };
      return;
    }
    if (Date.parse(stored.cancellation.expires_at) <= clock.now().getTime()) {
      return answerError(ctx, 422, 'invalid_state_error', 'order_cancellation_expired', 'Cancellation expired', 'This cancellation quote has expired: create a new one.');
    }
    const done = await orders.transition(orderId, ['held', 'confirmed'], { status: 'cancelled', document: cancelled(stored, clock.now()) });
    const now = done?.document ?? (await current(orderId));
    if (!now?.cancellation?.confirmed_at) return answerError(ctx, 409, 'invalid_state_error', 'order_changed', 'Order changed', 'The order changed meanwhile: ask again.');
    ctx.body = { data: now.cancellation };
  });
}
