/** Prebooks and bookings as provider_e's sandbox answers them: its stored documents, less what it keeps to itself. */
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import type { Display } from './sandbox-catalogue.js';
import type { BookingDocument, PrebookDocument, SelectedService } from './sandbox-store.js';

/** A prebook not booked by its expiration has lapsed: it reads EXPIRED (and can no longer be booked). */
export function lapsed(prebook: PrebookDocument, now: Date): boolean {
  return prebook.status === 'PREBOOKED' && Date.parse(prebook.expiration) <= now.getTime();
}

export function prebookView(prebook: PrebookDocument, now: Date) {
  const { kind: _kind, offer, fare: _fare, contact: _contact, passengers: _passengers, changes, secretKey, ...shown } = prebook;
  return {
    ...shown,
    status: lapsed(prebook, now) ? 'EXPIRED' : prebook.status,
    ...(secretKey ? { secretKey } : {}),
    ...(changes ? { changes } : {}),
    // Bags and meals can still be attached; seats are attached from the seat maps.
    servicesAttachable: (offer.servicesAttachable ?? []).filter((service) => service.type !== 'SEAT'),
  };
}

export function bookingView(booking: BookingDocument) {
  const { kind: _kind, ...shown } = booking;
  return shown;
}

/** The fare plus the services, in minor units (never in floating point). */
export function priced(fare: Display, services: SelectedService[]): Display {
  const currency = fare.currency;
  const extra = services.reduce((sum, service) => sum + toMinorUnits(service.price.amount, currency) * BigInt(service.quantity), 0n);
  if (services.length === 0) return fare;
  return { ...fare, total: Number(fromMinorUnits(toMinorUnits(fare.total, currency) + extra, currency)), services: Number(fromMinorUnits(extra, currency)) };
}

/**
 * What cancelling a booking refunds to the partner's balance (invented: provider_e documents no cancel):
 * nothing on a non-refundable fare; otherwise what was paid less the fare's refund penalty, nothing if
 * the penalty takes it all.
 */
export function refundOf(booking: BookingDocument): BookingDocument['refund'] {
  if (!booking.fareRules.refundable) return null;
  const currency = booking.pricing.display.currency;
  const penalty = booking.fareRules.refundPenalty;
  const kept = penalty && penalty.currency === currency ? toMinorUnits(penalty.amount, currency) : 0n;
  const refund = toMinorUnits(booking.pricing.display.total, currency) - kept;
  return refund > 0n ? { amount: Number(fromMinorUnits(refund, currency)), currency } : null;
}
