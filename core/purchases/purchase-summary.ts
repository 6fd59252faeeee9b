/**
 * What the confirmation page shows of a purchase, made from the quote the booking checks computed from
 * our own records (and the offer's itinerary), never from anything an agent wrote; and, when a purchase
 * drifted from the one confirmed, what changed, in words an agent can pass on to the traveler.
 */
import type { PurchaseQuote } from '../bookings/purchase-gate.js';
import type { Offer } from '../flights/offer-schemas.js';
import type { ConfirmationSummary } from './contracts.js';

type Slice = Offer['slices'][number];
export type Itinerary = Pick<Slice, 'origin' | 'destination' | 'segments'>[];

export function summarize(quote: PurchaseQuote, itinerary: Itinerary): ConfirmationSummary {
  const nameOf = new Map(quote.passengers.map((passenger) => [passenger.provider_passenger_id, `${passenger.first_name} ${passenger.last_name}`]));
  const segments = new Map(itinerary.flatMap((slice) => slice.segments).map((segment) => [segment.id, segment]));
  return {
    providerId: quote.providerId,
    offerId: quote.offerId,
    slices: itinerary.map((slice) => ({
      origin: slice.origin.iata_code,
      destination: slice.destination.iata_code,
      departingAt: slice.segments[0]?.departing_at ?? '',
      arrivingAt: slice.segments.at(-1)?.arriving_at ?? '',
      flights: slice.segments.map(flightOf),
      segments: slice.segments.map((segment) => ({
        origin: segment.origin.iata_code,
        destination: segment.destination.iata_code,
        departingAt: segment.departing_at,
        arrivingAt: segment.arriving_at,
        flight: flightOf(segment),
      })),
    })),
    passengers: quote.passengers.map((passenger) => ({ name: `${passenger.first_name} ${passenger.last_name}`, type: passenger.type, bornOn: passenger.born_on })),
    seats: quote.seats.map((seat) => {
      const segment = segments.get(seat.segment_id);
      return {
        passenger: nameOf.get(seat.provider_passenger_id) ?? seat.provider_passenger_id,
        segment: segment ? `${segment.origin.iata_code}–${segment.destination.iata_code} ${flightOf(segment)}` : seat.segment_id,
        seatNumber: seat.seat_number,
        price: seat.price,
      };
    }),
    services: quote.services.map((service) => ({ title: service.title, quantity: service.quantity, totalAmount: service.total_amount })),
    card: { brand: quote.card.brand, last4: quote.card.last4 },
    total: quote.breakdown,
  };
}

function flightOf(segment: Slice['segments'][number]): string {
  return `${segment.marketing_carrier.iata_code} ${segment.marketing_carrier_flight_number}`;
}

/**
 * What differs between the purchase confirmed and the one asked now, as a phrase ("the total (512.46 GBP,
 * now 530.00 GBP) and the card"). Parts the page does not show (a passport number, the contact, a new
 * pricing of the offer) are named together when nothing shown changed.
 */
export function describeDrift(confirmed: ConfirmationSummary, now: ConfirmationSummary): string {
  const changes: string[] = [];
  if (confirmed.offerId !== now.offerId || confirmed.providerId !== now.providerId) changes.push('the offer');
  if (confirmed.total.total_amount !== now.total.total_amount || confirmed.total.currency !== now.total.currency) {
    changes.push(`the total (${confirmed.total.total_amount} ${confirmed.total.currency}, now ${now.total.total_amount} ${now.total.currency})`);
  }
  if (!same(confirmed.passengers, now.passengers)) changes.push('the passengers');
  if (!same(confirmed.seats, now.seats)) changes.push('the seats');
  if (!same(confirmed.services, now.services)) changes.push('the bags and extras');
  if (!same(confirmed.card, now.card)) changes.push(`the card (${confirmed.card.brand} ${confirmed.card.last4}, now ${now.card.brand} ${now.card.last4})`);
  if (changes.length === 0) return 'details the page does not show (the passengers’ documents, the contact, or a new pricing of the offer)';
  return changes.length === 1 ? (changes[0] as string) : `${changes.slice(0, -1).join(', ')} and ${changes.at(-1)}`;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
