/**
 * What provider_d's sandbox flies: routes with their flights (local times, durations, aircraft), adult
 * fares in EUR (the currency it settles in) and the exchange rates it quotes other currencies at. Flights
 * fly every day at the same local times; UTC follows each airport's real time zone (airport-clocks.ts).
 * Plausible, not real schedules.
 */

export interface Flight {
  airline: string;
  number: number;
  from: string;
  to: string;
  equipment: string;
  /** Local departure time, HH:MM. */
  departs: string;
  minutes: number;
  /** Days after the travel date it leaves (for a connection after midnight). */
  dayOffset?: number;
}

export interface Option {
  flights: Flight[];
  /** One adult, economy, in EUR. */
  fareEur: number;
  fareBasis: string;
}

/** A route's options, each direction. Options are the flights of one way; a return pairs two. */
export const ROUTES: Record<string, Option[]> = {
  'LHR-JFK': [
    { flights: [{ airline: 'BA', number: 117, from: 'LHR', to: 'JFK', equipment: '77W', departs: '08:25', minutes: 475 }], fareEur: 598.1, fareBasis: 'OLN0Z9B3' },
    {
      flights: [
        { airline: 'EI', number: 153, from: 'LHR', to: 'DUB', equipment: '320', departs: '06:35', minutes: 80 },
        { airline: 'EI', number: 105, from: 'DUB', to: 'JFK', equipment: '333', departs: '11:00', minutes: 430 },
      ],
      fareEur: 471.35,
      fareBasis: 'TLN7C1',
    },
    { flights: [{ airline: 'AA', number: 101, from: 'LHR', to: 'JFK', equipment: '77W', departs: '18:00', minutes: 480 }], fareEur: 552.9, fareBasis: 'NLN0ZXM1' },
  ],
  'JFK-LHR': [{ flights: [{ airline: 'BA', number: 112, from: 'JFK', to: 'LHR', equipment: '77W', departs: '19:30', minutes: 410 }], fareEur: 401.2, fareBasis: 'OLN0Z9B3' }],
  'LHR-CDG': [
    { flights: [{ airline: 'BA', number: 304, from: 'LHR', to: 'CDG', equipment: '320', departs: '07:15', minutes: 75 }], fareEur: 112.5, fareBasis: 'QV0BA' },
    { flights: [{ airline: 'AF', number: 1181, from: 'LHR', to: 'CDG', equipment: '320', departs: '10:05', minutes: 80 }], fareEur: 98.75, fareBasis: 'VS50BALG' },
  ],
  'CDG-LHR': [{ flights: [{ airline: 'BA', number: 307, from: 'CDG', to: 'LHR', equipment: '320', departs: '18:10', minutes: 75 }], fareEur: 104.3, fareBasis: 'QV0BA' }],
  'SFO-NRT': [{ flights: [{ airline: 'NH', number: 7, from: 'SFO', to: 'NRT', equipment: '77W', departs: '11:00', minutes: 685 }], fareEur: 915.7, fareBasis: 'VLX0SNH' }],
  'CDG-DXB': [{ flights: [{ airline: 'EK', number: 76, from: 'CDG', to: 'DXB', equipment: '77W', departs: '14:15', minutes: 360 }], fareEur: 689.37, fareBasis: 'ULSOPFR1' }],
  'KWI-DXB': [{ flights: [{ airline: 'KU', number: 675, from: 'KWI', to: 'DXB', equipment: '320', departs: '09:00', minutes: 95 }], fareEur: 188.6, fareBasis: 'YOWKW' }],
};

export const CITIES: Record<string, string> = {
  LHR: 'London',
  DUB: 'Dublin',
  CDG: 'Paris',
  JFK: 'New York',
  SFO: 'San Francisco',
  NRT: 'Tokyo',
  DXB: 'Dubai',
  KWI: 'Kuwait City',
};

/** Units of each currency per EUR. */
export const RATES: Record<string, number> = { EUR: 1, GBP: 0.85682, USD: 1.0842, JPY: 168.5, KWD: 0.3318 };

/** A checked bag, per passenger and journey, in EUR (the second costs twice as much). */
export const BAG_EUR = 52.5;

/**
 * Magic destinations: searched from anywhere (as LHR–CDG flown by BA 99xx), they steer check_flights
 * and save_booking onto the failure paths. The README lists them.
 */
export const MAGIC_DESTINATIONS = {
  /** check_flights answers `price_change: true` with a total 8% higher. */
  priceChange: 'ZPC',
  /** check_flights is fine; save_booking answers `price_change: true` with a total 8% higher. */
  priceChangeAtBooking: 'ZPB',
  /** check_flights answers `flights_invalid: true`: sold out. */
  soldOut: 'ZSO',
  /** check_flights answers 400 "Expired booking token", as it does for any token over 30 minutes old. */
  expired: 'ZEX',
  /** check_flights never answers `flights_checked: true`: the caller's polling runs out of time. */
  slow: 'ZSL',
  /** check_flights answers 500. */
  error: 'ZER',
  /** check_flights is fine; save_booking answers 500 and holds nothing. */
  errorAtBooking: 'ZEB',
  /**
   * check_flights is fine; save_booking answers only after SLOW_BOOKING_MS, longer than the 30 s a
   * caller waits, and holds nothing if the caller has hung up by then.
   */
  slowAtBooking: 'ZSB',
  /** A non-refundable fare: booked like any other, but its cancellation refunds nothing. */
  nonRefundable: 'ZNR',
} as const;

/** How long save_booking takes on MAGIC_DESTINATIONS.slowAtBooking: past provider_d's 30 s booking timeout. */
export const SLOW_BOOKING_MS = 35_000;

/**
 * What cancelling a paid booking costs, per passenger, in EUR (invented: the sources show no cancellation,
 * so the rule is an OTA's usual one: the fare back less a handling fee). A non-refundable fare refunds
 * nothing; an unpaid hold has nothing to refund (its frozen funds are simply released).
 */
export const CANCEL_FEE_EUR = 25;

/** A surname save_booking refuses, like a name that fails the provider's checks. */
export const MAGIC_INVALID_SURNAME = 'INVALID';

/** The options of a route, or of a magic destination (flown like LHR–CDG). */
export function optionsOf(from: string, to: string): Option[] {
  const magic = Object.values(MAGIC_DESTINATIONS).indexOf(to as never);
  if (magic >= 0) {
    return [{ flights: [{ airline: 'BA', number: 9901 + magic, from, to, equipment: '320', departs: '07:15', minutes: 75 }], fareEur: 112.5, fareBasis: 'QV0BA' }];
  }
  return ROUTES[`${from}-${to}`] ?? [];
}
