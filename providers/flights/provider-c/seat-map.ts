/**
 * provider_c's seat maps (NDC SeatAvailabilityRS: cabin compartments of seat rows, prices as à la carte
 * offer items the seats refer to) → one normalized SeatMap per PaxSegment. Occupation F free, O occupied,
 * Z blocked; W window, A aisle, anything else middle (the seat's own codes, else its column's); a seat's
 * price is that of the item it refers to, left out when free.
 */
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import type { WireSeatAvailability } from './wire.js';

export function toSeatMaps(native: WireSeatAvailability, offerId: string): SeatMap[] {
  const prices = new Map(native.ALaCarteOffer.ALaCarteOfferItem.map((item) => [item.OfferItemID, item.UnitPrice.TotalAmount]));
  return native.SeatMap.map((segment) => {
    const seatMap: SeatMap['seat_map'] = {};
    const pricing: SeatMap['pricing'] = {};
    for (const cabin of segment.CabinCompartment) {
      const columnCodes = new Map(cabin.SeatColumn.map((column) => [column.ColumnID, column.SeatCharacteristicCode]));
      for (const row of cabin.SeatRow) {
        for (const seat of row.Seat) {
          const number = `${row.RowNumber}${seat.ColumnID}`;
          // A seat that does not say where it sits (W, A or 9 centre) sits where its column does.
          const own = seat.SeatCharacteristicCode;
          const codes = own.some((item) => ['W', 'A', '9'].includes(item)) ? own : [...own, columnCodes.get(seat.ColumnID) ?? ''];
          const exitRow = codes.includes('E') || row.RowCharacteristicCode === 'E';
          seatMap[number] = {
            seat_number: number,
            row: String(row.RowNumber),
            column: seat.ColumnID,
            is_available: seat.OccupationStatusCode === 'F',
            is_occupied: seat.OccupationStatusCode === 'O',
            is_blocked: seat.OccupationStatusCode === 'Z',
            seat_type: codes.includes('W') ? 'window' : codes.includes('A') ? 'aisle' : 'middle',
            disclosures: [...(seat.OccupationStatusCode === 'Z' ? ['restricted_seat_general'] : []), ...(exitRow ? ['exit_row'] : [])],
          };
          const price = seat.OccupationStatusCode === 'F' && seat.OfferItemRefID ? prices.get(seat.OfferItemRefID) : undefined;
          if (price && Number(price.amount) > 0) pricing[number] = { amount: Number(price.amount), currency: price.curCode };
        }
      }
    }
    return { offer_id: offerId, segment_id: segment.PaxSegmentRefID, seat_map: seatMap, pricing };
  });
}
