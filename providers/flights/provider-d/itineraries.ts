/**
 * The itineraries provider_d's sandbox sells, priced: what a booking token stands for (routes, dates,
 * passengers, currency, cabin, when it was searched), the search item it becomes, its flights with local
 * and UTC times, and its fares and bags in EUR and in the currency asked for.
 */
import crypto from 'node:crypto';
import { minorUnits } from '../../../core/money/money.js';
import { instantAtAirport, localTimeAt } from './airport-clocks.js';
import { BAG_EUR, CITIES, optionsOf, RATES, type Option } from './catalogue.js';

export const CABIN_FACTORS = { M: 1, W: 1.6, C: 3.2, F: 5.5 } as const;
export type Cabin = keyof typeof CABIN_FACTORS;
/** What a booking token stands for. */
export interface Token {
  legs: { route: string; option: number; date: string }[];
  adults: number;
  children: number;
  infants: number;
  currency: string;
  cabin: Cabin;
  searchedAt: number;
}
/** The search item a token stands for, in the searched currency. */
export function searchItem(token: Token): Record<string, unknown> {
  const bookingToken = Buffer.from(JSON.stringify(token)).toString('base64url');
  const route = segmentsOf(token);
  const legs = token.legs.map((leg) => ({ leg, segments: route.filter((segment) => segment.return === (leg === token.legs[0] ? 0 : 1)) }));
  const seconds = (segments: typeof route) =>
    segments.length === 0 ? 0 : (Date.parse(segments.at(-1)?.utc_arrival as string) - Date.parse(segments[0]?.utc_departure as string)) / 1000;
  const eur = totalEur(token);
  return {
    id: route.map((segment) => segment.id).join('|'),
    booking_token: bookingToken,
    flyFrom: route[0]?.flyFrom,
    flyTo: legs[0]?.segments.at(-1)?.flyTo,
    price: convert(eur, token.currency),
    conversion: { EUR: eur, [token.currency]: convert(eur, token.currency) },
    fare: {
      adults: convert(fareEur(token, 'adult'), token.currency),
      children: convert(fareEur(token, 'child'), token.currency),
      infants: convert(fareEur(token, 'infant'), token.currency),
    },
    // For the whole trip, as check_flights prices its bag combinations.
    bags_price: { '1': convert(bagPriceEur(1) * token.legs.length, token.currency), '2': convert(bagPriceEur(2) * token.legs.length, token.currency) },
    baglimit: { hand_width: 40, hand_height: 55, hand_length: 20, hand_weight: 8, hold_width: 52, hold_height: 78, hold_length: 28, hold_dimensions_sum: 158, hold_weight: 23 },
    availability: { seats: 9 },
    airlines: [...new Set(route.map((segment) => segment.airline))],
    route,
    duration: { departure: seconds(legs[0]?.segments ?? []), return: seconds(legs[1]?.segments ?? []), total: seconds(legs[0]?.segments ?? []) + seconds(legs[1]?.segments ?? []) },
    deep_link: `https://sandbox.invalid/booking?token=${bookingToken.slice(0, 16)}`,
    virtual_interlining: false,
  };
}

export function segmentsOf(token: Token) {
  return token.legs.flatMap((leg, legIndex) => {
    const [from, to] = leg.route.split('-') as [string, string];
    const option = optionsOf(from, to)[leg.option] as Option;
    return option.flights.map((flight) => {
      const date = addDays(leg.date, flight.dayOffset ?? 0);
      const localDeparture = `${date}T${flight.departs}:00`;
      const utcDeparture = instantAtAirport(flight.from, localDeparture).getTime();
      const utcArrival = utcDeparture + flight.minutes * 60_000;
      return {
        id: segmentId(flight.airline, flight.number, date),
        flyFrom: flight.from,
        flyTo: flight.to,
        cityFrom: CITIES[flight.from] ?? flight.from,
        cityTo: CITIES[flight.to] ?? flight.to,
        airline: flight.airline,
        operating_carrier: flight.airline,
        flight_no: flight.number,
        operating_flight_no: String(flight.number),
        equipment: flight.equipment,
        fare_basis: option.fareBasis,
        fare_category: token.cabin,
        fare_classes: token.cabin === 'M' ? 'O' : token.cabin === 'W' ? 'T' : token.cabin === 'C' ? 'J' : 'F',
        return: legIndex === 0 ? 0 : 1,
        // provider_d writes local times with a Z that does not mean UTC.
        local_departure: `${localDeparture}.000Z`,
        utc_departure: new Date(utcDeparture).toISOString(),
        local_arrival: `${localTimeAt(flight.to, new Date(utcArrival))}.000Z`,
        utc_arrival: new Date(utcArrival).toISOString(),
      };
    });
  });
}

/** A flight's id on a day (its local departure date): the same whoever searches it, and whenever. */
export function segmentId(airline: string, number: number, date: string): string {
  return `${crypto.createHash('sha1').update(`${airline}${number}${date}`).digest('hex').slice(0, 24)}_0`;
}

/** One passenger of a type, all legs, in EUR. */
export function fareEur(token: Token, type: 'adult' | 'child' | 'infant'): number {
  const factor = { adult: 1, child: 0.75, infant: 0.1 }[type] * CABIN_FACTORS[token.cabin];
  return round(
    token.legs.reduce((sum, leg) => {
      const [from, to] = leg.route.split('-') as [string, string];
      return sum + (optionsOf(from, to)[leg.option]?.fareEur ?? 0) * factor;
    }, 0),
    2,
  );
}

export function totalEur(token: Token): number {
  return round(fareEur(token, 'adult') * token.adults + fareEur(token, 'child') * token.children + fareEur(token, 'infant') * token.infants, 2);
}

export function bagPriceEur(count: number): number {
  return round(BAG_EUR * count * (count + 1) * 0.5, 2);
}

export function baggage(currency: string, token: Token) {
  const seated = ['adult', 'child'];
  const price = (eur: number) => ({ amount: convert(eur, currency), base: convert(eur, currency), currency });
  return {
    definitions: {
      hold_bag: [{ category: 'hold_bag', price: price(bagPriceEur(1)), restrictions: { weight: 23, length: 78, width: 28, height: 52, dimensions_sum: 158 }, conditions: { passenger_groups: seated } }],
      hand_bag: [{ category: 'hand_bag', price: price(0), restrictions: { weight: 8, length: 55, width: 40, height: 20, dimensions_sum: 115 }, conditions: { passenger_groups: seated } }],
    },
    combinations: {
      hold_bag: [
        { indices: [], category: 'hold_bag', conditions: { passenger_groups: seated }, price: price(0) },
        { indices: [0], category: 'hold_bag', conditions: { passenger_groups: seated }, price: price(bagPriceEur(1) * token.legs.length) },
        { indices: [0, 0], category: 'hold_bag', conditions: { passenger_groups: seated }, price: price(bagPriceEur(2) * token.legs.length) },
      ],
      hand_bag: [{ indices: [0], category: 'hand_bag', conditions: { passenger_groups: seated }, price: price(0) }],
    },
  };
}
export function convert(eur: number, currency: string): number {
  return round(eur * (RATES[currency] ?? 1), minorUnits(currency) ?? 2);
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
export function addDays(iso: string, count: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);
}
