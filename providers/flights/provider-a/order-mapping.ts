/**
 * provider_a's flight order → our ProviderOrder and OrderCancellation. Ticketed orders carry e-tickets;
 * held ones a DELAY_TO_CANCEL agreement saying when the airline cancels them unpaid.
 */
import type { OrderCancellation, ProviderOrder } from '../../../core/flights/flight-provider.js';
import { toDecimalString } from '../../../core/money/money.js';
import type { WireOrder } from './wire.js';

const DAY_MS = 86_400_000;

export function toProviderOrder(native: WireOrder): ProviderOrder {
  const order = native.data;
  const offer = order.flightOffers[0] as WireOrder['data']['flightOffers'][number];
  const currency = offer.price.currency;
  const status = order.cancellation ? 'cancelled' : order.tickets.length > 0 ? 'confirmed' : 'held';
  return {
    orderId: order.id,
    pnr: order.associatedRecords[0]?.reference ?? null,
    status,
    amount: toDecimalString(offer.price.grandTotal, currency, 'price.grandTotal'),
    currency,
    tickets: order.tickets.map((ticket) => ({ providerPassengerId: ticket.travelerId, ticketNumber: ticket.documentNumber })),
    seats: offer.travelerPricings.flatMap((traveler) =>
      traveler.fareDetailsBySegment.flatMap((detail) => {
        const seatNumber = detail.additionalServices?.chargeableSeatNumber;
        return seatNumber ? [{ segmentId: detail.segmentId, providerPassengerId: traveler.travelerId, seatNumber }] : [];
      }),
    ),
    paymentRequiredBy: status === 'held' ? holdDeadline(order) : null,
  };
}

/** What a cancelled order says it refunded; undefined while it is not cancelled. */
export function toCancellation(native: WireOrder): OrderCancellation | undefined {
  const { id, cancellation } = native.data;
  if (!cancellation) return undefined;
  const refund = cancellation.refund;
  return {
    orderId: id,
    refundAmount: refund ? toDecimalString(refund.amount, refund.currencyCode, 'cancellation.refund.amount') : null,
    refundCurrency: refund?.currencyCode ?? null,
    cancelledAt: new Date(cancellation.dateTime).toISOString(),
  };
}

/**
 * When an unpaid hold is cancelled: the agreement's date-time where given, else its creation plus the
 * delay in days (Amadeus' datetimes are local without offset; read as UTC, the sandbox's clock).
 */
function holdDeadline(order: WireOrder['data']): string | null {
  const agreement = order.ticketingAgreement;
  if (agreement?.option !== 'DELAY_TO_CANCEL') return null;
  if (agreement.dateTime) return new Date(agreement.dateTime).toISOString();
  const created = order.associatedRecords[0]?.creationDateTime;
  const days = /^(\d+)D$/.exec(agreement.delay ?? '');
  if (!created || !days) return null;
  return new Date(Date.parse(`${created.slice(0, 19)}Z`) + Number(days[1]) * DAY_MS).toISOString();
}
