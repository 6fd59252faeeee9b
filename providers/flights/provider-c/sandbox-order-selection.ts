/**
 * What OrderCreate selects, checked as VS checks it: every item of the priced offer for its own
 * passengers (912 when one is left out, 913 for one the offer lacks), and seats from the seat offer of
 * SeatAvailabilityRS, each free and at the band its map shows (290, VS's advance seat refusals).
 * Services beyond seats are not sold by this sandbox's offers: selecting one is 76H.
 */
import type { OrderSeat } from './sandbox-order-document.js';
import type { OrderCreateRequest } from './sandbox-requests.js';
import { offeredSeat, seatOfferId } from './sandbox-seats.js';
import type { WireOffer } from './wire.js';

type Refusal = { code: string; text: string; type: string };

export function orderSelectionRefusal(offer: WireOffer, request: OrderCreateRequest): Refusal | { seats: OrderSeat[] } {
  const selected = request.CreateOrder.AcceptSelectedQuotedOfferList.SelectedPricedOffer;
  const unknown = selected.find((item) => item.OfferRefID !== offer.OfferID && item.OfferRefID !== seatOfferId(offer));
  if (unknown) return refused('913', 'Invalid Request/PricedOffer/SelectedOffer/OfferRefID value is entered (Call again AirShoppingRQ)', 'Unavailable');

  const fares = selected.filter((item) => item.OfferRefID === offer.OfferID).flatMap((item) => item.SelectedOfferItem);
  for (const item of fares) {
    const offered = offer.OfferItem.find((candidate) => candidate.OfferItemID === item.OfferItemRefID);
    if (!offered && item.SelectedALaCarteOfferItem) return refused('76H', 'Ancillary Services not available for the request Order/Priced Offer.', 'Unavailable');
    if (!offered || !samePassengers(offered.FareDetail.PaxRefID, item.PaxRefID)) return refused('913', 'Item/data not found or data not existing in processing host', 'Unavailable');
  }
  if (offer.OfferItem.some((item) => !fares.some((chosen) => chosen.OfferItemRefID === item.OfferItemID))) {
    return refused('912', 'Incomplete message - data missing in query/ request');
  }

  const seats: OrderSeat[] = [];
  const infants = new Set(offer.DataLists.PaxList.filter((pax) => pax.PTC === 'INF').map((pax) => pax.PaxID));
  for (const item of selected.filter((each) => each.OfferRefID === seatOfferId(offer)).flatMap((each) => each.SelectedOfferItem)) {
    const choice = item.SelectedSeat;
    const [passenger] = item.PaxRefID;
    if (!choice || item.PaxRefID.length !== 1 || !passenger || infants.has(passenger) || !offer.DataLists.PaxList.some((pax) => pax.PaxID === passenger)) {
      return refused('290', 'Unable to Process Advance Seat Request - requested seat number is not valid.');
    }
    const seat = offeredSeat(offer, choice.PaxSegmentRefID, choice.SeatRowNumber, choice.ColumnID);
    if (!seat) return refused('290', 'Unable to Process Advance Seat Request - one or more of the requested seats are not available.');
    if (seat.OfferItemRefID !== item.OfferItemRefID) return refused('913', 'Invalid OfferItemID for the SelectedOffer/OfferID (Call again OrderChangeRQ)', 'Unavailable');
    if (seats.some((held) => held.PaxSegmentRefID === choice.PaxSegmentRefID && held.PaxRefID === passenger)) {
      return refused('290', 'Unable to Process Advance Seat Request - more than one seat is requested per passenger per flight segment.');
    }
    if (seats.some((held) => held.PaxSegmentRefID === choice.PaxSegmentRefID && held.RowNumber === choice.SeatRowNumber && held.ColumnID === choice.ColumnID)) {
      return refused('290', 'Unable to Process Advance Seat Request - same seat is requested for more than one passenger for the same flight segment.');
    }
    seats.push({ PaxRefID: passenger, PaxSegmentRefID: choice.PaxSegmentRefID, RowNumber: choice.SeatRowNumber, ColumnID: choice.ColumnID, OfferItemRefID: seat.OfferItemRefID, UnitPrice: seat.UnitPrice });
  }
  return { seats };
}

function refused(code: string, text: string, type = 'NotProcessed'): Refusal {
  return { code, text, type };
}

function samePassengers(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}
