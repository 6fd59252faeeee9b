/**
 * The checks provider_a's sandbox makes of a flight order before it books, one rule each, in the order the
 * airline system would fail them: the offer still sells, the travelers match and pass, the chosen seats and
 * bags exist, and the money agrees. Each returns the refusal in the provider's words, or nothing.
 */
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { MAGIC_FLIGHT_NUMBERS, MAGIC_INVALID_LAST_NAME, MAGIC_SOLD_OUT_LAST_NAME } from './magic-values.js';
import { bagPrice, seatOn } from './sandbox-fares.js';
import type { OrderedOffer, OrderRequest } from './sandbox-order-request.js';

export interface Refusal {
  status: number;
  code: number;
  title: string;
  detail: string;
  pointer?: string;
}

type Order = OrderRequest['data'];

export function soldOut(order: Order): Refusal | undefined {
  const flight = firstFlight(order.flightOffers[0] as OrderedOffer);
  if (flight !== MAGIC_FLIGHT_NUMBERS.soldOut && !order.travelers.some((traveler) => traveler.name.lastName.toUpperCase() === MAGIC_SOLD_OUT_LAST_NAME)) return undefined;
  return { status: 400, code: 34651, title: 'SEGMENT SELL FAILURE', detail: 'Could not sell segment 1.' };
}

/** Its offers carry no expiry: a stale one, or one past its last ticketing date, is invalid data. */
export function stale(offer: OrderedOffer, now: Date): Refusal | undefined {
  const last = lastTicketingOf(offer);
  if (firstFlight(offer) !== MAGIC_FLIGHT_NUMBERS.expired && !(last && last < now)) return undefined;
  return { status: 400, code: 4926, title: 'INVALID DATA RECEIVED', detail: 'The flight offer is no longer valid.', pointer: '/data/flightOffers/0' };
}

export function travelersMatch(order: Order): Refusal | undefined {
  const offer = order.flightOffers[0] as OrderedOffer;
  const expected = offer.travelerPricings.map((traveler) => traveler.travelerId).sort();
  const given = order.travelers.map((traveler) => traveler.id).sort();
  if (JSON.stringify(expected) === JSON.stringify(given)) return undefined;
  return { status: 400, code: 4926, title: 'INVALID DATA RECEIVED', detail: 'travelers[].id must match travelerPricings[].travelerId.', pointer: '/data/travelers' };
}

