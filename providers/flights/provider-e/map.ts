/**
 * provider_e (LiteAPI-like) native offer → the normalized Offer (providers.md §2, column e):
 * - id and expiry are `offerId` and `expiration`; the price is the verify's `pricing.display` (total,
 *   base, taxes), JSON numbers put in their currency's minor units (rounded half away from zero, as
 *   money.ts reads floats);
 * - one slice per journey, one segment per leg, every passenger on every leg with the leg's cabin, fare
 *   and bag allowance (provider_e states one allowance per leg, the same for every passenger); the owner
 *   is the validating carrier;
 * - conditions from `fareRules`; seat selection and priority from `fareFeatures` (null when unstated);
 * - bags and meals of `servicesAttachable` become available services (seats are in the seat maps);
 * - payment is instant (the booking call pays); no loyalty programmes are taken; it has no private
 *   fares, so `private_fares` is omitted (the Offer omits it when none apply).
 */
import { baggages, checkedUtcIso, fareSummary, withSeconds } from '../../../core/flights/normalizing.js';
import type { AvailableService, FareClassMetadata, Offer } from '../../../core/flights/offer-schemas.js';
import { toBoundedDecimalString } from '../../../core/money/money.js';
import type { WireLeg, WireOffer, WireService } from './wire.js';

export const PROVIDER_ID = 'provider_e';

const PASSENGER_TYPES = { ADT: 'adult', CHD: 'child', INF: 'infant_without_seat' } as const;
const CABINS = { ECONOMY: 'economy', PREMIUM_ECONOMY: 'premium_economy', BUSINESS: 'business', FIRST: 'first' } as const;
/** Its document names → ours; any other is passed on in lower case. */
const DOCUMENT_TYPES: Record<string, string> = {
  PASSPORT: 'passport',
  ID_CARD: 'identity_card',
  KNOWN_TRAVELER: 'known_traveler_number',
  REDRESS: 'passenger_redress_number',
  VISA: 'visa',
};

type Penalty = { allowed: boolean; penalty_amount: string | null; penalty_currency: string | null };

export function toOffer(native: WireOffer): Offer {
  const display = native.pricing.display;
  const currency = display.currency;
  const optional = (amount: number | null | undefined, field: string) => (amount != null ? toBoundedDecimalString(amount, currency, field) : null);
  const base = optional(display.base, 'pricing.display.base');
  const tax = optional(display.taxes, 'pricing.display.taxes');
  const conditions = {
    refund_before_departure: penalty(native.fareRules.refundable, native.fareRules.refundPenalty, 'fareRules.refundPenalty.amount'),
    change_before_departure: penalty(native.fareRules.changeable, native.fareRules.changePenalty, 'fareRules.changePenalty.amount'),
  };
  const features = native.fareFeatures ?? {};
  const passengerIds = native.passengers.map((passenger) => passenger.passengerRef);
  const segmentIds = native.journeys.flatMap((journey) => journey.legs.map((leg) => leg.segmentRef));
  const services = (native.servicesAttachable ?? [])
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => item.type !== 'SEAT')
    .map(({ item, index }) => service(item, index, segmentIds, passengerIds));

  // Fields that may be absent are added in their place in the Offer's field order, never spread into the
  // middle of a literal: V8 then defines every later field the slow way (microseconds an offer).
  const offer: Offer = {
    id: native.offerId,
    provider_id: PROVIDER_ID,
    expires_at: checkedUtcIso(native.expiration),
    total_amount: toBoundedDecimalString(display.total, currency, 'pricing.display.total'),
    total_currency: currency,
    base_amount: base,
    base_currency: base !== null ? currency : null,
    tax_amount: tax,
    tax_currency: tax !== null ? currency : null,
    total_emissions_kg: null,
    passenger_identity_documents_required: native.requirements.documentRequired,
    supported_passenger_identity_document_types: native.requirements.documentTypes.map((type) => DOCUMENT_TYPES[type] ?? type.toLowerCase()),
    // Its bookings take no frequent-flyer numbers.
    supported_loyalty_programmes: [],
    owner: carrier(native.validatingCarrier),
    passengers: native.passengers.map((passenger) => ({ id: passenger.passengerRef, type: PASSENGER_TYPES[passenger.type], age: passenger.age ?? null })),
    slices: native.journeys.map((journey) => {
      const first = journey.legs[0] as WireLeg;
      const last = journey.legs.at(-1) as WireLeg;
      return {
        id: journey.journeyRef,
        origin: airport(first.origin),
        destination: airport(last.destination),
        // A one-leg journey lasts as long as its leg.
        duration: journey.duration ?? (journey.legs.length === 1 ? (first.duration ?? null) : null),
        fare_brand_name: first.fareFamily ?? null,
        conditions: {
          change_before_departure: conditions.change_before_departure,
          advance_seat_selection: features.seatSelection ?? null,
          priority_boarding: features.priorityBoarding ?? null,
          priority_check_in: features.priorityCheckIn ?? null,
        },
        segments: journey.legs.map((leg) => ({
          id: leg.segmentRef,
          origin: airport(leg.origin, leg.origin.terminal ?? null),
          destination: airport(leg.destination, leg.destination.terminal ?? null),
          departing_at: withSeconds(leg.departure),
          arriving_at: withSeconds(leg.arrival),
          duration: leg.duration ?? null,
          marketing_carrier: carrier(leg.carrier),
          marketing_carrier_flight_number: leg.flightNumber,
          operating_carrier: carrier(leg.operatingCarrier),
          operating_carrier_flight_number: leg.operatingCarrier.flightNumber ?? null,
          aircraft: leg.aircraft ? carrier(leg.aircraft) : null,
          passengers: native.passengers.map((passenger) => {
            const fareBasisCode = leg.fareBasis ?? null;
            const brand = leg.fareFamily ?? null;
            const bags = baggages(leg.baggage.checked?.pieces ?? 0, leg.baggage.carryOn?.pieces ?? 0);
            return leg.cabinName
              ? { passenger_id: passenger.passengerRef, cabin_class: CABINS[leg.cabin], cabin_class_marketing_name: leg.cabinName, fare_basis_code: fareBasisCode, fare_brand_name: brand, baggages: bags }
              : { passenger_id: passenger.passengerRef, cabin_class: CABINS[leg.cabin], fare_basis_code: fareBasisCode, fare_brand_name: brand, baggages: bags };
          }),
        })),
      };
    }),
    conditions,
    // Checkout-only: the booking call itself pays, so nothing is held for later payment.
    payment_requirements: { requires_instant_payment: true, payment_required_by: null, price_guarantee_expires_at: null },
  };
  if (services.length > 0) offer.available_services = services;
  offer.fare_class_metadata = fareClassMetadata(native, services, conditions);
  offer.raw_offer = native as Record<string, unknown>;
  return offer;
}

