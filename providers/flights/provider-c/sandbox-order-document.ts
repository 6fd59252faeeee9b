/**
 * An order as provider_c's sandbox keeps it (one row of SandboxOrders, this document in NDC's words), and
 * what it answers about it: OrderViewRS, the order's total, and the cancel quote of OrderReshop.
 *
 * Refunds follow the fare (CancelRestrictions of each FareComponent): an item whose fare does not allow
 * cancelling refunds nothing; otherwise it refunds what was paid for it less its fee, per passenger (the
 * highest Fee of its components). A seat is refunded with its passenger's fare. An order never paid
 * refunds nothing. *(The refund rule and the quote's id are the sandbox's own: no source documents them.)*
 */
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import type { WireOffer } from './wire.js';

type Amount = { amount: string; curCode: string };

export type OrderStatus = 'HELD' | 'TICKETED' | 'CANCELLED';

export interface OrderSeat {
  PaxRefID: string;
  PaxSegmentRefID: string;
  RowNumber: number;
  ColumnID: string;
  OfferItemRefID: string;
  UnitPrice: Amount;
}

export interface NdcOrderDocument {
  OrderID: string;
  OwnerCode: string;
  BookingID: string;
  PaymentTimeLimitDateTime: string;
  /** The offer as last told to the seller (at OrderCreate, then at each OrderReshop). */
  QuotedOffer: WireOffer;
  /** The offer as the airline prices the order now. */
  CurrentOffer: WireOffer;
  PaxList: Record<string, unknown>[];
  ContactInfoList: Record<string, unknown>[];
  Seats: OrderSeat[];
  TicketDocInfo?: { PaxRefID: string; TicketDocument: { TicketDocNbr: string; Type: string }[] }[];
  /** Set when cancelled: each item's refund and when it happened. */
  Refunds?: Record<string, Amount>;
  CancellationDateTime?: string;
  /** Cancelled by the airline: its payment time limit passed unpaid. */
  LapsedInd?: boolean;
}

/** The order's total at `offer`'s price: the fares plus the seats. */
export function orderTotal(order: NdcOrderDocument, offer: WireOffer): Amount {
  const currency = offer.TotalPrice.TotalAmount.curCode;
  const units = order.Seats.reduce((sum, seat) => sum + toMinorUnits(seat.UnitPrice.amount, currency), toMinorUnits(offer.TotalPrice.TotalAmount.amount, currency));
  return { amount: fromMinorUnits(units, currency), curCode: currency };
}

const fareItemId = (order: NdcOrderDocument, index: number) => `${order.OrderID}-${index + 1}`;
const seatItemId = (order: NdcOrderDocument, index: number) => `${order.OrderID}-S${index + 1}`;

/** OrderViewRS of `order` in `status`, priced at `offer` (the quoted one right after OrderCreate, else the current one). */
export function orderView(order: NdcOrderDocument, status: OrderStatus, offer: WireOffer = order.CurrentOffer) {
  const serviceStatus = status === 'CANCELLED' ? 'CANCELLED' : 'CONFIRMED';
  const booking = { BookingID: order.BookingID };
  const refund = (id: string) => {
    const amount = order.Refunds?.[id];
    return amount ? { PriceDifferential: { DifferentialTypeCode: 'Refund', DiffPrice: { DueByAirlineAmount: amount } } } : {};
  };
  return {
    Order: {
      OrderID: order.OrderID,
      OwnerCode: order.OwnerCode,
      StatusCode: status === 'CANCELLED' ? 'CLOSED' : 'OPENED',
      TotalPrice: { TotalAmount: orderTotal(order, offer) },
      ...(status === 'HELD' ? { PaymentTimeLimitDateTime: order.PaymentTimeLimitDateTime } : {}),
      // *(invented)*: VS's cancel answer says no time; the sandbox keeps one so that a second cancel reads the same.
      ...(order.CancellationDateTime ? { CancellationDateTime: order.CancellationDateTime } : {}),
      OrderItem: [
        ...offer.OfferItem.map((item, index) => ({
          OrderItemID: fareItemId(order, index),
          OfferItemRefID: item.OfferItemID,
          ...(status === 'HELD' ? { PaymentTimeLimitDateTime: order.PaymentTimeLimitDateTime } : {}),
          Price: item.Price,
          FareDetail: { PaxRefID: item.FareDetail.PaxRefID },
          ...refund(fareItemId(order, index)),
          Service: item.FareDetail.PaxRefID.map((passenger) => ({
            ServiceID: `${item.OfferItemID}-${passenger}`,
            PaxRefID: passenger,
            StatusCode: serviceStatus,
            BookingRef: booking,
          })),
        })),
        ...order.Seats.map((seat, index) => ({
          OrderItemID: seatItemId(order, index),
          OfferItemRefID: seat.OfferItemRefID,
          Price: { TotalAmount: seat.UnitPrice },
          ...refund(seatItemId(order, index)),
          Service: [
            {
              ServiceID: `SEAT-${seat.PaxSegmentRefID}-${seat.PaxRefID}`,
              PaxRefID: seat.PaxRefID,
              StatusCode: serviceStatus,
              BookingRef: booking,
              SeatAssignment: { PaxSegmentRefID: seat.PaxSegmentRefID, Seat: { RowNumber: seat.RowNumber, ColumnID: seat.ColumnID } },
            },
          ],
        })),
      ],
    },
    DataLists: { PaxList: order.PaxList, ContactInfoList: order.ContactInfoList },
    ...(order.TicketDocInfo ? { TicketDocInfo: order.TicketDocInfo } : {}),
  };
}

