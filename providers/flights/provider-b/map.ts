/**
 * provider_b (Duffel-like) native offer → the normalized Offer. The normalized shape follows Duffel's,
 * so this is mostly a copy with the amounts put in their currency's minor units, services in the
 * normalized service shape, and the fare class summary (`fare_class_metadata`) worked out from the
 * conditions and baggage the offer states (providers.md §2).
 */
import type { AvailableService, FareClassMetadata, Offer } from '../../../core/flights/offer-schemas.js';
import { toBoundedDecimalString } from '../../../core/money/money.js';
import { checkedUtcIso, fareSummary, withSeconds } from '../../../core/flights/normalizing.js';
import type { WireOffer } from './wire.js';

export const PROVIDER_ID = 'provider_b';

type Penalty = { allowed: boolean; penalty_amount?: string | null; penalty_currency?: string | null } | null | undefined;

export function toOffer(native: WireOffer): Offer {
  const money = (amount: string | null | undefined, currency: string | null | undefined, field: string) =>
    amount != null && currency != null ? toBoundedDecimalString(amount, currency, field) : null;
  const conditions = {
    refund_before_departure: penalty(native.conditions.refund_before_departure, 'conditions.refund_before_departure.penalty_amount'),
    change_before_departure: penalty(native.conditions.change_before_departure, 'conditions.change_before_departure.penalty_amount'),
  };
  const services = (native.available_services ?? []).map((item, index) => service(item, index));
  // Fields that may be absent are added in their place in the Offer's field order, never spread into the
  // middle of a literal: V8 then defines every later field the slow way (microseconds an offer).
  const offer: Offer = {
    ...offerHead(native),
    expires_at: checkedUtcIso(native.expires_at),
    total_amount: toBoundedDecimalString(native.total_amount, native.total_currency, 'total_amount'),
    total_currency: native.total_currency,
    base_amount: money(native.base_amount, native.base_currency, 'base_amount'),
    base_currency: native.base_amount != null ? (native.base_currency ?? null) : null,
    tax_amount: money(native.tax_amount, native.tax_currency, 'tax_amount'),
    tax_currency: native.tax_amount != null ? (native.tax_currency ?? null) : null,
    total_emissions_kg: native.total_emissions_kg ?? null,
    passenger_identity_documents_required: native.passenger_identity_documents_required,
    supported_passenger_identity_document_types: native.supported_passenger_identity_document_types ?? [],
    supported_loyalty_programmes: native.supported_loyalty_programmes ?? [],
    owner: carrier(native.owner),
    passengers: native.passengers.map((passenger) => ({
      id: passenger.id,
      type: passenger.type ?? typeFromAge(passenger.age),
      age: passenger.age ?? null,
    })),
    slices: native.slices.map((slice, sliceIndex) => ({
      id: slice.id,
      origin: place(slice.origin),
      destination: place(slice.destination),
      duration: slice.duration ?? null,
      fare_brand_name: slice.fare_brand_name ?? null,
      conditions: {
        change_before_departure: penalty(slice.conditions.change_before_departure, `slices.${sliceIndex}.conditions.change_before_departure.penalty_amount`),
        advance_seat_selection: slice.conditions.advance_seat_selection ?? null,
        priority_boarding: slice.conditions.priority_boarding ?? null,
        priority_check_in: slice.conditions.priority_check_in ?? null,
      },
      segments: slice.segments.map((segment) => ({
        id: segment.id,
        origin: place(segment.origin, segment.origin_terminal ?? null),
        destination: place(segment.destination, segment.destination_terminal ?? null),
        departing_at: withSeconds(segment.departing_at),
        arriving_at: withSeconds(segment.arriving_at),
        duration: segment.duration ?? null,
        marketing_carrier: carrier(segment.marketing_carrier),
        marketing_carrier_flight_number: segment.marketing_carrier_flight_number,
        operating_carrier: carrier(segment.operating_carrier),
        operating_carrier_flight_number: segment.operating_carrier_flight_number ?? null,
        aircraft: segment.aircraft ? carrier(segment.aircraft) : null,
        passengers: segment.passengers.map((passenger) => {
          const fareBasisCode = passenger.fare_basis_code ?? null;
          const brand = slice.fare_brand_name ?? null;
          const bags = passenger.baggages.map((bag) => ({ type: bag.type, quantity: bag.quantity }));
          return passenger.cabin_class_marketing_name
            ? { passenger_id: passenger.passenger_id, cabin_class: passenger.cabin_class, cabin_class_marketing_name: passenger.cabin_class_marketing_name, fare_basis_code: fareBasisCode, fare_brand_name: brand, baggages: bags }
            : { passenger_id: passenger.passenger_id, cabin_class: passenger.cabin_class, fare_basis_code: fareBasisCode, fare_brand_name: brand, baggages: bags };
        }),
      })),
    })),
    conditions,
    payment_requirements: {
      requires_instant_payment: native.payment_requirements.requires_instant_payment,
      payment_required_by: optionalUtc(native.payment_requirements.payment_required_by),
      price_guarantee_expires_at: optionalUtc(native.payment_requirements.price_guarantee_expires_at),
    },
  };
  if (native.private_fares && native.private_fares.length > 0) offer.private_fares = native.private_fares.map(privateFare);
  if (services.length > 0) offer.available_services = services;
  offer.fare_class_metadata = fareClassMetadata(native, services);
  offer.raw_offer = native as Record<string, unknown>;
  return offer;
}