function penalty(allowed: boolean, fee: { amount: number; currency: string } | null | undefined, field: string): Penalty {
  // A penalty only means something where the change or refund is allowed.
  if (!allowed || !fee) return { allowed, penalty_amount: null, penalty_currency: null };
  return { allowed, penalty_amount: toBoundedDecimalString(fee.amount, fee.currency, field), penalty_currency: fee.currency };
}

const SERVICE_TYPES = { BAGGAGE: 'baggage', SEAT: 'seat', MEAL: 'meal' } as const;

/** A service without a segment or passenger is for all of them. */
function service(native: WireService, index: number, segmentIds: string[], passengerIds: string[]): AvailableService {
  const type = SERVICE_TYPES[native.type];
  const name = type === 'baggage' ? (native.baggageType === 'CARRY_ON' ? 'Carry-on bag' : 'Checked bag') : type === 'meal' ? 'Meal' : 'Seat';
  const normalized: AvailableService = {
    id: native.serviceId,
    type,
    name,
    description: native.description,
    total_amount: toBoundedDecimalString(native.price.amount, native.price.currency, `servicesAttachable.${index}.price.amount`),
    total_currency: native.price.currency,
    segment_ids: native.segmentRef ? [native.segmentRef] : segmentIds,
    passenger_ids: native.passengerRef ? [native.passengerRef] : passengerIds,
  };
  // Added in their place when given (see toOffer).
  if (native.maxQuantity !== undefined) normalized.maximum_quantity = native.maxQuantity;
  if (native.weightKg !== undefined) {
    normalized.weight = native.weightKg;
    normalized.weight_unit = 'kg';
  }
  if (native.dimensionsCm) normalized.dimensions = { length: native.dimensionsCm.length, width: native.dimensionsCm.width, height: native.dimensionsCm.height };
  return normalized;
}

/** The fare's perks as one summary: bags of the first leg, the fare rules, the stated features. */
function fareClassMetadata(
  native: WireOffer,
  services: AvailableService[],
  conditions: { refund_before_departure: Penalty; change_before_departure: Penalty },
): FareClassMetadata {
  const firstLeg = native.journeys[0]?.legs[0] as WireLeg;
  const checked = firstLeg.baggage.checked?.pieces ?? 0;
  const features = native.fareFeatures ?? {};
  // Seats are priced one by one in the seat maps (standard seats free); the offer names no fee.
  return fareSummary(
    {
      seat_selection_allowed: features.seatSelection ?? false,
      extra_legroom: false,
      carry_on_bags: firstLeg.baggage.carryOn?.pieces ?? 0,
      checked_bags: checked,
      checked_bags_paid: checked === 0 && services.some((item) => item.type === 'baggage'),
      boarding_priority: features.priorityBoarding ? 'priority' : 'standard',
    },
    conditions.refund_before_departure,
    conditions.change_before_departure,
  );
}

/** An airport: its name and city when given, and, for a segment's ends, the terminal (null when unknown). */
function airport(value: { code: string; name?: string; city?: string }, terminal?: string | null): Offer['slices'][number]['origin'] {
  const normalized: Offer['slices'][number]['origin'] = { iata_code: value.code };
  if (value.name) normalized.name = value.name;
  if (value.city) normalized.city_name = value.city;
  if (terminal !== undefined) normalized.terminal = terminal;
  return normalized;
}

function carrier(value: { code: string; name?: string }) {
  return value.name ? { iata_code: value.code, name: value.name } : { iata_code: value.code };
}