/** What cancelling `order` now refunds, by OrderItemID (see the header for the rule). */
export function refundsOf(order: NdcOrderDocument, status: OrderStatus): Record<string, Amount> {
  const offer = order.CurrentOffer;
  const currency = offer.TotalPrice.TotalAmount.curCode;
  const money = (units: bigint) => ({ amount: fromMinorUnits(units > 0n ? units : 0n, currency), curCode: currency });
  const paid = status === 'TICKETED';
  const refundable = new Map<string, boolean>();
  const refunds: Record<string, Amount> = {};
  offer.OfferItem.forEach((item, index) => {
    const restrictions = item.FareDetail.FareComponent.map((component) => component.CancelRestrictions).filter((restriction) => restriction !== undefined);
    const allowed = paid && restrictions.every((restriction) => restriction.AllowedModificationInd);
    for (const passenger of item.FareDetail.PaxRefID) refundable.set(passenger, allowed);
    const fee = restrictions.reduce((highest, restriction) => {
      const units = restriction.Fee ? toMinorUnits(restriction.Fee.Amount.amount, currency) : 0n;
      return units > highest ? units : highest;
    }, 0n);
    const each = toMinorUnits(item.Price.TotalAmount.amount, currency) - fee;
    refunds[fareItemId(order, index)] = money(allowed ? each * BigInt(item.FareDetail.PaxRefID.length) : 0n);
  });
  order.Seats.forEach((seat, index) => {
    refunds[seatItemId(order, index)] = money(refundable.get(seat.PaxRefID) ? toMinorUnits(seat.UnitPrice.amount, currency) : 0n);
  });
  return refunds;
}

/** OrderReshopRS for a cancel: one offer deleting every item, with what each refunds. */
export function cancelQuote(order: NdcOrderDocument, refunds: Record<string, Amount>, expiresAt: Date) {
  return {
    Order: { OrderID: order.OrderID, OwnerCode: order.OwnerCode },
    ReshopResults: {
      ReshopOffers: [
        {
          OfferID: cancelOfferId(order),
          OwnerCode: order.OwnerCode,
          OfferExpirationTimeLimitDateTime: expiresAt.toISOString(),
          DeleteOrderItem: Object.entries(refunds).map(([id, amount]) => ({
            OrderItemRefID: id,
            PriceDifferential: { DifferentialTypeCode: 'Refund', DiffPrice: { DueByAirlineAmount: amount } },
          })),
        },
      ],
    },
  };
}

/**
 * One cancel offer per order *(invented: VS gives each quote a fresh id)*: two sellers cancelling at once
 * accept the same offer, and accepting it again answers the order it closed.
 */
export const cancelOfferId = (order: NdcOrderDocument) => `${order.OrderID}-CXL`;
