/**
 * provider_c's order endpoints (NDC as JSON), its orders kept in the database (SandboxOrders), so that
 * any instance of the service can pay, read or cancel what another booked:
 *
 *   POST /OrderCreate    {PayloadAttributes:{CorrelationID}, PricedOffer, CreateOrder:{AcceptSelectedQuotedOfferList:
 *                          {SelectedPricedOffer:[{OfferRefID, OwnerCode, SelectedOfferItem:[{OfferItemRefID, PaxRefID[],
 *                          SelectedSeat?:{PaxSegmentRefID, SeatRowNumber, ColumnID}}]}]}}, DataLists:{PaxList, ContactInfoList}}
 *                        → OrderViewRS (a hold: OPENED, PaymentTimeLimitDateTime, no tickets)
 *   POST /OrderReshop    {Order:{OrderID}}                                  → {ReshopResults:{NoChangeInd} | {RepricedOffer}}
 *                        {Order:{OrderID}, UpdateOrder:{CancelOrderRef:{OrderRefID}}} → {ReshopResults:{ReshopOffers:[cancel offer]}}
 *   POST /OrderChange    {Order:{OrderID}, PaymentFunctions:{PaymentProcessingDetails:{Amount}}} → OrderViewRS with TicketDocInfo
 *                        {Order:{OrderID}, ChangeOrderChoice:{AcceptCancelledOffer:{OfferID, OwnerCode}}} → OrderViewRS (CLOSED)
 *   POST /OrderRetrieve  {Order:{OrderID}}                                  → OrderViewRS
 *
 * The codes are Virgin Atlantic's (129 no such order, 290 seat refused, 303 hold lapsed, 395 already
 * ticketed, 727 amount, 912 incomplete, 913 unknown item). The offer is sent whole with OrderCreate (the
 * sandbox keeps no offers), and the seller's reference travels as PayloadAttributes.CorrelationID: a
 * second OrderCreate with it answers the first order *(invented: VS documents no such replay)*.
 */
import { randomInt } from 'node:crypto';
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { SandboxOrders, type FlightSandboxDeps, type SandboxOrder } from '../sandbox-orders.js';
import { code, flightOf, ndcError, parsed } from './sandbox-ndc.js';
import { cancelOfferId, cancelQuote, orderTotal, orderView, refundsOf, type NdcOrderDocument, type OrderStatus } from './sandbox-order-document.js';
import { orderSelectionRefusal } from './sandbox-order-selection.js';
import { passengerRefusal, repriced, sameAmount } from './sandbox-rules.js';
import { MAGIC_FLIGHT_NUMBERS } from './sandbox-magic.js';
import { OrderChangeRequest, OrderCreateRequest, OrderRef, OrderReshopRequest } from './sandbox-requests.js';
import type { WireOffer } from './wire.js';

/** When an offer states no payment time limit, a hold is kept this long *(invented)*. */
const HOLD_MS = 24 * 60 * 60 * 1000;
/** How long a cancel quote may be accepted *(invented)*. */
const CANCEL_QUOTE_MS = 30 * 60 * 1000;

type Stored = SandboxOrder<NdcOrderDocument>;

/**
 * Mounts the order endpoints on `router`. `sellable` answers the offer's magic paths and expiry (false
 * when it answered, or when the caller hung up while the sandbox was being slow).
 */
