/**
 * provider_b's seat maps (Duffel-like: cabins of rows of sections of elements) → the normalized SeatMap:
 * every seat keyed by its number, whether it can be taken, occupied or blocked (a seat that cannot be
 * taken and carries a restriction disclosure), window, middle or aisle from its place in its section, and
 * its price for the first passenger when it has one.
 */
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import type { WireSeatMap } from './wire.js';

export function toSeatMap(native: WireSeatMap, offerId: string): SeatMap {
  const seatMap: SeatMap['seat_map'] = {};
  const pricing: SeatMap['pricing'] = {};
  for (const cabin of native.cabins) {
    for (const row of cabin.rows) {
      row.sections.forEach((section, sectionIndex) => {
        const seats = section.elements.filter((element) => element.type === 'seat');
        seats.forEach((seat, index) => {
          if (seat.type !== 'seat' || !('designator' in seat)) return;
          const designator = seat.designator as string;
          const services = (seat.available_services ?? []) as { total_amount: string; total_currency: string }[];
          const disclosures = (seat.disclosures ?? []) as string[];
          const available = services.length > 0;
          const blocked = !available && disclosures.some((disclosure) => disclosure.startsWith('restricted'));
          seatMap[designator] = {
            seat_number: designator,
            row: designator.slice(0, -1),
            column: designator.slice(-1),
            is_available: available,
            is_occupied: !available && !blocked,
            is_blocked: blocked,
            seat_type: seatType(sectionIndex, row.sections.length, index, seats.length),
            disclosures,
          };
          const price = services[0];
          if (price && Number(price.total_amount) > 0) pricing[designator] = { amount: Number(price.total_amount), currency: price.total_currency };
        });
      });
    }
  }
  return { offer_id: offerId, segment_id: native.segment_id, seat_map: seatMap, pricing };
}

/** Window at the outer ends, aisle next to an aisle (a section's edge inside the cabin), else middle. */
function seatType(section: number, sections: number, index: number, seats: number): string {
  const outerLeft = section === 0 && index === 0;
  const outerRight = section === sections - 1 && index === seats - 1;
  if (outerLeft || outerRight) return 'window';
  if (index === 0 || index === seats - 1) return 'aisle';
  return 'middle';
}
