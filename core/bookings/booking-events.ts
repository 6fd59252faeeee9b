/**
 * What a booking tells its partner (decisions §14): the event a step causes, written with the step, and
 * the jobs a hold at rest needs, its warning two hours ahead and its lapse at the provider's deadline.
 * A booking an agent made through the tools has no partner and no event.
 */
import type { JobRequest } from '../jobs.js';
import type { BookingEventData, WebhookEventType } from '../webhooks/schemas.js';
import { presentBooking, presentCancellation } from './present.js';
import type { BookingRow } from './store.js';

/** A hold's cancellation reason when its deadline passed unpaid. */
export const HOLD_LAPSED = 'hold_lapsed';
export const HOLD_EXPIRING_JOB = 'booking-hold-expiring';
export const HOLD_LAPSE_JOB = 'booking-hold-lapse';
/** How long before a hold's deadline its partner is warned. */
export const HOLD_WARNING_MS = 2 * 60 * 60 * 1000;

/** The event of a step that takes `before` to `after`, if it makes one. */
export function bookingEventOf(before: BookingRow, after: BookingRow): WebhookEventType | undefined {
  if (!after.partner_id || after.status === before.status) return undefined;
  if (after.status === 'confirmed') return 'booking.confirmed';
  if (after.status === 'failed') return 'booking.failed';
  if (after.status === 'cancelled') return after.cancellation_reason === HOLD_LAPSED ? 'booking.hold_expired' : 'booking.cancelled';
  return undefined;
}

/** The jobs of a hold the step leaves at rest, awaiting payment until its deadline. */
export function holdJobsOf(before: BookingRow, after: BookingRow, now: Date): JobRequest[] {
  const resting = after.order_type === 'hold' && after.status === 'booking_created' && !after.confirm_requested && before.status !== 'booking_created';
  if (!resting || !after.payment_required_by) return [];
  const deadline = new Date(after.payment_required_by);
  const jobs: JobRequest[] = [{ name: HOLD_LAPSE_JOB, data: { booking_id: after.id }, startAfter: deadline }];
  if (after.partner_id) {
    const warning = new Date(Math.max(now.getTime(), deadline.getTime() - HOLD_WARNING_MS));
    jobs.push({ name: HOLD_EXPIRING_JOB, data: { booking_id: after.id }, startAfter: warning });
  }
  return jobs;
}

/** The booking's public fields as events carry them: never the card's details or a passenger's documents. */
export function bookingEventData(row: BookingRow): BookingEventData {
  const { card_brand: _brand, card_last4: _last4, ...booking } = presentBooking(row);
  return {
    booking,
    metadata: row.metadata,
    failure: row.status === 'failed' && row.failure ? failureOf(row.failure) : null,
    cancellation: row.status === 'cancelled' ? cancellationOf(row) : null,
  };
}

function cancellationOf(row: BookingRow): BookingEventData['cancellation'] {
  const { reason, refund_amount, refund_currency, cancelled_at } = presentCancellation(row);
  return { reason, refund_amount, refund_currency, cancelled_at };
}

/** A step writes the failure as JSON text; a row read back has it parsed. */
function failureOf(failure: BookingRow['failure'] | string): { code: string; message: string } {
  const { code, message } = typeof failure === 'string' ? (JSON.parse(failure) as { code: string; message: string }) : (failure as { code: string; message: string });
  return { code, message };
}
