/**
 * The trip a booking is (decisions §2, TripSummary): denormalized from the offer when it is booked, and
 * its status derived from the booking's status and the travel dates.
 */
import type { Offer } from '../flights/offer-schemas.js';
import type { PlannedPassenger } from './booking-plan.js';

/** Airline logos by IATA code, from a public CDN of airline artwork (no logo is stored by us). */
const AIRLINE_LOGO_BASE = 'https://assets.duffel.com/img/airlines/for-light-background/full-color-logo';

export function tripColumns(offer: Offer, passengers: PlannedPassenger[]) {
  const first = offer.slices[0] as Offer['slices'][number];
  const last = offer.slices[offer.slices.length - 1] as Offer['slices'][number];
  const roundTrip = offer.slices.length === 2 && last.origin.iata_code === first.destination.iata_code && last.destination.iata_code === first.origin.iata_code;
  const tripType = offer.slices.length === 1 ? 'one_way' : roundTrip ? 'round_trip' : 'multi_city';
  const count = (type: PlannedPassenger['type']) => passengers.filter((passenger) => passenger.type === type).length;
  return {
    trip_type: tripType,
    origin_city: first.origin.city_name ?? null,
    origin_iata_code: first.origin.iata_code,
    destination_city: first.destination.city_name ?? null,
    destination_iata_code: first.destination.iata_code,
    departure_date: first.segments[0]?.departing_at ?? null,
    return_date: offer.slices.length > 1 ? (last.segments[0]?.departing_at ?? null) : null,
    airline_name: offer.owner.name ?? null,
    airline_iata_code: offer.owner.iata_code,
    airline_logo_url: `${AIRLINE_LOGO_BASE}/${encodeURIComponent(offer.owner.iata_code)}.svg`,
    adult_count: count('adult'),
    child_count: count('child'),
    infant_count: count('infant_without_seat'),
  };
}

/**
 * cancelled when the booking is; otherwise completed once the last travel date (return, else departure)
 * is past at `today` (a UTC calendar day); otherwise upcoming.
 */
export function tripStatus(status: string, departure: string | null, returning: string | null, today: string): 'upcoming' | 'completed' | 'cancelled' {
  if (status === 'cancelled') return 'cancelled';
  const last = (returning ?? departure)?.slice(0, 10);
  return last !== undefined && last < today ? 'completed' : 'upcoming';
}
