/**
 * When an offer can still be booked, by its flights' departures (specification: per-provider limits read
 * from ProviderCapabilities): not once its first flight has left, not closer to departure than the
 * provider's `min_advance_booking_hours`, and not further ahead than its `max_advance_booking_days`. Checked
 * before anything is stored or charged, by every door that books (REST, the tools, the checkout).
 */
import { UnprocessableError } from '../errors.js';
import { instantAt } from './airport-zones.js';
import type { Offer } from './offer-schemas.js';
import type { ProviderCapabilities } from './schemas.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Departure {
  flight: string;
  airport: string;
  local: string;
  at: Date;
}

/** Every flight of the offer, in the order it departs. */
export function departuresOf(offer: Pick<Offer, 'slices'>): Departure[] {
  return offer.slices
    .flatMap((slice) => slice.segments)
    .map((segment) => ({
      flight: `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}`,
      airport: segment.origin.iata_code,
      local: segment.departing_at,
      at: instantAt(segment.origin.iata_code, segment.departing_at),
    }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

export function checkDepartureWindow(offer: Pick<Offer, 'slices'>, capabilities: ProviderCapabilities, providerId: string, now: Date): void {
  const departures = departuresOf(offer);
  const first = departures[0];
  const last = departures.at(-1);
  if (!first || !last) return;
  const when = (departure: Departure) => `${departure.flight} from ${departure.airport} at ${departure.local.slice(0, 16).replace('T', ' ')} local time`;
  if (first.at.getTime() <= now.getTime()) {
    throw new UnprocessableError(`${when(first)} has already departed: it cannot be booked. Search again for a later flight.`, 'flight_departed');
  }
  const minHours = capabilities.min_advance_booking_hours;
  if (first.at.getTime() - now.getTime() < minHours * HOUR_MS) {
    throw new UnprocessableError(
      `${when(first)} departs in less than ${minHours} hour${minHours === 1 ? '' : 's'}, ${providerId}'s shortest notice (min_advance_booking_hours): it can no longer be booked through us. Choose a later flight.`,
      'departure_too_soon',
    );
  }
  const maxDays = capabilities.max_advance_booking_days;
  if (last.at.getTime() - now.getTime() > maxDays * DAY_MS) {
    throw new UnprocessableError(
      `${when(last)} is more than ${maxDays} days ahead, beyond what ${providerId} sells (max_advance_booking_days): book it nearer the date.`,
      'departure_too_far_ahead',
    );
  }
}