/** The offer's id, and its creation and update times when the provider gives them. */
function offerHead(native: WireOffer): Pick<Offer, 'id' | 'provider_id' | 'created_at' | 'updated_at'> {
  const head: Pick<Offer, 'id' | 'provider_id' | 'created_at' | 'updated_at'> = { id: native.id, provider_id: PROVIDER_ID };
  if (native.created_at) head.created_at = checkedUtcIso(native.created_at);
  if (native.updated_at) head.updated_at = checkedUtcIso(native.updated_at);
  return head;
}

function penalty(value: Penalty, field: string) {
  if (!value) return null;
  const amount = value.penalty_amount ?? null;
  const currency = value.penalty_currency ?? null;
  return {
    allowed: value.allowed,
    penalty_amount: amount !== null && currency !== null ? toBoundedDecimalString(amount, currency, field) : null,
    penalty_currency: amount !== null ? currency : null,
  };
}

function service(native: NonNullable<WireOffer['available_services']>[number], index: number): AvailableService {
  const metadata = native.metadata ?? {};
  const dimensions =
    metadata.maximum_length_cm != null && metadata.maximum_depth_cm != null && metadata.maximum_height_cm != null
      ? { length: metadata.maximum_length_cm, width: metadata.maximum_depth_cm, height: metadata.maximum_height_cm }
      : undefined;
  const type = SERVICE_TYPES[native.type] ?? 'other';
  const totalAmount = toBoundedDecimalString(native.total_amount, native.total_currency, `available_services.${index}.total_amount`);
  // Optional fields in their place (see toOffer): a bag has a name, the rest only when given.
  const normalized: AvailableService =
    type === 'baggage'
      ? {
          id: native.id,
          type,
          name: metadata.type === 'carry_on' ? 'Carry-on bag' : 'Checked bag',
          total_amount: totalAmount,
          total_currency: native.total_currency,
          segment_ids: native.segment_ids,
          passenger_ids: native.passenger_ids,
        }
      : { id: native.id, type, total_amount: totalAmount, total_currency: native.total_currency, segment_ids: native.segment_ids, passenger_ids: native.passenger_ids };
  if (native.maximum_quantity !== undefined) normalized.maximum_quantity = native.maximum_quantity;
  if (metadata.maximum_weight_kg != null) {
    normalized.weight = metadata.maximum_weight_kg;
    normalized.weight_unit = 'kg';
  }
  if (dimensions) normalized.dimensions = dimensions;
  return normalized;
}

const SERVICE_TYPES: Record<string, AvailableService['type']> = {
  baggage: 'baggage',
  seat: 'seat',
  meal: 'meal',
  cancel_for_any_reason: 'cancel_for_any_reason',
  priority_boarding: 'priority_boarding',
};

/** The fare's perks as one summary, from the first slice's conditions and first passenger's baggage. */
function fareClassMetadata(native: WireOffer, services: AvailableService[]): FareClassMetadata {
  const firstSlice = native.slices[0] as WireOffer['slices'][number];
  const bags = firstSlice.segments[0]?.passengers[0]?.baggages ?? [];
  const count = (type: 'checked' | 'carry_on') => bags.filter((bag) => bag.type === type).reduce((sum, bag) => sum + bag.quantity, 0);
  const refund = penalty(native.conditions.refund_before_departure, 'conditions.refund_before_departure.penalty_amount');
  const change = penalty(native.conditions.change_before_departure, 'conditions.change_before_departure.penalty_amount');
  const checked = count('checked');
  // Seat prices live in the seat map, per seat; the offer itself names no fee.
  return fareSummary(
    {
      seat_selection_allowed: firstSlice.conditions.advance_seat_selection ?? false,
      extra_legroom: false,
      carry_on_bags: count('carry_on'),
      checked_bags: checked,
      checked_bags_paid: checked === 0 && services.some((item) => item.type === 'baggage'),
      boarding_priority: firstSlice.conditions.priority_boarding ? 'priority' : 'standard',
    },
    refund,
    change,
  );
}

function privateFare(fare: { corporate_code?: string; tour_code?: string; tracking_reference?: string }) {
  const normalized: NonNullable<Offer['private_fares']>[number] = {};
  if (fare.corporate_code) normalized.corporate_code = fare.corporate_code;
  if (fare.tour_code) normalized.tour_code = fare.tour_code;
  if (fare.tracking_reference) normalized.tracking_reference = fare.tracking_reference;
  return normalized;
}

/** An airport: its name and city when given, and, for a segment's ends, the terminal (null when unknown). */
function place(value: { iata_code: string; name?: string; city_name?: string | null }, terminal?: string | null): Offer['slices'][number]['origin'] {
  const normalized: Offer['slices'][number]['origin'] = { iata_code: value.iata_code };
  if (value.name) normalized.name = value.name;
  if (value.city_name) normalized.city_name = value.city_name;
  if (terminal !== undefined) normalized.terminal = terminal;
  return normalized;
}

function carrier(value: { iata_code: string; name?: string }) {
  return value.name ? { iata_code: value.iata_code, name: value.name } : { iata_code: value.iata_code };
}

/** IATA bands: infant under 2, child 2 to 11, adult 12 and over; adult when the age is not given. */
export function typeFromAge(age: number | null | undefined): Offer['passengers'][number]['type'] {
  if (age == null || age >= 12) return 'adult';
  return age < 2 ? 'infant_without_seat' : 'child';
}

function optionalUtc(value: string | null | undefined): string | null {
  return value ? checkedUtcIso(value) : null;
}
