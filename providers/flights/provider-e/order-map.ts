/**
 * provider_e's checkout ↔ the port's orders: our passengers and contact as its prebook takes them, and
 * its prebooks and bookings as ProviderOrders. A prebook is the held order (its expiration is the payment
 * deadline); its booking replaces it, with the booking's id, the PNR and a ticket per passenger.
 */
import type { OrderCancellation, OrderPassenger, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import { toDecimalString } from '../../../core/money/money.js';
import { toUtcIso } from '../../../core/time.js';
import type { WireBooking, WirePrebook } from './wire.js';

const PASSENGER_TYPES = { adult: 'ADT', child: 'CHD', infant_without_seat: 'INF' } as const;
const GENDERS = { male: 'M', female: 'F' } as const;
/** Our document names → its; a passport is sent first where there is one (the fares ask for passports). */
const DOCUMENT_TYPES = { passport: 'PASSPORT', tax_id: 'TAX_ID', known_traveler_number: 'KNOWN_TRAVELER', passenger_redress_number: 'REDRESS' } as const;

/** The prebook's passengers: one per passenger of the offer, in the offer's order (it matches by position). */
export function nativePassengers(request: OrderRequest): Record<string, unknown>[] {
  const byId = new Map(request.passengers.map((passenger) => [passenger.providerPassengerId, passenger]));
  return request.offer.passengers.map((offered) => {
    const passenger = byId.get(offered.id);
    if (!passenger) throw new Error(`passenger ${offered.id} of the offer is missing from the order request`);
    return nativePassenger(passenger);
  });
}

function nativePassenger(passenger: OrderPassenger): Record<string, unknown> {
  const document = [...passenger.identityDocuments].sort((a, b) => Number(b.type === 'passport') - Number(a.type === 'passport'))[0];
  return {
    passengerRef: passenger.providerPassengerId,
    type: PASSENGER_TYPES[passenger.type],
    // Its passengers have no middle name field: it goes with the given names, as on the passport.
    firstName: passenger.middleName ? `${passenger.firstName} ${passenger.middleName}` : passenger.firstName,
    lastName: passenger.lastName,
    birthday: passenger.bornOn,
    ...(passenger.gender ? { gender: GENDERS[passenger.gender] } : {}),
    ...(passenger.email ? { email: passenger.email } : {}),
    ...(passenger.phoneNumber ? { phone: passenger.phoneNumber } : {}),
    ...(document
      ? { document: { type: DOCUMENT_TYPES[document.type], number: document.uniqueIdentifier, expiryDate: document.expiresOn, issuingCountry: document.issuingCountryCode } }
      : {}),
  };
}

export function nativeContact(contact: OrderRequest['contact']): Record<string, unknown> {
  return { firstName: contact.firstName, lastName: contact.lastName, email: contact.email, phone: contact.phoneNumber };
}

/** What the checkout costs now, as a decimal string. */
export function totalOf(pricing: WirePrebook['pricing']): string {
  return toDecimalString(pricing.display.total, pricing.display.currency, 'pricing.display.total');
}

function seatsOf(services: WirePrebook['selectedServices']): ProviderOrder['seats'] {
  return services
    .filter((service) => service.type === 'SEAT' && service.segmentRef && service.passengerRef && service.seatNumber)
    .map((service) => ({ segmentId: service.segmentRef as string, providerPassengerId: service.passengerRef as string, seatNumber: service.seatNumber as string }));
}

/** A prebook not (yet) booked: held until its expiration, or no longer payable once lapsed or cancelled. */
export function prebookOrder(prebook: WirePrebook): ProviderOrder {
  const held = prebook.status === 'PREBOOKED';
  return {
    orderId: prebook.prebookId,
    pnr: null,
    status: held ? 'held' : 'cancelled',
    amount: totalOf(prebook.pricing),
    currency: prebook.pricing.display.currency,
    tickets: [],
    seats: seatsOf(prebook.selectedServices),
    paymentRequiredBy: held ? toUtcIso(prebook.expiration) : null,
  };
}

export function bookingOrder(booking: WireBooking): ProviderOrder {
  return {
    orderId: booking.bookingId,
    pnr: booking.bookingRef,
    status: booking.status === 'CONFIRMED' ? 'confirmed' : 'cancelled',
    amount: totalOf(booking.pricing),
    currency: booking.pricing.display.currency,
    tickets: booking.passengers.flatMap((passenger) => (passenger.ticketNumber ? [{ providerPassengerId: passenger.passengerRef, ticketNumber: passenger.ticketNumber }] : [])),
    seats: seatsOf(booking.services),
    paymentRequiredBy: null,
  };
}

/** A cancelled booking or prebook: what came back to the partner's balance, if anything. */
export function cancellation(orderId: string, cancelledAt: string, refund: WireBooking['refund']): OrderCancellation {
  return {
    orderId,
    refundAmount: refund ? toDecimalString(refund.amount, refund.currency, 'refund.amount') : null,
    refundCurrency: refund ? refund.currency : null,
    cancelledAt: toUtcIso(cancelledAt),
  };
}
