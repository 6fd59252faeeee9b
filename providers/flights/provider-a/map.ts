/**
 * provider_a (Amadeus-like) native offer → the normalized Offer (providers.md §2):
 * - its `id` ("1") is unique only within one answer, so the offer's id is derived from its content;
 * - it carries no expiry: the offer lives OFFER_TTL_MINUTES from when we receive it, and never past its
 *   last ticketing date;
 * - one slice per itinerary; segment passengers from `travelerPricings[].fareDetailsBySegment`;
 * - the total is `grandTotal`: what the traveler pays, paid extras already chosen on the fare details
 *   (`price.additionalServices`, bags and seats) included; those bags show in the segment's baggages;
 * - tax = total − base − fees (the paid extras are not tax); emissions summed over segments;
 * - conditions and the fare summary from the fare's amenities (refundable, changeable, seats, priority),
 *   unknown (null) where the offer does not say. Detailed fare rules come with pricing.
 */
import { hash } from 'node:crypto';
import type { FareClassMetadata, Offer } from '../../../core/flights/offer-schemas.js';
import { subtract, toBoundedDecimalString } from '../../../core/money/money.js';
import { baggages, penaltySummary, withSeconds } from '../../../core/flights/normalizing.js';
import type { WireOffer, WirePricing } from './wire.js';

export const PROVIDER_ID = 'provider_a';
export const OFFER_TTL_MINUTES = 30;

type FareDetail = WireOffer['travelerPricings'][number]['fareDetailsBySegment'][number];

const CABINS = { ECONOMY: 'economy', PREMIUM_ECONOMY: 'premium_economy', BUSINESS: 'business', FIRST: 'first' } as const;
const TRAVELER_TYPES: Record<string, Offer['passengers'][number]['type']> = {
  ADULT: 'adult',
  SENIOR: 'adult',
  YOUNG: 'adult',
  STUDENT: 'adult',
  CHILD: 'child',
  // A seated infant has a seat of their own: the normalized types know only the lap infant apart.
  SEATED_INFANT: 'child',
  HELD_INFANT: 'infant_without_seat',
};

/** A stable id from the offer's content: the same offer always gets the same one. */
export function offerIdOf(native: WireOffer): string {
  const flights = native.itineraries.flatMap((itinerary) => itinerary.segments.map((segment) => `${segment.carrierCode}${segment.number}@${segment.departure.at}`));
  const digest = hash('sha256', JSON.stringify(native), 'base64url').slice(0, 16);
  return `${flights.join('+')}~${digest}`;
}

