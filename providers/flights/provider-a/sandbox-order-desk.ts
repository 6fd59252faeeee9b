/**
 * provider_a's sandbox: its flight orders (Amadeus Flight Create Orders and Flight Order Management), kept
 * in the database so that any instance can read, pay or cancel what another booked.
 *
 *   POST   /v1/booking/flight-orders             header `Ama-Client-Ref`, body `{data:{type:"flight-order",
 *          flightOffers:[priced], travelers, ticketingAgreement?, formOfPayments?}}` → 201 `{data: order}`
 *   GET    /v1/booking/flight-orders/{id}        → 200 `{data: order}`, 404 when unknown
 *   DELETE /v1/booking/flight-orders/{id}        → 204
 *   POST   /v1/booking/flight-orders/{id}/issuance   body `{data:{formOfPayments}}` → 200 `{data: order}`
 *
 * Invented where no source documents it: a create repeated with the same `Ama-Client-Ref` answers the first
 * order (Amadeus keeps the reference for tracing only); the issuance call that pays and tickets a held order
 * (Amadeus Self-Service leaves ticketing to a consolidator); a DELETE of a cancelled order answers 204
 * again and the order stays readable with its `cancellation` (Amadeus forgets it); the balance form of
 * payment (sandbox-order-request.ts); 1797 NOT FOUND as the unknown order's code.
 *
 * Without a ticketing agreement, or with `CONFIRM`, the order is paid from the partner's balance and
 * ticketed at once: `formOfPayments` must carry exactly the order's grandTotal: the offer's fare (its
 * grandTotal less the paid extras it lists under `price.additionalServices`) plus every chosen seat and bag
 * once, whether chosen before pricing or with the order.
 * `DELAY_TO_CANCEL` with a `delay` of days holds it unpaid until then (never past the offer's last
 * ticketing date), after which the airline cancels it.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { toMinorUnits } from '../../../core/money/money.js';
import { SandboxOrders, type FlightSandboxDeps, type SandboxOrder } from '../sandbox-orders.js';
import { PROVIDER_ID } from './map.js';
import { fareRules, refundOf } from './sandbox-fares.js';
import { callerGone } from '../sandbox-timing.js';
import { authorized, fail, steered } from './sandbox-http.js';
import { additionalServicesOf, currentFare, discrepancy, extrasOf, fareOf, firstFlight, lastTicketingOf, soldOut, stale, sumOf, travelersMatch, travelersValid, type Refusal } from './sandbox-order-checks.js';
import { issueTickets, localDateTime, newOrderId, newRecordLocator, type FlightOrderDocument } from './sandbox-order-document.js';
import { IssuanceRequest, OrderRequest, pointerOf, type OrderedOffer } from './sandbox-order-request.js';

/** Past provider_a's 30 s booking timeout. */
const SLOW_ORDER_MS = 32_000;
const DAY_MS = 86_400_000;

