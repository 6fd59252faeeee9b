/**
 * Our OrderRequest in provider_a's words: the flight-order body (the priced offer carrying each chosen seat
 * and bag on its traveler, the travelers by their `travelerId`, the contact) and the form of payment.
 */
import { ProviderRejectedError } from '../../../core/errors.js';
import type { OrderPassenger, OrderRequest } from '../../../core/flights/flight-provider.js';
import { PROVIDER_ID } from './map.js';

/** How long an unpaid hold is kept before the airline cancels it (its usual DELAY_TO_CANCEL). */
export const HOLD_DELAY = '6D';

type Detail = { segmentId: string; additionalServices?: Record<string, unknown> };
type Pricing = { travelerId: string; travelerType?: string; fareDetailsBySegment: Detail[] };

export function orderBody(request: OrderRequest): Record<string, unknown> {
  const offer = withExtras(request);
  return {
    data: {
      type: 'flight-order',
      flightOffers: [offer],
      travelers: request.passengers.map(traveler),
      contacts: [
        {
          addresseeName: { firstName: request.contact.firstName, lastName: request.contact.lastName },
          purpose: 'STANDARD',
          emailAddress: request.contact.email,
          phones: [phone(request.contact.phoneNumber)],
        },
      ],
      ticketingAgreement: request.type === 'hold' ? { option: 'DELAY_TO_CANCEL', delay: HOLD_DELAY } : { option: 'CONFIRM' },
      ...(request.type === 'hold' ? {} : { formOfPayments: formOfPayments(request.amount, request.currency, String(offer.id ?? '1')) }),
    },
  };
}

/** The partner's balance pays `amount`: the sandbox's balance form of payment (invented, see the sandbox). */
export function formOfPayments(amount: string, currency: string, flightOfferId = '1') {
  return [{ other: { method: 'ACCOUNT', flightOfferIds: [flightOfferId], amount, currencyCode: currency } }];
}

/**
 * The offer as stored, with each chosen seat as its traveler's `chargeableSeatNumber` on that segment (not
 * where the offer came with one chosen: that one is in its grandTotal already), and
 * each chosen bag option as `chargeableCheckedBags` of one traveler more (on every segment: its bags are
 * sold for the whole itinerary), in the order of the option's passengers.
 */
function withExtras(request: OrderRequest): Record<string, unknown> & { id?: unknown } {
  const offer = structuredClone(request.raw) as Record<string, unknown> & { travelerPricings?: Pricing[] };
  const pricings = offer.travelerPricings ?? [];
  const detail = (travelerId: string, segmentId: string) => pricings.find((item) => item.travelerId === travelerId)?.fareDetailsBySegment.find((item) => item.segmentId === segmentId);
  for (const seat of request.seats) {
    const found = detail(seat.providerPassengerId, seat.segmentId);
    // A seat already chosen on the offer is paid in its total: another one is not sold on top of it.
    if (!found || found.additionalServices?.chargeableSeatNumber !== undefined) throw notOnSale();
    found.additionalServices = { ...found.additionalServices, chargeableSeatNumber: seat.seatNumber };
  }
  for (const chosen of request.services) {
    const service = request.offer.available_services?.find((item) => item.id === chosen.id);
    if (!service || service.type !== 'baggage') throw notOnSale();
    const takers = service.passenger_ids
      .map((id) => pricings.find((item) => item.travelerId === id))
      .filter((item): item is Pricing => item !== undefined && item.travelerType !== 'HELD_INFANT' && !item.fareDetailsBySegment.some((each) => each.additionalServices?.chargeableCheckedBags));
    if (takers.length < chosen.quantity) throw notOnSale();
    for (const taker of takers.slice(0, chosen.quantity)) {
      for (const each of taker.fareDetailsBySegment) each.additionalServices = { ...each.additionalServices, chargeableCheckedBags: { quantity: service.maximum_quantity } };
    }
  }
  return offer;
}

const DOCUMENT_TYPES: Record<string, string | undefined> = { passport: 'PASSPORT', known_traveler_number: 'KNOWN_TRAVELER', passenger_redress_number: 'REDRESS' };

function traveler(passenger: OrderPassenger) {
  const documents = passenger.identityDocuments.flatMap((document) => {
    const documentType = DOCUMENT_TYPES[document.type];
    // It has no document type for a tax id: the airline does not take one.
    if (!documentType) return [];
    return [{ documentType, number: document.uniqueIdentifier, expiryDate: document.expiresOn, issuanceCountry: document.issuingCountryCode, nationality: document.issuingCountryCode, holder: true }];
  });
  if (passenger.knownTravelerNumber && !documents.some((document) => document.documentType === 'KNOWN_TRAVELER')) {
    documents.push({ documentType: 'KNOWN_TRAVELER', number: passenger.knownTravelerNumber } as (typeof documents)[number]);
  }
  const contact = {
    ...(passenger.email ? { emailAddress: passenger.email } : {}),
    ...(passenger.phoneNumber ? { phones: [phone(passenger.phoneNumber)] } : {}),
  };
  return {
    id: passenger.providerPassengerId,
    dateOfBirth: passenger.bornOn,
    ...(passenger.gender ? { gender: passenger.gender.toUpperCase() } : {}),
    name: { firstName: passenger.firstName, lastName: passenger.lastName, ...(passenger.middleName ? { middleName: passenger.middleName } : {}) },
    ...(Object.keys(contact).length > 0 ? { contact } : {}),
    ...(documents.length > 0 ? { documents } : {}),
  };
}

/**
 * An E.164 number as its country calling code and the rest. Calling codes are prefix-free: 1 and 7 are one
 * digit, these two-digit ones are listed, and every other code has three digits.
 */
export function phone(e164: string): { deviceType: 'MOBILE'; countryCallingCode: string; number: string } {
  const digits = e164.replace(/^\+/, '');
  const twoDigit = /^(2[07]|3[0-469]|4[013-9]|5[1-8]|6[0-6]|8[1246]|9[0-58])/;
  const length = /^[17]/.test(digits) ? 1 : twoDigit.test(digits) ? 2 : 3;
  return { deviceType: 'MOBILE', countryCallingCode: digits.slice(0, length), number: digits.slice(length) };
}

/** A seat or bag the airline does not sell (38034 ONE OR MORE SERVICES ARE NOT AVAILABLE, or one we cannot place). */
export function notOnSale(): ProviderRejectedError {
  return new ProviderRejectedError(
    'A chosen seat or bag is not on sale for this offer: choose again from its seat maps and available services.',
    'service_unavailable',
    `${PROVIDER_ID}: seat or service not available`,
  );
}