export function toOffer(native: WireOffer, now: Date): Offer {
  const currency = native.price.currency;
  const fees = (native.price.fees ?? []).map((fee) => fee.amount);
  const details = new Map<string, FareDetail>();
  for (const traveler of native.travelerPricings) for (const detail of traveler.fareDetailsBySegment) if (!details.has(detail.segmentId)) details.set(detail.segmentId, detail);
  const firstDetail = native.travelerPricings[0]?.fareDetailsBySegment[0] as FareDetail;
  const refundable = amenityOf(firstDetail, 'REFUNDABLE TICKET');
  const changeable = amenityOf(firstDetail, 'CHANGEABLE TICKET');
  const conditions = {
    refund_before_departure: refundable ? { allowed: true, penalty_amount: null, penalty_currency: null } : null,
    change_before_departure: changeable ? { allowed: true, penalty_amount: null, penalty_currency: null } : null,
  };
  const emissions = native.itineraries.flatMap((itinerary) => itinerary.segments).flatMap((segment) => segment.co2Emissions ?? []);
  const lastTicket = lastTicketing(native);

  // Private fares, when there are any, are added in their place in the Offer's field order, not spread into
  // the middle of the literal: V8 then defines every later field the slow way.
  const offer: Offer = {
    id: offerIdOf(native),
    provider_id: PROVIDER_ID,
    expires_at: expiresAt(lastTicket, now),
    total_amount: toBoundedDecimalString(native.price.grandTotal, currency, 'price.grandTotal'),
    total_currency: currency,
    base_amount: toBoundedDecimalString(native.price.base, currency, 'price.base'),
    base_currency: currency,
    // grandTotal adds paid extras (bags, seats) to total: those are not tax.
    tax_amount: subtract(currency, toBoundedDecimalString(native.price.total, currency, 'price.total'), native.price.base, ...fees),
    tax_currency: currency,
    total_emissions_kg: emissions.length > 0 ? String(emissions.reduce((sum, item) => sum + item.weight, 0)) : null,
    // Whether documents are needed is known after pricing (bookingRequirements).
    passenger_identity_documents_required: false,
    supported_passenger_identity_document_types: ['passport', 'identity_card', 'known_traveler_number', 'passenger_redress_number', 'visa'],
    supported_loyalty_programmes: [native.validatingAirlineCodes[0] as string],
    owner: { iata_code: native.validatingAirlineCodes[0] as string },
    passengers: native.travelerPricings.map((traveler) => ({ id: traveler.travelerId, type: TRAVELER_TYPES[traveler.travelerType] ?? 'adult', age: null })),
    slices: native.itineraries.map((itinerary, index) => {
      const first = itinerary.segments[0] as WireOffer['itineraries'][number]['segments'][number];
      const last = itinerary.segments.at(-1) as typeof first;
      // Each slice by its own fare: a return may be sold on another one.
      const fare = details.get(first.id);
      const brand = fare?.brandedFareLabel ?? fare?.brandedFare ?? null;
      return {
        id: `${index + 1}`,
        origin: { iata_code: first.departure.iataCode, terminal: first.departure.terminal ?? null },
        destination: { iata_code: last.arrival.iataCode, terminal: last.arrival.terminal ?? null },
        duration: itinerary.duration ?? null,
        fare_brand_name: brand,
        conditions: {
          change_before_departure: amenityOf(fare, 'CHANGEABLE TICKET') ? { allowed: true, penalty_amount: null, penalty_currency: null } : null,
          advance_seat_selection: fare?.amenities?.some((item) => item.amenityType === 'PRE_RESERVED_SEAT') ? true : null,
          priority_boarding: amenityOf(fare, 'PRIORITY BOARDING') ? true : null,
          priority_check_in: null,
        },
        segments: itinerary.segments.map((segment) => ({
          id: segment.id,
          origin: { iata_code: segment.departure.iataCode, terminal: segment.departure.terminal ?? null },
          destination: { iata_code: segment.arrival.iataCode, terminal: segment.arrival.terminal ?? null },
          departing_at: withSeconds(segment.departure.at),
          arriving_at: withSeconds(segment.arrival.at),
          duration: segment.duration ?? null,
          marketing_carrier: { iata_code: segment.carrierCode },
          marketing_carrier_flight_number: segment.number,
          operating_carrier: { iata_code: segment.operating?.carrierCode ?? segment.carrierCode },
          operating_carrier_flight_number: null,
          aircraft: segment.aircraft ? { iata_code: segment.aircraft.code } : null,
          passengers: native.travelerPricings.flatMap((traveler) => {
            const detail = traveler.fareDetailsBySegment.find((item) => item.segmentId === segment.id);
            if (!detail) return [];
            return [
              {
                passenger_id: traveler.travelerId,
                cabin_class: CABINS[detail.cabin],
                fare_basis_code: detail.fareBasis ?? null,
                fare_brand_name: detail.brandedFareLabel ?? detail.brandedFare ?? null,
                baggages: baggages(checkedBags(detail), bagCount(detail.includedCabinBags)),
              },
            ];
          }),
        })),
      };
    }),
    conditions,
    payment_requirements: {
      requires_instant_payment: native.instantTicketingRequired ?? false,
      payment_required_by: lastTicket?.toISOString() ?? null,
      price_guarantee_expires_at: null,
    },
  };
  const privateFares = privateFaresOf(native);
  if (privateFares.length > 0) offer.private_fares = privateFares;
  offer.fare_class_metadata = fareClassMetadata(firstDetail, conditions);
  offer.raw_offer = native as Record<string, unknown>;
  return offer;
}

/** The amenity of exactly this description ("NON REFUNDABLE TICKET" is not "REFUNDABLE TICKET"). */
function amenityOf(detail: FareDetail | undefined, description: string) {
  return detail?.amenities?.find((item) => item.description.trim().toUpperCase() === description);
}

/** A weight allowance without a count is one bag. */
function bagCount(bags: FareDetail['includedCheckedBags']): number {
  if (!bags) return 0;
  return bags.quantity ?? (bags.weight ? 1 : 0);
}

/** The checked bags the traveler flies with: the fare's own and the paid ones already chosen (in grandTotal). */
function checkedBags(detail: FareDetail): number {
  return bagCount(detail.includedCheckedBags) + (detail.additionalServices?.chargeableCheckedBags?.quantity ?? 0);
}