export function orderDesk(router: Router, deps: FlightSandboxDeps): void {
  const orders = new SandboxOrders<FlightOrderDocument>(deps.db, PROVIDER_ID, deps.clock);
  const body = koaBody({ json: true, jsonLimit: '1mb', urlencoded: false, text: false, multipart: false });

  /** The order as it stands now: a hold whose deadline passed is cancelled first, as the airline would. */
  const current = async (id: string): Promise<SandboxOrder<FlightOrderDocument> | undefined> => {
    const order = await orders.get(id);
    if (order?.status !== 'held' || order.document.ticketingAgreement.option !== 'DELAY_TO_CANCEL') return order;
    const deadline = order.document.ticketingAgreement.dateTime;
    if (Date.parse(deadline) > deps.clock.now().getTime()) return order;
    const lapsed = { ...order.document, cancellation: { dateTime: deadline, refund: null } };
    return (await orders.transition(id, ['held'], { status: 'cancelled', document: lapsed })) ?? orders.get(id);
  };
  const notFound = (ctx: Context) => fail(ctx, 404, 1797, 'NOT FOUND', 'No flight order with this id.', '/id');

  router.post('/v1/booking/flight-orders', body, async (ctx) => {
    if (!authorized(ctx)) return;
    const parsed = OrderRequest.safeParse(ctx.request.body);
    if (!parsed.success) return fail(ctx, 400, 32171, 'MANDATORY DATA MISSING', 'A required field is missing or malformed.', pointerOf(parsed.error));
    const order = parsed.data.data;
    const reference = ctx.get('ama-client-ref') || null;
    const placed = reference ? await orders.byReference(reference) : undefined;
    if (placed) return answer(ctx, 201, (await current(placed.id)) ?? placed);

    const offer = order.flightOffers[0] as OrderedOffer;
    if (await steered(ctx, firstFlight(offer), SLOW_ORDER_MS)) return;
    const now = deps.clock.now();
    const refusal = soldOut(order) ?? stale(offer, now) ?? travelersMatch(order) ?? travelersValid(order);
    if (refusal) return refuse(ctx, refusal);
    const extras = extrasOf(offer);
    if ('code' in extras) return refuse(ctx, extras);

    const currency = offer.price.currency;
    // The fare without the extras it lists as included, plus every chosen extra once: one chosen before
    // pricing is in the offer's grandTotal already, one chosen with the order is added to it.
    const grandTotal = sumOf(currency, currentFare(offer), extras.seats, extras.bags);
    const requested = sumOf(currency, fareOf(offer), extras.seats, extras.bags);
    if (grandTotal !== requested) return refuse(ctx, discrepancy(grandTotal, requested));

    if (order.ticketingAgreement?.option === 'DELAY_TO_QUEUE') return fail(ctx, 400, 477, 'INVALID FORMAT', 'This office does not queue orders: use CONFIRM or DELAY_TO_CANCEL.', '/data/ticketingAgreement/option');
    const hold = order.ticketingAgreement?.option === 'DELAY_TO_CANCEL';
    let ticketingAgreement: FlightOrderDocument['ticketingAgreement'] = { option: 'CONFIRM' };
    if (hold) {
      const days = /^(\d{1,2})D$/.exec(order.ticketingAgreement?.delay ?? '');
      if (!days) return fail(ctx, 400, 477, 'INVALID FORMAT', 'ticketingAgreement.delay must be a number of days, such as 6D.', '/data/ticketingAgreement/delay');
      const deadline = new Date(Math.min(now.getTime() + Number(days[1]) * DAY_MS, lastTicketingOf(offer)?.getTime() ?? Infinity));
      ticketingAgreement = { option: 'DELAY_TO_CANCEL', delay: `${days[1]}D`, dateTime: deadline.toISOString() };
    } else {
      const paid = paymentRefusal(order.formOfPayments, grandTotal, currency);
      if (paid) return refuse(ctx, paid);
    }

    const additionalServices = additionalServicesOf(extras, currency);
    const document: FlightOrderDocument = {
      type: 'flight-order',
      id: newOrderId(),
      associatedRecords: [{ reference: newRecordLocator(), creationDateTime: localDateTime(now), originSystemCode: '1A', flightOfferId: String((offer as { id?: unknown }).id ?? '1') }],
      flightOffers: [{ ...offer, price: { ...withoutListed(offer.price), grandTotal, ...(additionalServices.length > 0 ? { additionalServices } : {}) } }],
      travelers: order.travelers,
      ...(parsed.data.data.contacts ? { contacts: parsed.data.data.contacts } : {}),
      ticketingAgreement,
      ...(hold ? {} : { formOfPayments: order.formOfPayments }),
    };
    if (!hold) document.tickets = issueTickets(document);
    // A caller that hung up meanwhile books nothing: it was told the order failed.
    if (callerGone(ctx)) return;
    const stored = await orders.create({ id: document.id, reference, status: hold ? 'held' : 'issued', document });
    answer(ctx, 201, stored.order);
  });

  router.get('/v1/booking/flight-orders/:id', async (ctx) => {
    if (!authorized(ctx)) return;
    const order = await current(ctx.params.id as string);
    if (!order) return notFound(ctx);
    answer(ctx, 200, order);
  });

  router.delete('/v1/booking/flight-orders/:id', async (ctx) => {
    if (!authorized(ctx)) return;
    const id = ctx.params.id as string;
    for (let attempt = 0; attempt < 3; attempt++) {
      const order = await current(id);
      if (!order) return notFound(ctx);
      if (order.status === 'cancelled' || (await orders.transition(id, [order.status], { status: 'cancelled', document: cancelled(order, deps.clock.now()) }))) {
        ctx.status = 204;
        return;
      }
      // Paid or cancelled by another request meanwhile: read it again.
    }
    fail(ctx, 500, 141, 'SYSTEM ERROR HAS OCCURRED', 'Please retry later.');
  });

  router.post('/v1/booking/flight-orders/:id/issuance', body, async (ctx) => {
    if (!authorized(ctx)) return;
    const parsed = IssuanceRequest.safeParse(ctx.request.body);
    if (!parsed.success) return fail(ctx, 400, 32171, 'MANDATORY DATA MISSING', 'A required field is missing or malformed.', pointerOf(parsed.error));
    const id = ctx.params.id as string;
    const order = await current(id);
    if (!order) return notFound(ctx);
    if (order.status === 'issued') return answer(ctx, 200, order);
    if (order.status === 'cancelled') return fail(ctx, 400, 36870, 'BOOKING FAILED', 'The flight order is cancelled and cannot be issued.', '/id');
    const price = (order.document.flightOffers[0] as OrderedOffer).price;
    const paid = paymentRefusal(parsed.data.data.formOfPayments, price.grandTotal, price.currency);
    if (paid) return refuse(ctx, paid);
    const issued: FlightOrderDocument = { ...order.document, ticketingAgreement: { option: 'CONFIRM' }, formOfPayments: parsed.data.data.formOfPayments };
    issued.tickets = issueTickets(issued);
    const done = (await orders.transition(id, ['held'], { status: 'issued', document: issued })) ?? (await current(id));
    if (done?.status !== 'issued') return fail(ctx, 400, 36870, 'BOOKING FAILED', 'The flight order is cancelled and cannot be issued.', '/id');
    answer(ctx, 200, done);
  });
}