export function orderRoutes(router: Router, body: Middleware, { db, clock }: FlightSandboxDeps, sellable: (ctx: Context, offer: WireOffer, slowMs: number) => Promise<boolean>, slowMs: number): void {
  const orders = new SandboxOrders<NdcOrderDocument>(db, 'provider_c', clock);

  /** The order named in the request, lapsed first if its payment time limit passed unpaid; undefined once 129 is answered. */
  const find = async (ctx: Context, id: string): Promise<Stored | undefined> => {
    const order = await orders.get(id);
    if (!order) {
      ndcError(ctx, '129', 'No Order ID match found', 'Unavailable');
      return undefined;
    }
    if (order.status !== 'HELD' || Date.parse(order.document.PaymentTimeLimitDateTime) > clock.now().getTime()) return order;
    const lapsed = { ...order.document, Refunds: {}, CancellationDateTime: order.document.PaymentTimeLimitDateTime, LapsedInd: true };
    return (await orders.transition(id, ['HELD'], { status: 'CANCELLED', document: lapsed })) ?? orders.get(id);
  };
  const view = (order: Stored) => orderView(order.document, order.status as OrderStatus);

  router.post('/OrderCreate', body, async (ctx) => {
    const request = parsed(ctx, OrderCreateRequest);
    if (!request) return;
    const reference = request.PayloadAttributes?.CorrelationID ?? null;
    const earlier = reference === null ? undefined : await orders.byReference(reference);
    if (earlier) return void (ctx.body = view(earlier));
    const offer = request.PricedOffer;
    if (!(await sellable(ctx, offer, slowMs))) return;
    if (flightOf(offer) === MAGIC_FLIGHT_NUMBERS.soldOut) return void ndcError(ctx, '496', 'No available flights', 'Unavailable');
    const selection = orderSelectionRefusal(offer, request);
    if ('code' in selection) return void ndcError(ctx, selection.code, selection.text, selection.type);
    const refusal = passengerRefusal(offer, request.DataLists.PaxList);
    if (refusal) return void ndcError(ctx, refusal.code, refusal.text);

    const bookingId = code(6);
    const limits = offer.OfferItem.map((item) => item.PaymentTimeLimitDateTime).filter((time) => time !== undefined).sort();
    const document: NdcOrderDocument = {
      OrderID: `${offer.OwnerCode}932${bookingId}${code(2)}`,
      OwnerCode: offer.OwnerCode,
      BookingID: bookingId,
      PaymentTimeLimitDateTime: new Date(limits[0] ?? clock.now().getTime() + HOLD_MS).toISOString(),
      QuotedOffer: offer,
      CurrentOffer: flightOf(offer) === MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking ? repriced(offer) : offer,
      PaxList: request.DataLists.PaxList.map((person) => ({ ...person, PTC: offer.DataLists.PaxList.find((pax) => pax.PaxID === person.PaxID)?.PTC })),
      ContactInfoList: request.DataLists.ContactInfoList ?? [],
      Seats: selection.seats,
    };
    const { order, created } = await orders.create({ id: document.OrderID, reference, status: 'HELD', document });
    // Right after OrderCreate the seller is told the price it selected, even where the airline reprices at once.
    ctx.body = created ? orderView(order.document, 'HELD', order.document.QuotedOffer) : view(order);
  });

  router.post('/OrderReshop', body, async (ctx) => {
    const request = parsed(ctx, OrderReshopRequest);
    const order = request && (await find(ctx, request.Order.OrderID));
    if (!request || !order) return;
    const document = order.document;
    if (request.UpdateOrder?.CancelOrderRef) {
      const quote = order.status === 'CANCELLED' ? (document.Refunds ?? {}) : refundsOf(document, order.status as OrderStatus);
      return void (ctx.body = cancelQuote(document, quote, new Date(clock.now().getTime() + CANCEL_QUOTE_MS)));
    }
    if (order.status === 'CANCELLED') return void ndcError(ctx, '129', "Requested Journey not OPEN - Associated Service ID's not OPEN", 'Unavailable');
    const now = orderTotal(document, document.CurrentOffer);
    const changed = !sameAmount(now, orderTotal(document, document.QuotedOffer));
    // Told once, the new price stands: the next reshop says no change.
    if (changed) await orders.transition(order.id, ['HELD'], { status: 'HELD', document: { ...document, QuotedOffer: document.CurrentOffer } });
    ctx.body = {
      Order: { OrderID: order.id, OwnerCode: document.OwnerCode },
      ReshopResults: changed ? { RepricedOffer: { OfferID: document.CurrentOffer.OfferID, TotalPrice: { TotalAmount: now } } } : { NoChangeInd: true },
    };
  });

  router.post('/OrderChange', body, async (ctx) => {
    const request = parsed(ctx, OrderChangeRequest);
    if (!request) return;
    const id = request.Order.OrderID;
    const accepted = request.ChangeOrderChoice?.AcceptCancelledOffer;
    const amount = request.PaymentFunctions?.PaymentProcessingDetails.Amount;
    if (!accepted && !amount) return void ndcError(ctx, '912', 'Incomplete message - data missing in query/ request');
    // Two sellers may race (two payments, a payment and a cancel): the loser reads the order again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const order = await find(ctx, id);
      if (!order) return;
      const status = order.status as OrderStatus;
      const document = order.document;
      if (accepted) {
        if (accepted.OfferID !== cancelOfferId(document)) return void ndcError(ctx, '913', 'Invalid Request/OrderChange/SelectedPricedOffer/OfferID value is entered.', 'Unavailable');
        if (status === 'CANCELLED') return void (ctx.body = view(order));
        const cancelled = { ...document, Refunds: refundsOf(document, status), CancellationDateTime: clock.now().toISOString() };
        const done = await orders.transition(id, [status], { status: 'CANCELLED', document: cancelled });
        if (done) return void (ctx.body = view(done));
        continue;
      }
      if (status === 'TICKETED') return void ndcError(ctx, '395', 'Order/PNR already ticketed');
      if (status === 'CANCELLED') {
        return document.LapsedInd
          ? void ndcError(ctx, '303', 'Unable to retrieve Order - Payment Time Limit has expired and the itinerary has been cancelled', 'Unavailable')
          : void ndcError(ctx, '129', "Requested Journey not OPEN - Associated Service ID's not OPEN", 'Unavailable');
      }
      if (!amount || !sameAmount(amount, orderTotal(document, document.CurrentOffer))) {
        return void ndcError(ctx, '727', 'Invalid amount/ currency', 'NotProcessed', 200, { Order: { OrderID: id, OwnerCode: document.OwnerCode } });
      }
      const ticketed = {
        ...document,
        QuotedOffer: document.CurrentOffer,
        TicketDocInfo: document.CurrentOffer.DataLists.PaxList.map((passenger) => ({
          PaxRefID: passenger.PaxID,
          TicketDocument: [{ TicketDocNbr: `932${randomInt(1_000_000_000, 10_000_000_000)}`, Type: 'T' }],
        })),
      };
      const done = await orders.transition(id, ['HELD'], { status: 'TICKETED', document: ticketed });
      if (done) return void (ctx.body = view(done));
    }
    ndcError(ctx, '911', 'Internal error (unknown internal technical error)', 'Unknown');
  });

  router.post('/OrderRetrieve', body, async (ctx) => {
    const request = parsed(ctx, OrderRef);
    const order = request && (await find(ctx, request.Order.OrderID));
    if (order) ctx.body = view(order);
  });
}