function fareClassMetadata(detail: FareDetail, conditions: { refund_before_departure: unknown; change_before_departure: unknown }): FareClassMetadata {
  const amenities = detail.amenities ?? [];
  const seat = amenities.find((item) => item.amenityType === 'PRE_RESERVED_SEAT');
  const priority = amenityOf(detail, 'PRIORITY BOARDING')?.isChargeable === false;
  const checked = bagCount(detail.includedCheckedBags);
  return {
    seat_selection_allowed: seat !== undefined,
    // A chargeable seat's price comes from the seat map.
    seat_selection_fee: null,
    seat_selection_currency: null,
    extra_legroom: amenities.some((item) => /LEGROOM/i.test(item.description) && !item.isChargeable),
    carry_on_bags: bagCount(detail.includedCabinBags),
    checked_bags: checked,
    checked_bags_paid: checked === 0 && amenities.some((item) => item.amenityType === 'BAGGAGE' && item.isChargeable),
    changes_allowed: conditions.change_before_departure !== null,
    change_penalty_amount: null,
    change_penalty_currency: null,
    refunds_allowed: conditions.refund_before_departure !== null,
    refund_penalty_amount: null,
    refund_penalty_currency: null,
    boarding_priority: priority ? 'priority' : 'standard',
  };
}

/** The negotiated and corporate fare types, as private fares (none for a public fare). */
function privateFaresOf(native: WireOffer): NonNullable<Offer['private_fares']> {
  const types = (native.pricingOptions?.fareType ?? []).filter((type) => type === 'NEGOTIATED' || type === 'CORPORATE');
  return types.map((type) => ({ tracking_reference: type }));
}

/** The last moment to ticket: the given date-time (local to the seller; read as UTC), or the date's end. */
function lastTicketing(native: WireOffer): Date | undefined {
  if (native.lastTicketingDateTime) return new Date(`${native.lastTicketingDateTime.slice(0, 19)}Z`);
  if (native.lastTicketingDate) return new Date(`${native.lastTicketingDate}T23:59:59Z`);
  return undefined;
}

/** OFFER_TTL_MINUTES from `now`, but never past the last moment to ticket (`cap`). */
function expiresAt(cap: Date | undefined, now: Date): string {
  const ttl = new Date(now.getTime() + OFFER_TTL_MINUTES * 60 * 1000);
  return (cap && cap < ttl ? cap : ttl).toISOString();
}

/**
 * A priced offer: the offer as priced, plus what only pricing tells (providers.md §2): the bags on sale
 * (`included.bags`), the refund and exchange rules with their penalties, and whether documents are needed.
 */
export function toPricedOffer(pricing: WirePricing, now: Date): Offer {
  const native = pricing.data.flightOffers[0] as WireOffer;
  const offer = toOffer(native, now);
  const currency = offer.total_currency;
  const rules = Object.values(pricing.included?.['detailed-fare-rules'] ?? {}).flatMap((entry) => entry.rules ?? []);
  const rule = (category: 'REFUND' | 'EXCHANGE') => {
    const found = rules.filter((item) => item.category === category);
    if (found.length === 0) return undefined;
    if (found.some((item) => item.notApplicable)) return { allowed: false, penalty_amount: null, penalty_currency: null };
    const penalties = found.map((item) => item.maxPenaltyAmount).filter((amount): amount is string => amount !== undefined);
    const highest = penalties.sort((a, b) => Number(b) - Number(a))[0];
    return { allowed: true, penalty_amount: highest ? toBoundedDecimalString(highest, currency, 'included.detailed-fare-rules.rules.maxPenaltyAmount') : null, penalty_currency: highest ? currency : null };
  };
  const refund = rule('REFUND') ?? offer.conditions.refund_before_departure ?? null;
  const change = rule('EXCHANGE') ?? offer.conditions.change_before_departure ?? null;
  const bags = Object.entries(pricing.included?.bags ?? {}).map(([key, bag]) => ({
    id: `bag-${key}`,
    type: 'baggage' as const,
    name: bag.name === 'CHECKED_BAG' ? 'Checked bag' : bag.name,
    total_amount: toBoundedDecimalString(bag.price.amount, bag.price.currencyCode, `included.bags.${key}.price.amount`),
    total_currency: bag.price.currencyCode,
    segment_ids: bag.segmentIds,
    passenger_ids: bag.travelerIds,
    maximum_quantity: bag.quantity,
  }));
  const documents = pricing.data.bookingRequirements?.travelerRequirements?.some((item) => item.documentRequired) ?? false;
  return {
    ...offer,
    conditions: { refund_before_departure: refund, change_before_departure: change },
    slices: offer.slices.map((slice) => ({ ...slice, conditions: { ...slice.conditions, change_before_departure: change } })),
    passenger_identity_documents_required: documents,
    ...(bags.length > 0 ? { available_services: bags } : {}),
    fare_class_metadata: offer.fare_class_metadata && { ...offer.fare_class_metadata, ...penaltySummary(refund, change) },
  };
}
