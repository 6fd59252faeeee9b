/**
 * provider_d (Kiwi-like) native offer → the normalized Offer (providers.md §2):
 * - the id is the booking token; the offer lives 30 minutes from when it was searched or last checked;
 * - the price is one number in the searched currency (no tax split: base = total, tax unknown), or the
 *   last check's conversion into that currency when the offer has been checked;
 * - slices group the route by its `return` flag; `local_*` times lose their fake `Z`;
 * - passengers are synthesized from the searched counts, with their index as id (the provider has no
 *   passenger ids: its booking takes passengers by position);
 * - bags from `baglimit` and, once checked, the priced hold-bag combinations as services; fare conditions
 *   are unknown (null), seats are never sold.
 */
import type { AvailableService, FareClassMetadata, Offer } from '../../../core/flights/offer-schemas.js';
import { baggages, fareSummary, withSeconds } from '../../../core/flights/normalizing.js';
import { toBoundedDecimalString } from '../../../core/money/money.js';
import type { WireBagCombination, WireOffer, WireSearchItem } from './wire.js';

export const PROVIDER_ID = 'provider_d';
/** How long a booking token holds after the search or check that gave it. */
export const OFFER_LIFETIME_MS = 30 * 60 * 1000;

const CABINS = { M: 'economy', W: 'premium_economy', C: 'business', F: 'first' } as const;

type Segment = WireSearchItem['route'][number];

export function toOffer(native: WireOffer, now: Date): Offer {
  const item = native.data[0] as WireSearchItem;
  const check = native.check_flights;
  const currency = native.currency;
  const seats = native.search_params.seats;
  const passengers = [
    ...Array.from({ length: seats.adults }, () => 'adult' as const),
    ...Array.from({ length: seats.children }, () => 'child' as const),
    ...Array.from({ length: seats.infants }, () => 'infant_without_seat' as const),
  ].map((type, index) => ({ id: String(index), type, age: null }));
  const checked = check?.conversion?.currency === currency ? { amount: check.conversion.amount, field: 'check_flights.conversion.amount' } : undefined;
  const total = toBoundedDecimalString(checked?.amount ?? item.price, currency, checked?.field ?? 'data.0.price');
  const expiresAt = new Date(now.getTime() + OFFER_LIFETIME_MS).toISOString();
  const prioritySegments = new Set((check?.flights ?? []).filter((flight) => flight.forced_priority_boarding).map((flight) => flight.id));
  const carryOn = item.baglimit?.hand_weight ? 1 : 0;
  const holdCombinations = check?.baggage?.combinations.hold_bag ?? [];
  const checkedIncluded = Math.max(0, ...holdCombinations.filter((combination) => combination.price.amount === 0).map((combination) => combination.indices.length));
  const unknown = { refund_before_departure: null, change_before_departure: null };
  // Infants travel on a lap, without bags of their own.
  const bags = services(native, item, passengers.filter((passenger) => passenger.type !== 'infant_without_seat').map((passenger) => passenger.id));

  const slices = [0, 1]
    .map((direction) => item.route.filter((segment) => segment.return === direction))
    .filter((segments) => segments.length > 0)
    .map((segments, sliceIndex) => {
      const first = segments[0] as Segment;
      const last = segments.at(-1) as Segment;
      return {
        id: `${item.id}#${sliceIndex}`,
        origin: place(first.flyFrom, first.cityFrom),
        destination: place(last.flyTo, last.cityTo),
        duration: isoDuration(first.utc_departure, last.utc_arrival),
        fare_brand_name: null,
        conditions: {
          ...unknown,
          advance_seat_selection: false,
          priority_boarding: segments.some((segment) => prioritySegments.has(segment.id)) || null,
          priority_check_in: null,
        },
        segments: segments.map((segment) => ({
          id: segment.id,
          origin: place(segment.flyFrom, segment.cityFrom),
          destination: place(segment.flyTo, segment.cityTo),
          departing_at: localTime(segment.local_departure),
          arriving_at: localTime(segment.local_arrival),
          duration: isoDuration(segment.utc_departure, segment.utc_arrival),
          marketing_carrier: { iata_code: segment.airline },
          marketing_carrier_flight_number: String(segment.flight_no),
          operating_carrier: { iata_code: segment.operating_carrier || segment.airline },
          operating_carrier_flight_number: segment.operating_flight_no || null,
          aircraft: segment.equipment ? { iata_code: segment.equipment } : null,
          passengers: passengers.map((passenger) => ({
            passenger_id: passenger.id,
            cabin_class: CABINS[segment.fare_category],
            fare_basis_code: segment.fare_basis ?? null,
            fare_brand_name: null,
            baggages: baggages(checkedIncluded, passenger.type !== 'infant_without_seat' ? carryOn : 0),
          })),
        })),
      };
    });

  return {
    id: item.booking_token,
    provider_id: PROVIDER_ID,
    expires_at: expiresAt,
    total_amount: total,
    total_currency: currency,
    // provider_d states no tax split: the whole price is the fare, the tax is unknown.
    base_amount: total,
    base_currency: currency,
    tax_amount: null,
    tax_currency: null,
    total_emissions_kg: null,
    passenger_identity_documents_required: check?.document_options?.document_need === 2,
    supported_passenger_identity_document_types: ['passport', 'national_identity_card'],
    supported_loyalty_programmes: [],
    owner: { iata_code: item.airlines[0] as string },
    passengers,
    slices,
    conditions: unknown,
    payment_requirements: {
      // Its booking is paid at once: confirm_payment must follow save_booking within 30 minutes.
      requires_instant_payment: true,
      payment_required_by: null,
      price_guarantee_expires_at: expiresAt,
    },
    available_services: bags,
    fare_class_metadata: fareClassMetadata(carryOn, checkedIncluded, bags.length > 0, prioritySegments.size > 0),
    raw_offer: native as Record<string, unknown>,
  };
}

