/**
 * provider_d's booking → our ProviderOrder: its total in the booking's currency (the searched one, under
 * `conversion`; EUR is its own `total`), held until confirm_payment within the payment deadline. It
 * gives no ticket numbers and sells no seats.
 */
import type { OrderCancellation, ProviderOrder } from '../../../core/flights/flight-provider.js';
import { toDecimalString } from '../../../core/money/money.js';
import type { WireBooking, WireCancellation } from './wire.js';
import type { z } from 'zod';

const STATUSES = { CONFIRMATION_PENDING: 'held', CONFIRMED: 'confirmed', CANCELLED: 'cancelled' } as const;

export function toProviderOrder(booking: WireBooking): ProviderOrder {
  const status = STATUSES[booking.status];
  const { currency, amount } = booking.conversion;
  return {
    orderId: String(booking.booking_id),
    pnr: booking.pnr ?? null,
    status,
    amount: toDecimalString(amount, currency, 'conversion.amount'),
    currency,
    tickets: [],
    seats: [],
    paymentRequiredBy: status === 'held' ? booking.payment_deadline : null,
  };
}

export function toCancellation(answer: z.infer<typeof WireCancellation>): OrderCancellation {
  const refund = answer.refund?.conversion;
  return {
    orderId: String(answer.booking_id),
    refundAmount: refund ? toDecimalString(refund.amount, refund.currency, 'refund.conversion.amount') : null,
    refundCurrency: refund ? refund.currency : null,
    cancelledAt: answer.cancelled_at,
  };
}
