/**
 * What provider_b's sandbox checks in an order before placing it, each check answering the failure in
 * its dialect (type, code, message) or nothing: the passengers (every passenger of the offer, once, with
 * the fields the airline needs) and the services (the offer's own, and seats from its seat maps).
 */
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { SOLD_OUT_SURNAME, type NativeOffer } from './sandbox-catalogue.js';
import type { NativeOrderService } from './sandbox-order-document.js';
import { seatServices } from './sandbox-seat-maps.js';

export interface Refusal {
  status: number;
  type: string;
  code: string;
  title: string;
  message: string;
}

const invalid = (code: string, message: string): Refusal => ({ status: 422, type: 'validation_error', code, title: 'Invalid data', message });

// Names are letters, spaces, hyphens and apostrophes, as airlines print them on tickets.
export const NAME = /^[\p{L}][\p{L} '-]*$/u;
const TITLES = ['mr', 'ms', 'mrs', 'miss', 'dr'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type OrderPassengerInput = Record<string, unknown> & { id?: unknown; given_name?: unknown; family_name?: unknown };

export function passengerRefusal(offer: NativeOffer, passengers: OrderPassengerInput[], now: Date): Refusal | undefined {
  const known = new Set(offer.passengers.map((passenger) => passenger.id));
  const named = new Set(passengers.map((passenger) => passenger.id));
  if (passengers.length !== known.size || named.size !== known.size || [...named].some((id) => !known.has(String(id)))) {
    return invalid('invalid_passenger', "passengers[].id must be the offer's passenger ids, each once.");
  }
  const today = now.toISOString().slice(0, 10);
  for (const passenger of passengers) {
    if (![passenger.given_name, passenger.family_name].every((name) => typeof name === 'string' && NAME.test(name))) {
      return invalid('invalid_passenger_name', 'The passenger name contains invalid characters.');
    }
    if (!TITLES.includes(String(passenger.title))) return invalid('validation_required', `passengers[].title must be one of ${TITLES.join(', ')}.`);
    if (passenger.gender !== 'm' && passenger.gender !== 'f') return invalid('validation_required', 'passengers[].gender must be m or f.');
    if (typeof passenger.born_on !== 'string' || !DATE.test(passenger.born_on) || passenger.born_on > today) {
      return invalid('invalid_born_on', 'passengers[].born_on must be a past date, YYYY-MM-DD.');
    }
    if (typeof passenger.email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(passenger.email)) return invalid('validation_required', 'passengers[].email is required.');
    if (typeof passenger.phone_number !== 'string' || !/^\+[1-9]\d{6,14}$/.test(passenger.phone_number)) {
      return invalid('invalid_phone_number', 'passengers[].phone_number must be in E.164 format, such as +442080160508.');
    }
    const documents = Array.isArray(passenger.identity_documents) ? (passenger.identity_documents as Record<string, unknown>[]) : [];
    if (offer.passenger_identity_documents_required && documents.length === 0) {
      return invalid('validation_required', 'passengers[].identity_documents is required for this offer.');
    }
    for (const document of documents) {
      if (typeof document.unique_identifier !== 'string' || typeof document.expires_on !== 'string' || document.expires_on <= today) {
        return invalid('invalid_identity_document', 'identity_documents[] need a unique_identifier and an expires_on in the future.');
      }
    }
  }
  return undefined;
}

/** A family name the airline cannot sell to now: the flight is full. */
export const soldOutFor = (passengers: OrderPassengerInput[]) => passengers.some((passenger) => String(passenger.family_name).toUpperCase() === SOLD_OUT_SURNAME);

/** The order's services with their prices, or why they cannot be sold. */
export function pricedServices(offer: NativeOffer, requested: { id?: unknown; quantity?: unknown }[]): { services: NativeOrderService[]; total: string } | Refusal {
  const currency = offer.total_currency;
  const unavailable = (message: string): Refusal => ({ status: 422, type: 'invalid_state_error', code: 'service_not_available', title: 'Service not available', message });
  const offered = new Map((offer.available_services ?? []).map((service) => [service.id, service]));
  const seats = requested.some((item) => String(item.id).startsWith('ase_s')) ? seatServices(offer) : new Map();
  const services: NativeOrderService[] = [];
  const seatTaken = new Set<string>();
  let total = 0n;
  for (const item of requested) {
    const quantity = item.quantity;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) return invalid('validation_required', 'services[].quantity must be a positive integer.');
    const service = offered.get(String(item.id));
    const seat = seats.get(String(item.id));
    if (service) {
      if (quantity > (service.maximum_quantity ?? 1)) return unavailable(`At most ${service.maximum_quantity ?? 1} of ${service.id} can be bought.`);
      const amount = toMinorUnits(service.total_amount, currency) * BigInt(quantity);
      total += amount;
      services.push({ ...pick(service), quantity, total_amount: fromMinorUnits(amount, currency), metadata: {} });
    } else if (seat) {
      // One seat per passenger and segment, and one passenger per seat.
      const keys = [`${seat.segmentId}/${seat.passengerId}`, `${seat.segmentId}#${seat.designator}`];
      if (quantity !== 1 || keys.some((key) => seatTaken.has(key))) return unavailable('A seat is for one passenger, and a passenger has one seat per segment.');
      keys.forEach((key) => seatTaken.add(key));
      total += toMinorUnits(seat.totalAmount, currency);
      services.push({
        id: seat.id,
        type: 'seat',
        quantity: 1,
        total_amount: seat.totalAmount,
        total_currency: currency,
        passenger_ids: [seat.passengerId],
        segment_ids: [seat.segmentId],
        metadata: { designator: seat.designator, disclosures: [] },
      });
    } else {
      return unavailable(`The service ${String(item.id)} is not available on this offer (or the seat is taken).`);
    }
  }
  return { services, total: fromMinorUnits(total, currency) };
}

function pick(service: NonNullable<NativeOffer['available_services']>[number]) {
  return { id: service.id, type: service.type, total_currency: service.total_currency, passenger_ids: service.passenger_ids, segment_ids: service.segment_ids };
}
