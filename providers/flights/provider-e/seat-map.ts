/**
 * provider_e's seat maps (per segment: every seat's state and position, and the seats it sells as
 * attachable SEAT services per passenger) → the normalized SeatMap: every seat keyed by its number,
 * available, occupied or blocked as it says, window, middle or aisle from its position, and its price for
 * the first passenger sold it when that is more than nothing (free seats are left out of `pricing`).
 */
import type { SeatMap } from '../../../core/flights/offer-schemas.js';
import { toDecimalString } from '../../../core/money/money.js';
import type { WireSeatMap } from './wire.js';

export function toSeatMap(native: WireSeatMap, offerId: string): SeatMap {
  const seatMap: SeatMap['seat_map'] = {};
  const pricing: SeatMap['pricing'] = {};
  const services = new Map<string, WireSeatMap['servicesAttachable'][number]>();
  // The first passenger's service stands for the seat (seat prices do not differ by passenger).
  for (const service of native.servicesAttachable) if (!services.has(service.seatNumber)) services.set(service.seatNumber, service);
  for (const seat of native.seats) {
    const number = seat.seatNumber;
    const service = services.get(number);
    // A seat is taken by attaching its service: one without a service cannot be chosen.
    const available = seat.status === 'AVAILABLE' && service !== undefined;
    seatMap[number] = {
      seat_number: number,
      row: number.slice(0, -1),
      column: number.slice(-1),
      is_available: available,
      is_occupied: seat.status === 'OCCUPIED',
      is_blocked: seat.status === 'BLOCKED',
      seat_type: seat.position.toLowerCase(),
      disclosures: [...(seat.exitRow ? ['exit_row'] : []), ...(seat.status === 'BLOCKED' ? ['restricted_seat_general'] : [])],
    };
    if (available && service.price.amount > 0) {
      pricing[number] = { amount: Number(toDecimalString(service.price.amount, service.price.currency, 'price.amount')), currency: service.price.currency };
    }
  }
  return { offer_id: offerId, segment_id: native.segmentRef, seat_map: seatMap, pricing };
}