/** Names in letters, dates of birth as dates, and documents where the fare asks for them (all but BASIC). */
export function travelersValid(order: Order): Refusal | undefined {
  const offer = order.flightOffers[0] as OrderedOffer;
  const basic = offer.travelerPricings[0]?.fareDetailsBySegment[0]?.brandedFare === 'BASIC';
  for (const [index, traveler] of order.travelers.entries()) {
    for (const part of ['firstName', 'lastName'] as const) {
      const name = traveler.name[part];
      if (!/^[\p{L}][\p{L} '-]*$/u.test(name) || (part === 'lastName' && name.toUpperCase() === MAGIC_INVALID_LAST_NAME)) {
        return { status: 400, code: 477, title: 'INVALID FORMAT', detail: `travelers[${index}].name.${part} is not valid.`, pointer: `/data/travelers/${index}/name/${part}` };
      }
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(traveler.dateOfBirth)) {
      return { status: 400, code: 477, title: 'INVALID FORMAT', detail: `travelers[${index}].dateOfBirth must be YYYY-MM-DD.`, pointer: `/data/travelers/${index}/dateOfBirth` };
    }
    if (!basic && (traveler.documents ?? []).length === 0) {
      return { status: 400, code: 32171, title: 'MANDATORY DATA MISSING', detail: `travelers[${index}].documents is required for this itinerary.`, pointer: `/data/travelers/${index}/documents` };
    }
  }
  return undefined;
}

/**
 * The chosen seats (`chargeableSeatNumber`) and checked bags (`chargeableCheckedBags`) of each traveler,
 * priced as the seat maps and `included.bags` quote them. A seat that is not free, taken twice or given
 * to a lap infant, or a bag count not on sale, is 38034.
 */
export function extrasOf(offer: OrderedOffer): { seats: string; bags: string } | Refusal {
  const currency = offer.price.currency;
  const segments = new Map(offer.itineraries.flatMap((itinerary) => itinerary.segments).map((segment) => [segment.id, segment]));
  const taken = new Set<string>();
  let seats = 0n;
  let bags = 0n;
  for (const [travelerIndex, traveler] of offer.travelerPricings.entries()) {
    let checked = 0;
    for (const [detailIndex, detail] of traveler.fareDetailsBySegment.entries()) {
      const pointer = `/data/flightOffers/0/travelerPricings/${travelerIndex}/fareDetailsBySegment/${detailIndex}/additionalServices`;
      const seatNumber = detail.additionalServices?.chargeableSeatNumber;
      if (seatNumber !== undefined) {
        const seat = seatOn(segments.get(detail.segmentId)?.aircraft?.code, seatNumber, currency);
        const key = `${detail.segmentId}:${seatNumber}`;
        if (!seat || seat.status !== 'available' || taken.has(key) || traveler.travelerType === 'HELD_INFANT') {
          return { status: 400, code: 38034, title: 'ONE OR MORE SERVICES ARE NOT AVAILABLE', detail: `Seat ${seatNumber} cannot be sold on segment ${detail.segmentId}.`, pointer: `${pointer}/chargeableSeatNumber` };
        }
        taken.add(key);
        seats += toMinorUnits(String(seat.price), currency);
      }
      checked = Math.max(checked, detail.additionalServices?.chargeableCheckedBags?.quantity ?? 0);
    }
    if (checked === 0) continue;
    // Bags are sold for the whole itinerary (bookableByItinerary): charged once per traveler.
    const price = bagPrice(checked, currency);
    if (!price || traveler.travelerType === 'HELD_INFANT') {
      return { status: 400, code: 38034, title: 'ONE OR MORE SERVICES ARE NOT AVAILABLE', detail: `${checked} checked bags cannot be sold to traveler ${traveler.travelerId}.`, pointer: `/data/flightOffers/0/travelerPricings/${travelerIndex}` };
    }
    bags += toMinorUnits(price, currency);
  }
  return { seats: fromMinorUnits(seats, currency), bags: fromMinorUnits(bags, currency) };
}

/**
 * The offer's fare as the airline has it now, without paid extras: its grandTotal less the extras it lists
 * as already in it (`price.additionalServices`, the seats and bags chosen on its fare details); 8% more on
 * the price-change-at-booking flight. What an order costs is this plus its chosen extras (extrasOf), so an
 * extra chosen before pricing is paid once, at the price the seat maps and `included.bags` quote.
 */
export function currentFare(offer: OrderedOffer): string {
  const currency = offer.price.currency;
  const sent = toMinorUnits(fareOf(offer), currency);
  return fromMinorUnits(firstFlight(offer) === MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking ? (sent * 108n) / 100n : sent, currency);
}

/** The offer's fare as sent: its grandTotal less the paid extras it lists as included. */
export function fareOf(offer: OrderedOffer): string {
  const currency = offer.price.currency;
  const listed = (offer.price.additionalServices ?? []).reduce((sum, service) => sum + toMinorUnits(service.amount, currency), 0n);
  return fromMinorUnits(toMinorUnits(offer.price.grandTotal, currency) - listed, currency);
}

/** The sum of amounts in the offer's currency. */
export function sumOf(currency: string, ...amounts: string[]): string {
  return fromMinorUnits(amounts.reduce((sum, amount) => sum + toMinorUnits(amount, currency), 0n), currency);
}

/** The extras as the order document lists them under `price.additionalServices`: bags, then seats, none at 0. */
export function additionalServicesOf(extras: { seats: string; bags: string }, currency: string): { amount: string; type: string }[] {
  return [
    ...(toMinorUnits(extras.bags, currency) > 0n ? [{ amount: extras.bags, type: 'CHECKED_BAGS' }] : []),
    ...(toMinorUnits(extras.seats, currency) > 0n ? [{ amount: extras.seats, type: 'SEATS' }] : []),
  ];
}

export function discrepancy(current: string, requested: string): Refusal {
  return { status: 400, code: 37200, title: 'PRICE DISCREPANCY', detail: `Current grandTotal price (${current}) is different from request one (${requested})` };
}

export function firstFlight(offer: OrderedOffer): string {
  return offer.itineraries[0]?.segments[0]?.number ?? '';
}

/** The last moment the offer can be ticketed (its local date-time read as UTC, or the date's end). */
export function lastTicketingOf(offer: OrderedOffer): Date | undefined {
  if (offer.lastTicketingDateTime) return new Date(`${offer.lastTicketingDateTime.slice(0, 19)}Z`);
  if (offer.lastTicketingDate) return new Date(`${offer.lastTicketingDate}T23:59:59Z`);
  return undefined;
}
