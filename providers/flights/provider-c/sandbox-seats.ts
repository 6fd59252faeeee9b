/**
 * provider_c's seats: SeatAvailabilityRS built from the shared seat fixtures (sandbox-cabins.ts), and the
 * same answer read back when OrderCreate selects a seat, so that a seat is sold at the price its map shows.
 */
import { toDecimalString } from '../../../core/money/money.js';
import { cabinsOf, seatState, type CabinLayout } from '../sandbox-cabins.js';
import type { WireOffer } from './wire.js';

const POSITION_CODES = { window: 'W', aisle: 'A', middle: '9' } as const;
const STATUS_CODES = { available: 'F', occupied: 'O', blocked: 'Z' } as const;
const CABIN_TYPE_CODES: Record<CabinLayout['cabinClass'], string> = { first: '1', business: '2', premium_economy: '4', economy: '5' };

/** A seat of the offer's seat maps, as OrderCreate may select it: free, with the à la carte item of its price. */
export interface OfferedSeat {
  OfferItemRefID: string;
  UnitPrice: { amount: string; curCode: string };
}

/** The seat `row``column` on PaxSegment `segmentId` if it is free (F); undefined otherwise. */
export function offeredSeat(offer: WireOffer, segmentId: string, row: number, column: string): OfferedSeat | undefined {
  const answer = seatAvailability(offer);
  const seat = answer.SeatMap.find((map) => map.PaxSegmentRefID === segmentId)
    ?.CabinCompartment.flatMap((cabin) => cabin.SeatRow)
    .find((item) => item.RowNumber === row)
    ?.Seat.find((item) => item.ColumnID === column);
  if (seat?.OccupationStatusCode !== 'F' || !seat.OfferItemRefID) return undefined;
  const band = answer.ALaCarteOffer.ALaCarteOfferItem.find((item) => item.OfferItemID === seat.OfferItemRefID);
  return band ? { OfferItemRefID: band.OfferItemID, UnitPrice: band.UnitPrice.TotalAmount } : undefined;
}

/** The à la carte offer of the seats: the id OrderCreate must name when it selects seats. */
export const seatOfferId = (offer: WireOffer) => `${offer.OfferID}-SEATS`;

/**
 * SeatAvailabilityRS from the shared seat fixtures (sandbox-cabins.ts): the aircraft of each PaxSegment's
 * operating segment (an A320 when unknown); every free seat points to the à la carte item of its price.
 */
export function seatAvailability(offer: WireOffer) {
  const lists = offer.DataLists;
  const currency = offer.TotalPrice.TotalAmount.curCode;
  const bands = new Map<number, string>();
  const bandOf = (price: number): string => {
    const known = bands.get(price);
    if (known) return known;
    const id = `SEAT-${bands.size + 1}`;
    bands.set(price, id);
    return id;
  };
  const seatMaps = lists.PaxSegmentList.map((segment) => {
    const marketing = lists.DatedMarketingSegmentList.find((item) => item.DatedMarketingSegmentId === segment.DatedMarketingSegmentRefId);
    const operating = lists.DatedOperatingSegmentList?.find((item) => item.DatedOperatingSegmentId === marketing?.DatedOperatingSegmentRefId);
    return {
      PaxSegmentRefID: segment.PaxSegmentID,
      CabinCompartment: cabinsOf(operating?.AircraftTypeCode).map((layout) => compartment(layout, currency, bandOf)),
    };
  });
  return {
    ALaCarteOffer: {
      OfferID: seatOfferId(offer),
      OwnerCode: offer.OwnerCode,
      ALaCarteOfferItem: [...bands].map(([price, id]) => ({
        OfferItemID: id,
        UnitPrice: { TotalAmount: { amount: toDecimalString(price, currency), curCode: currency } },
        ServiceDefinitionRefID: 'SEAT',
      })),
    },
    SeatMap: seatMaps,
  };
}

function compartment(layout: CabinLayout, currency: string, bandOf: (price: number) => string) {
  const letters = layout.sections.flat();
  const rows = [];
  for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
    rows.push({
      RowNumber: row,
      ...(layout.exitRows.includes(row) ? { RowCharacteristicCode: 'E' } : {}),
      Seat: letters.map((letter) => {
        const state = seatState(row, letter, layout, currency);
        const free = state.status === 'available';
        // PADIS seat characteristics: W window, A aisle, 9 centre, E exit row, 1 restricted, CH chargeable.
        const codes = [POSITION_CODES[state.position], ...(state.exitRow ? ['E'] : []), ...(state.status === 'blocked' ? ['1'] : []), ...(free && state.price > 0 ? ['CH'] : [])];
        return { ColumnID: letter, OccupationStatusCode: STATUS_CODES[state.status], SeatCharacteristicCode: codes, ...(free ? { OfferItemRefID: bandOf(state.price) } : {}) };
      }),
    });
  }
  return {
    DeckCode: 'Main',
    FirstRowNumber: layout.rows[0],
    LastRowNumber: layout.rows[1],
    CabinTypeCode: CABIN_TYPE_CODES[layout.cabinClass],
    SeatColumn: letters.map((letter) => ({ ColumnID: letter, SeatCharacteristicCode: POSITION_CODES[seatState(layout.rows[0], letter, layout, currency).position] })),
    // Galley and lavatory at the front of the cabin.
    CabinComponent: [
      { CabinComponentTypeCode: 'G', ColumnID: letters[0] },
      { CabinComponentTypeCode: 'LA', ColumnID: letters.at(-1) },
    ],
    SeatRow: rows,
  };
}
