/**
 * provider_a's seat maps (Amadeus-like: decks of seats with characteristic codes and a status per
 * traveler) → the normalized SeatMap. W window, A aisle, 9 middle; E exit row; the first traveler's
 * status and price stand for the seat.
 */
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import type { WireSeatMaps } from './wire.js';

export function toSeatMap(native: WireSeatMaps['data'][number], offerId: string): SeatMap {
  const seatMap: SeatMap['seat_map'] = {};
  const pricing: SeatMap['pricing'] = {};
  for (const deck of native.decks) {
    for (const seat of deck.seats) {
      const first = seat.travelerPricing[0];
      const status = first?.seatAvailabilityStatus ?? 'BLOCKED';
      const codes = seat.characteristicsCodes;
      seatMap[seat.number] = {
        seat_number: seat.number,
        row: seat.number.slice(0, -1),
        column: seat.number.slice(-1),
        is_available: status === 'AVAILABLE',
        is_occupied: status === 'OCCUPIED',
        is_blocked: status === 'BLOCKED',
        seat_type: codes.includes('W') ? 'window' : codes.includes('A') ? 'aisle' : 'middle',
        disclosures: codes.includes('E') ? ['exit_row'] : [],
      };
      if (status === 'AVAILABLE' && first?.price && Number(first.price.total) > 0) {
        pricing[seat.number] = { amount: Number(first.price.total), currency: first.price.currency };
      }
    }
  }
  return { offer_id: offerId, segment_id: native.segmentId, seat_map: seatMap, pricing };
}