/** The balance must pay the order's grandTotal exactly, in its currency. */
function paymentRefusal(forms: { other: { amount: string; currencyCode: string } }[] | undefined, grandTotal: string, currency: string): Refusal | undefined {
  const payment = forms?.[0]?.other;
  if (!payment) return { status: 400, code: 32171, title: 'MANDATORY DATA MISSING', detail: 'formOfPayments is required to ticket the order.', pointer: '/data/formOfPayments' };
  if (payment.currencyCode !== currency) {
    return { status: 400, code: 477, title: 'INVALID FORMAT', detail: `formOfPayments[0].other.currencyCode must be ${currency}.`, pointer: '/data/formOfPayments/0/other/currencyCode' };
  }
  if (toMinorUnits(payment.amount, currency) !== toMinorUnits(grandTotal, currency)) return discrepancy(grandTotal, payment.amount);
  return undefined;
}

/** A cancel: an unpaid hold refunds nothing; a ticketed order refunds what its fare rules allow. */
function cancelled(order: SandboxOrder<FlightOrderDocument>, now: Date): FlightOrderDocument {
  const offer = order.document.flightOffers[0] as OrderedOffer;
  const currency = offer.price.currency;
  const refund = order.status === 'issued' ? refundOf(fareRules(offer.travelerPricings[0]?.fareDetailsBySegment[0]?.brandedFare, currency), offer.price.grandTotal, currency) : undefined;
  const tickets = order.document.tickets?.map((ticket) => ({ ...ticket, documentStatus: refund ? ('REFUNDED' as const) : ('VOID' as const) }));
  return { ...order.document, ...(tickets ? { tickets } : {}), cancellation: { dateTime: now.toISOString(), refund: refund ? { amount: refund, currencyCode: currency } : null } };
}

/** The offer's price without the extras it listed: the order lists those it charges itself. */
function withoutListed(price: OrderedOffer['price']): OrderedOffer['price'] {
  const { additionalServices: _listed, ...rest } = price;
  return rest;
}

function refuse(ctx: Context, refusal: Refusal): void {
  fail(ctx, refusal.status, refusal.code, refusal.title, refusal.detail, refusal.pointer);
}

function answer(ctx: Context, status: number, order: { document: FlightOrderDocument; status: string }): void {
  ctx.status = status;
  ctx.body = { data: order.document };
}