/**
 * Hold bags for sale. Once checked, the combinations the provider prices (those with a price), each
 * with its size and weight from the bag definitions; before that, the search item's `bags_price`.
 */
function services(native: WireOffer, item: WireSearchItem, passengerIds: string[]): AvailableService[] {
  const currency = native.currency;
  const segmentIds = item.route.map((segment) => segment.id);
  const definitions = native.check_flights?.baggage?.definitions.hold_bag ?? [];
  const combinations = native.check_flights?.baggage?.combinations.hold_bag;
  if (combinations) {
    return combinations
      .map((combination, index) => ({ combination, index }))
      .filter(({ combination }) => combination.price.amount > 0 && combination.price.currency === currency)
      .map(({ combination, index }) => {
        const definition = definitions[combination.indices[0] ?? 0]?.restrictions;
        const bag: AvailableService = {
          id: combinationId(combination),
          type: 'baggage' as const,
          name: `${combination.indices.length} checked bag${combination.indices.length === 1 ? '' : 's'}`,
          total_amount: toBoundedDecimalString(combination.price.amount, currency, `check_flights.baggage.combinations.hold_bag.${index}.price.amount`),
          total_currency: currency,
          segment_ids: segmentIds,
          passenger_ids: passengerIds,
          maximum_quantity: 1,
        };
        // Added when the definition gives them, not spread in: V8 copies a spread field by field.
        if (definition?.weight) {
          bag.weight = definition.weight;
          bag.weight_unit = 'kg';
        }
        if (definition?.length && definition.width && definition.height) bag.dimensions = { length: definition.length, width: definition.width, height: definition.height };
        return bag;
      });
  }
  return Object.entries(item.bags_price ?? {})
    .filter(([, price]) => price > 0)
    .map(([count, price]) => {
      const bag: AvailableService = {
        // The id of the combination of that many hold bags, as check_flights will name it.
        id: combinationId({ category: 'hold_bag', indices: Array.from({ length: Number(count) }, () => 0) } as WireBagCombination),
        type: 'baggage' as const,
        name: `${count} checked bag${count === '1' ? '' : 's'}`,
        total_amount: toBoundedDecimalString(price, currency, `data.0.bags_price.${count}`),
        total_currency: currency,
        segment_ids: segmentIds,
        passenger_ids: passengerIds,
        maximum_quantity: 1,
      };
      if (item.baglimit?.hold_weight) {
        bag.weight = item.baglimit.hold_weight;
        bag.weight_unit = 'kg';
      }
      return bag;
    });
}

/** The id a bag combination is chosen by at booking: its category and the definitions it combines. */
export function combinationId(combination: WireBagCombination): string {
  return `${combination.category}:${combination.indices.join('-')}`;
}

function fareClassMetadata(carryOn: number, checked: number, bagsForSale: boolean, priority: boolean): FareClassMetadata {
  return fareSummary(
    {
      seat_selection_allowed: false,
      extra_legroom: false,
      carry_on_bags: carryOn,
      checked_bags: checked,
      checked_bags_paid: checked === 0 && bagsForSale,
      boarding_priority: priority ? 'priority' : 'standard',
    },
    null,
    null,
  );
}

/**
 * An airport, with its city when the provider names one: one of two literals, not a spread of an object
 * that may be empty (V8 copies a spread field by field; four places a segment add up).
 */
function place(iataCode: string, cityName: string | undefined): Offer['slices'][number]['origin'] {
  return cityName ? { iata_code: iataCode, city_name: cityName } : { iata_code: iataCode };
}

/** `2026-06-01T08:25:00.000Z` that is really 08:25 at the airport → `2026-06-01T08:25:00`. */
function localTime(fakeUtc: string): string {
  return withSeconds(fakeUtc.slice(0, 19));
}

function isoDuration(fromUtc: string, toUtc: string): string {
  const minutes = Math.round((Date.parse(toUtc) - Date.parse(fromUtc)) / 60_000);
  const hours = Math.floor(minutes / 60);
  return `PT${hours}H${String(minutes % 60).padStart(2, '0')}M`;
}
