/**
 * What the hosted checkout shows of a session's offer, built from our stored offer (never from anything
 * the page sends): the itinerary with its stops, the fare's conditions, who travels, the total, and which
 * steps this provider and offer take (pricing, seats, bags, documents). Holds are never offered.
 */
import type { Offer, SeatMap } from '../flights/offer-schemas.js';
import type { ProviderCapabilities } from '../flights/schemas.js';

export interface CheckoutSteps {
  /** The provider prices the offer again before booking (`requires_pricing`): the review step does. */
  pricing: boolean;
  /** The provider sells seats (`supports_seat_selection`). */
  seats: boolean;
  /** The provider sells bags and the offer has some on sale. */
  bags: boolean;
  /** Every passenger needs a passport (`passenger_identity_documents_required`). */
  documents: boolean;
}

export interface OfferView {
  total_amount: string;
  total_currency: string;
  base_amount: string | null;
  tax_amount: string | null;
  airline: { iata_code: string; name: string | null };
  fare_brand_name: string | null;
  /** The first flight's local departure date: ages (and so passenger types) are counted on it. */
  departure_date: string;
  slices: {
    origin: PlaceView;
    destination: PlaceView;
    duration: string | null;
    /** Changes of plane between the first departure and the last arrival. */
    stops: number;
    segments: {
      id: string;
      origin: PlaceView;
      destination: PlaceView;
      departing_at: string;
      arriving_at: string;
      duration: string | null;
      carrier: string;
      flight_number: string;
      operated_by: string | null;
      aircraft: string | null;
      cabin: string | null;
    }[];
  }[];
  conditions: { refundable: boolean | null; refund_penalty: string | null; changeable: boolean | null; change_penalty: string | null };
  passengers: { id: string; type: 'adult' | 'child' | 'infant_without_seat'; age: number | null }[];
  bags: { id: string; name: string; description: string | null; total_amount: string; total_currency: string; maximum_quantity: number; passenger_ids: string[]; segment_ids: string[] }[];
}

interface PlaceView {
  iata_code: string;
  name: string | null;
  city_name: string | null;
}

export function stepsOf(offer: Offer, capabilities: ProviderCapabilities): CheckoutSteps {
  return {
    pricing: capabilities.requires_pricing,
    seats: capabilities.supports_seat_selection,
    bags: capabilities.supports_bag_selection && bagsOf(offer).length > 0,
    documents: offer.passenger_identity_documents_required,
  };
}

export function offerView(offer: Offer, capabilities: ProviderCapabilities): OfferView {
  const penalty = (value: { penalty_amount: string | null; penalty_currency: string | null } | null | undefined) =>
    value?.penalty_amount ? `${value.penalty_amount} ${value.penalty_currency ?? offer.total_currency}` : null;
  return {
    total_amount: offer.total_amount,
    total_currency: offer.total_currency,
    base_amount: offer.base_amount,
    tax_amount: offer.tax_amount,
    airline: { iata_code: offer.owner.iata_code, name: offer.owner.name ?? null },
    fare_brand_name: offer.slices[0]?.fare_brand_name ?? null,
    departure_date: departureDateOf(offer),
    slices: offer.slices.map((slice) => ({
      origin: place(slice.origin),
      destination: place(slice.destination),
      duration: slice.duration,
      stops: slice.segments.length - 1,
      segments: slice.segments.map((segment) => ({
        id: segment.id,
        origin: place(segment.origin),
        destination: place(segment.destination),
        departing_at: segment.departing_at,
        arriving_at: segment.arriving_at,
        duration: segment.duration,
        carrier: segment.marketing_carrier.name ?? segment.marketing_carrier.iata_code,
        flight_number: `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}`,
        operated_by:
          segment.operating_carrier.iata_code !== segment.marketing_carrier.iata_code ? (segment.operating_carrier.name ?? segment.operating_carrier.iata_code) : null,
        aircraft: segment.aircraft?.name ?? segment.aircraft?.iata_code ?? null,
        cabin: segment.passengers[0]?.cabin_class_marketing_name ?? segment.passengers[0]?.cabin_class ?? null,
      })),
    })),
    conditions: {
      refundable: offer.conditions.refund_before_departure?.allowed ?? null,
      refund_penalty: penalty(offer.conditions.refund_before_departure),
      changeable: offer.conditions.change_before_departure?.allowed ?? null,
      change_penalty: penalty(offer.conditions.change_before_departure),
    },
    passengers: offer.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, age: passenger.age ?? null })),
    bags: capabilities.supports_bag_selection ? bagsOf(offer) : [],
  };
}

function bagsOf(offer: Offer): OfferView['bags'] {
  return (offer.available_services ?? [])
    .filter((service) => service.type === 'baggage' && service.total_currency === offer.total_currency)
    .map((service) => ({
      id: service.id,
      name: service.name ?? (service.weight ? `Checked bag up to ${service.weight} ${service.weight_unit ?? 'kg'}` : 'Checked bag'),
      description: service.description ?? null,
      total_amount: service.total_amount,
      total_currency: service.total_currency,
      maximum_quantity: service.maximum_quantity ?? 1,
      passenger_ids: service.passenger_ids,
      segment_ids: service.segment_ids,
    }));
}

export function departureDateOf(offer: Pick<Offer, 'slices'>): string {
  return offer.slices[0]?.segments[0]?.departing_at.slice(0, 10) ?? new Date().toISOString().slice(0, 10);
}

function place(value: { iata_code: string; name?: string | undefined; city_name?: string | undefined }): PlaceView {
  return { iata_code: value.iata_code, name: value.name ?? null, city_name: value.city_name ?? null };
}

/** A segment's seats as the page lays them out: rows of seats, each free, paid or not available. */
export interface SeatMapView {
  segment_id: string;
  rows: { row: string; seats: { seat_number: string; column: string; seat_type: string; available: boolean; price: string | null }[] }[];
}

export function seatMapView(map: SeatMap, currency: string, toDecimal: (amount: number) => string): SeatMapView {
  const rows = new Map<string, SeatMapView['rows'][number]>();
  const seats = Object.values(map.seat_map).sort((a, b) => Number(a.row) - Number(b.row) || a.column.localeCompare(b.column));
  for (const seat of seats) {
    const price = map.pricing[seat.seat_number];
    const paid = price !== undefined && price.amount > 0;
    // A seat priced in another currency than the offer's is not sold here.
    const sold = !paid || price.currency === currency;
    const row = rows.get(seat.row) ?? { row: seat.row, seats: [] };
    row.seats.push({
      seat_number: seat.seat_number,
      column: seat.column,
      seat_type: seat.seat_type,
      available: seat.is_available && sold,
      price: paid && sold ? toDecimal(price.amount) : null,
    });
    rows.set(seat.row, row);
  }
  return { segment_id: map.segment_id, rows: [...rows.values()] };
}
