/**
 * provider_c's OrderViewRS → our ProviderOrder and OrderCancellation. OPENED with TicketDocInfo is paid
 * (confirmed), OPENED without is a hold, CLOSED is cancelled; a cancelled item's refund is its
 * PriceDifferential's DueByAirlineAmount.
 */
import type { OrderCancellation, ProviderOrder } from '../../../core/flights/flight-provider.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import { toUtcIso } from '../../../core/time.js';
import { failures } from './ndc-failures.js';
import type { WireOrderView } from './wire.js';

export function toProviderOrder(view: WireOrderView): ProviderOrder {
  return failures.map(() => {
    const order = view.Order;
    const total = order.TotalPrice.TotalAmount;
    const services = order.OrderItem.flatMap((item) => item.Service);
    const status = order.StatusCode === 'CLOSED' ? 'cancelled' : (view.TicketDocInfo ?? []).length > 0 ? 'confirmed' : 'held';
    return {
      orderId: order.OrderID,
      pnr: services.find((service) => service.BookingRef)?.BookingRef?.BookingID ?? null,
      status,
      amount: toDecimalString(total.amount, total.curCode, 'Order.TotalPrice'),
      currency: total.curCode,
      tickets: (view.TicketDocInfo ?? []).map((info) => ({ providerPassengerId: info.PaxRefID, ticketNumber: info.TicketDocument[0]?.TicketDocNbr as string })),
      seats: services
        .filter((service) => service.SeatAssignment && service.StatusCode !== 'CANCELLED')
        .map((service) => ({
          segmentId: service.SeatAssignment?.PaxSegmentRefID as string,
          providerPassengerId: service.PaxRefID,
          seatNumber: `${service.SeatAssignment?.Seat.RowNumber}${service.SeatAssignment?.Seat.ColumnID}`,
        })),
      paymentRequiredBy: status === 'held' && order.PaymentTimeLimitDateTime ? toUtcIso(order.PaymentTimeLimitDateTime) : null,
    };
  });
}

/** The cancellation a CLOSED order records; an order still open after AcceptCancelledOffer is the airline's failure. */
export function toCancellation(view: WireOrderView): OrderCancellation {
  const order = view.Order;
  if (order.StatusCode !== 'CLOSED' || !order.CancellationDateTime) throw failures.unavailable();
  return failures.map(() => {
    const currency = order.TotalPrice.TotalAmount.curCode;
    const refunded = order.OrderItem.reduce((sum, item) => {
      const due = item.PriceDifferential?.DiffPrice.DueByAirlineAmount;
      return due ? sum + toMinorUnits(toDecimalString(due.amount, due.curCode, 'PriceDifferential'), currency) : sum;
    }, 0n);
    return {
      orderId: order.OrderID,
      refundAmount: refunded > 0n ? fromMinorUnits(refunded, currency) : null,
      refundCurrency: refunded > 0n ? currency : null,
      cancelledAt: toUtcIso(order.CancellationDateTime as string),
    };
  });
}
