/**
 * The rules of provider_d's sandbox bookings: the booking as it keeps it (its native shape, stored in
 * the sandbox order table), which passengers and bags save_booking takes, what a booking costs, and
 * what cancelling it refunds.
 */
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { CANCEL_FEE_EUR, MAGIC_INVALID_SURNAME } from './catalogue.js';
import { bagPriceEur, convert, round, totalEur, type Token } from './itineraries.js';

export type BookingStatus = 'CONFIRMATION_PENDING' | 'CONFIRMED' | 'CANCELLED';

/** Money as provider_d states it: EUR, which it settles in, and the searched currency under `conversion`. */
export interface Money {
  amount: number;
  currency: 'EUR';
  conversion: { currency: string; amount: number };
}

/**
 * A booking, as GET /v2/booking/{id} shows it (less `owner`). Fields past those save_booking documents
 * (booking_id, transaction_id, status, total, passengers) are invented: `client_reference`, `pnr`,
 * `conversion`, `booked_at`, `payment_deadline`, `confirmed_at`, `fare`, `baggage`, `cancellation`.
 */
export interface NativeBooking {
  booking_id: number;
  transaction_id: string;
  client_reference: string | null;
  /** Whose booking it is (a digest of the API key that made it). */
  owner: string;
  status: BookingStatus;
  /** The airline's booking reference, once paid. */
  pnr: string | null;
  /** In EUR. */
  total: number;
  currency: 'EUR';
  conversion: { currency: string; amount: number };
  /** Whether the total moved between check_flights and save_booking. */
  price_change: boolean;
  booked_at: string;
  /** confirm_payment must come before this: the hold's 30 minutes. */
  payment_deadline: string;
  confirmed_at: string | null;
  fare: { refundable: boolean; fare_basis: string };
  passengers: { pk: number; bid: number; name: string; surname: string; title: string; birthday: string; category: string; nationality: string | null }[];
  baggage: { combination: { category: 'hold_bag' | 'hand_bag'; indices: number[] }; passengers: number[] }[];
  cancellation: { cancelled_at: string; reason: 'cancelled' | 'confirm payment timeout'; refund: Money | null } | null;
}

export interface PassengerInput {
  name?: unknown;
  surname?: unknown;
  title?: unknown;
  birthday?: unknown;
  category?: unknown;
  nationality?: unknown;
  cardno?: unknown;
  expiration?: unknown;
  email?: unknown;
  phone?: unknown;
}

const NAME = /^[\p{L}][\p{L} '-]*$/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const PHONE = /^\+?[0-9][0-9 -]{5,19}$/;

/**
 * Why a passenger is refused, in the provider's words, or null. Documents are required: its
 * check_flights says `document_need: 2`, and a passport must outlive the trip's first flight.
 */
export function passengerProblem(passenger: PassengerInput, index: number, firstFlight: string): string | null {
  const at = `passengers[${index}]`;
  if (typeof passenger.name !== 'string' || !NAME.test(passenger.name)) return `${at}.name: letters only`;
  if (typeof passenger.surname !== 'string' || !NAME.test(passenger.surname) || passenger.surname.toUpperCase() === MAGIC_INVALID_SURNAME) {
    return `${at}.surname: not a valid surname`;
  }
  if (passenger.title !== 'Mr' && passenger.title !== 'Ms') return `${at}.title: must be Mr or Ms`;
  if (typeof passenger.birthday !== 'string' || !DATE.test(passenger.birthday)) return `${at}.birthday: YYYY-MM-DD`;
  if (!['adult', 'child', 'infant'].includes(String(passenger.category))) return `${at}.category: adult, child or infant`;
  if (typeof passenger.nationality !== 'string' || !/^[A-Z]{2}$/.test(passenger.nationality)) return `${at}.nationality: a two-letter country code`;
  if (typeof passenger.cardno !== 'string' || !/^[A-Z0-9]{5,20}$/i.test(passenger.cardno)) return `${at}.cardno: the travel document's number`;
  if (typeof passenger.expiration !== 'string' || !DATE.test(passenger.expiration) || passenger.expiration <= firstFlight) {
    return `${at}.expiration: the document must be valid beyond the first flight`;
  }
  if (index === 0 && (typeof passenger.email !== 'string' || !passenger.email.includes('@'))) return `${at}.email: an e-mail address`;
  if (index === 0 && (typeof passenger.phone !== 'string' || !PHONE.test(passenger.phone))) return `${at}.phone: a phone number such as +447700900123`;
  if (passenger.phone !== undefined && (typeof passenger.phone !== 'string' || !PHONE.test(passenger.phone))) return `${at}.phone: a phone number such as +447700900123`;
  return null;
}

export interface BaggageInput {
  combination?: { indices?: unknown; category?: unknown };
  passengers?: unknown;
}

/**
 * The bags save_booking takes: combinations check_flights offers (hand bags: the one free one; hold
 * bags: up to two), each for passengers by index, never an infant, one combination per category each.
 */
export function readBaggage(input: BaggageInput[], categories: string[]): NativeBooking['baggage'] | string {
  const taken = new Set<string>();
  const bags: NativeBooking['baggage'] = [];
  for (const [index, bag] of input.entries()) {
    const at = `baggage[${index}]`;
    const category = bag.combination?.category;
    const indices = bag.combination?.indices;
    if ((category !== 'hold_bag' && category !== 'hand_bag') || !Array.isArray(indices) || indices.some((item) => item !== 0)) return `${at}.combination: not one check_flights offers`;
    if ((category === 'hold_bag' && indices.length > 2) || (category === 'hand_bag' && indices.length !== 1)) return `${at}.combination: not one check_flights offers`;
    if (!Array.isArray(bag.passengers) || bag.passengers.length === 0) return `${at}.passengers: passenger indexes`;
    for (const passenger of bag.passengers) {
      if (!Number.isInteger(passenger) || categories[passenger as number] === undefined) return `${at}.passengers: no passenger ${String(passenger)}`;
      if (categories[passenger as number] === 'infant') return `${at}.passengers: infants carry no bags of their own`;
      if (taken.has(`${category}:${passenger}`)) return `${at}.passengers: passenger ${passenger} already has a ${category} combination`;
      taken.add(`${category}:${passenger}`);
    }
    bags.push({ combination: { category, indices: indices as number[] }, passengers: bag.passengers as number[] });
  }
  return bags;
}

/**
 * What a booking costs: the fare and each passenger's hold bags, as check_flights priced them. In the
 * searched currency it is the sum of the prices quoted in it (each already rounded), so that what a
 * partner adds up from the quotes is what it is charged. `surcharge` moves the whole total (a price
 * change at booking).
 */
export function bookingTotal(token: Token, baggage: NativeBooking['baggage'], surcharge = 1): { total: number; conversion: { currency: string; amount: number } } {
  const legs = token.legs.length;
  const currency = token.currency;
  const bagsEur = baggage.filter((bag) => bag.combination.category === 'hold_bag').flatMap((bag) => bag.passengers.map(() => bagPriceEur(bag.combination.indices.length) * legs));
  const partsEur = [totalEur(token), ...bagsEur];
  const eur = round(partsEur.reduce((sum, part) => sum + part, 0), 2);
  if (surcharge !== 1) {
    const moved = round(eur * surcharge, 2);
    return { total: moved, conversion: { currency, amount: convert(moved, currency) } };
  }
  const minor = partsEur.reduce((sum, part) => sum + toMinorUnits(convert(part, currency), currency), 0n);
  return { total: eur, conversion: { currency, amount: Number(fromMinorUnits(minor, currency)) } };
}

/**
 * What cancelling gives back: nothing on an unpaid hold (nothing was taken) or a non-refundable fare;
 * otherwise the total less CANCEL_FEE_EUR per passenger, in EUR and in the booking's currency.
 */
export function refundOf(booking: NativeBooking): Money | null {
  if (booking.status !== 'CONFIRMED' || !booking.fare.refundable) return null;
  const feeEur = CANCEL_FEE_EUR * booking.passengers.length;
  const currency = booking.conversion.currency;
  const back = toMinorUnits(booking.conversion.amount, currency) - toMinorUnits(convert(feeEur, currency), currency);
  if (back <= 0n) return null;
  return { amount: Math.max(0, round(booking.total - feeEur, 2)), currency: 'EUR', conversion: { currency, amount: Number(fromMinorUnits(back, currency)) } };
}

/** The booking as the provider shows it: everything but whose it is. */
export function view(booking: NativeBooking): Omit<NativeBooking, 'owner'> {
  const { owner: _owner, ...visible } = booking;
  return visible;
}
