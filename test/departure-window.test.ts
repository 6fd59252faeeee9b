/**
 * When a flight leaves, and whether it can still be booked (issue 23, item 1): airports' local times read
 * in their IANA zones (summer and winter, the changes of clocks, an airport the table does not know), and
 * the departure window: a flight that has left, one inside `min_advance_booking_hours`, and one beyond
 * `max_advance_booking_days` are refused with their codes and a message naming the flight; the limits
 * themselves are bookable (exactly the shortest notice ahead, exactly the longest time ahead).
 */
import test from 'ava';
import { instantAt, timeZoneOf } from '../core/flights/airport-zones.js';
import { checkDepartureWindow, departuresOf } from '../core/flights/departure-window.js';
import type { Offer } from '../core/flights/offer-schemas.js';
import type { ProviderCapabilities } from '../core/flights/schemas.js';
import { PROVIDERS } from '../seeds/providers.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const at = (airport: string, local: string) => instantAt(airport, local).toISOString();

test('London is UTC+1 in summer and UTC in winter', (t) => {
  t.is(at('LHR', '2026-07-01T08:00'), '2026-07-01T07:00:00.000Z');
  t.is(at('LHR', '2026-12-01T08:00'), '2026-12-01T08:00:00.000Z');
  t.is(at('LGW', '2026-07-01T08:00:00'), '2026-07-01T07:00:00.000Z', 'seconds may be given');
  t.is(at('lhr', '2026-07-01T08:00'), '2026-07-01T07:00:00.000Z', 'codes in any case');
});

test('New York is UTC−4 in summer and UTC−5 in winter', (t) => {
  t.is(at('JFK', '2026-07-01T08:00'), '2026-07-01T12:00:00.000Z');
  t.is(at('JFK', '2026-12-01T08:00'), '2026-12-01T13:00:00.000Z');
  t.is(at('JFK', '2026-12-31T22:30'), '2027-01-01T03:30:00.000Z', 'a local evening can be the next UTC day (and year)');
});

test('Tokyo is UTC+9 all year', (t) => {
  t.is(at('NRT', '2026-07-01T08:00'), '2026-06-30T23:00:00.000Z', 'a local morning can be the UTC day before');
  t.is(at('NRT', '2026-12-01T08:00'), '2026-11-30T23:00:00.000Z');
  t.is(at('HND', '2026-12-01T08:00'), '2026-11-30T23:00:00.000Z');
});

test('around the changes of clocks: the hours either side, the hour skipped and the hour that happens twice (the later reading, in every zone)', (t) => {
  // London, 29 March 2026: at 01:00 UTC clocks go from 01:00 to 02:00.
  t.is(at('LHR', '2026-03-29T00:30'), '2026-03-29T00:30:00.000Z', 'before the change: UTC');
  t.is(at('LHR', '2026-03-29T03:00'), '2026-03-29T02:00:00.000Z', 'after it: UTC+1');
  t.is(at('LHR', '2026-03-29T01:30'), '2026-03-29T01:30:00.000Z', '01:30 never shows: read at the offset before the change (02:30 summer time)');
  // London, 25 October 2026: at 01:00 UTC clocks go back from 02:00 to 01:00; 01:30 happens twice.
  t.is(at('LHR', '2026-10-25T00:30'), '2026-10-24T23:30:00.000Z');
  t.is(at('LHR', '2026-10-25T01:30'), '2026-10-25T01:30:00.000Z', 'the second 01:30 (winter time)');
  t.is(at('LHR', '2026-10-25T02:30'), '2026-10-25T02:30:00.000Z');
  // New York, 8 March 2026 (02:00 → 03:00) and 1 November 2026 (02:00 → 01:00): the same rule west of UTC.
  t.is(at('JFK', '2026-03-08T01:30'), '2026-03-08T06:30:00.000Z');
  t.is(at('JFK', '2026-03-08T02:30'), '2026-03-08T07:30:00.000Z', '02:30 never shows: read at the offset before the change (03:30 summer time)');
  t.is(at('JFK', '2026-03-08T03:30'), '2026-03-08T07:30:00.000Z');
  t.is(at('JFK', '2026-11-01T01:30'), '2026-11-01T06:30:00.000Z', 'the second 01:30 (winter time)');
  // Sydney, 5 April 2026 (03:00 → 02:00): south of the equator the change back is in April.
  t.is(at('SYD', '2026-04-05T02:30'), '2026-04-04T16:30:00.000Z', 'the second 02:30 (UTC+10)');
  t.is(at('SYD', '2026-04-05T12:00'), '2026-04-05T02:00:00.000Z');
});

test('an airport the table does not know is read at UTC−12, the latest its local time can be anywhere', (t) => {
  t.is(timeZoneOf('QQQ'), undefined);
  t.is(at('QQQ', '2026-07-01T08:00'), '2026-07-01T20:00:00.000Z');
  t.is(at('QQQ', '2026-12-01T08:00'), '2026-12-01T20:00:00.000Z', 'in every season');
  for (const known of ['LHR', 'JFK', 'NRT', 'SFO', 'KWI', 'DXB', 'DUB', 'CDG']) {
    t.true(instantAt(known, '2026-07-01T08:00') <= instantAt('QQQ', '2026-07-01T08:00'), `${known} is never read later than an unknown airport`);
  }
});

test('a local time that is not one is a RangeError', (t) => {
  t.throws(() => instantAt('LHR', 'tomorrow'), { instanceOf: RangeError });
});

// The window, with provider_b's seeded limits: at least 2 hours' notice, at most 330 days ahead.
const capabilities = PROVIDERS.find((provider) => provider.id === 'provider_b')?.capabilities as ProviderCapabilities;
const NOW = new Date('2026-07-01T12:00:00Z');

interface Flight {
  flight: string;
  from: string;
  to: string;
  local: string;
}

/** An offer of these slices, each a list of flights (`BA304`, from, to, local departure). */
function offerOf(...slices: Flight[][]): Pick<Offer, 'slices'> {
  return {
    slices: slices.map((flights) => ({
      segments: flights.map(({ flight, from, to, local }) => ({
        marketing_carrier: { iata_code: flight.slice(0, 2) },
        marketing_carrier_flight_number: flight.slice(2),
        origin: { iata_code: from },
        destination: { iata_code: to },
        departing_at: local,
      })),
    })),
  } as unknown as Pick<Offer, 'slices'>;
}

/** The wall-clock time `ms` after NOW at `airport`, as providers write it (no offset). */
function localIn(airport: string, ms: number): string {
  const zone = timeZoneOf(airport) ?? 'Etc/GMT+12';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(NOW.getTime() + ms))
      .map(({ type, value }) => [type, value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const oneWay = (ms: number, from = 'LHR') => offerOf([{ flight: 'BA304', from, to: 'CDG', local: localIn(from, ms) }]);

/** The refusal's code and message, or undefined when the offer can be booked. */
function refusal(offer: Pick<Offer, 'slices'>, now = NOW, limits = capabilities): { code: string; status: string; message: string } | undefined {
  try {
    checkDepartureWindow(offer, limits, 'provider_b', now);
    return undefined;
  } catch (error) {
    const { code, kind, message } = error as { code: string; kind: string; message: string };
    return { code, status: kind, message };
  }
}

test('a flight that has left is refused: 422 flight_departed, naming the flight and its local time', (t) => {
  const yesterday = offerOf([{ flight: 'BA304', from: 'LHR', to: 'CDG', local: '2026-06-30T13:00:00' }]);
  t.deepEqual(refusal(yesterday), {
    code: 'flight_departed',
    status: 'unprocessable',
    message: 'BA304 from LHR at 2026-06-30 13:00 local time has already departed: it cannot be booked. Search again for a later flight.',
  });
  t.is(refusal(oneWay(-60_000))?.code, 'flight_departed', 'a minute ago');
  t.is(refusal(oneWay(0))?.code, 'flight_departed', 'leaving this very instant is leaving');
});

test('a flight inside min_advance_booking_hours is refused: 422 departure_too_soon; exactly that notice ahead is bookable', (t) => {
  // 13:00 in London in July is 12:00 UTC: an hour after NOW would be 14:00 local.
  t.deepEqual(refusal(offerOf([{ flight: 'BA304', from: 'LHR', to: 'CDG', local: '2026-07-01T14:00' }])), {
    code: 'departure_too_soon',
    status: 'unprocessable',
    message:
      "BA304 from LHR at 2026-07-01 14:00 local time departs in less than 2 hours, provider_b's shortest notice (min_advance_booking_hours): it can no longer be booked through us. Choose a later flight.",
  });
  t.is(refusal(oneWay(2 * HOUR_MS - 1_000))?.code, 'departure_too_soon', 'a second short of two hours');
  t.is(refusal(oneWay(2 * HOUR_MS)), undefined, 'exactly two hours ahead is bookable');
  t.is(refusal(oneWay(2 * HOUR_MS + 60_000)), undefined);
  t.regex(refusal(oneWay(30 * 60_000), NOW, { ...capabilities, min_advance_booking_hours: 1 })?.message ?? '', /departs in less than 1 hour, /, 'one hour, singular');
  t.is(refusal(oneWay(1_000), NOW, { ...capabilities, min_advance_booking_hours: 0 }), undefined, 'no notice asked: anything not yet left is bookable');
});

test('the local time is read in the origin airport’s zone: the same wall-clock time is departed in Tokyo, too soon in London and bookable in New York', (t) => {
  // NOW is 21:00 in Tokyo, 13:00 in London, 08:00 in New York.
  const at1330 = (from: string) => offerOf([{ flight: 'JL5', from, to: 'SFO', local: '2026-07-01T13:30' }]);
  t.is(refusal(at1330('NRT'))?.code, 'flight_departed');
  t.is(refusal(at1330('LHR'))?.code, 'departure_too_soon');
  t.is(refusal(at1330('JFK')), undefined);
  t.is(refusal(at1330('QQQ')), undefined, 'an unknown airport never refuses a flight its own clock may still show ahead (read at UTC−12: 01:30 UTC tomorrow)');
});

test('a flight further ahead than max_advance_booking_days is refused: 422 departure_too_far_ahead; exactly that far is bookable', (t) => {
  t.is(refusal(oneWay(330 * DAY_MS)), undefined, 'exactly 330 days ahead is bookable');
  const beyond = refusal(oneWay(330 * DAY_MS + 60_000));
  t.is(beyond?.code, 'departure_too_far_ahead');
  t.is(beyond?.status, 'unprocessable');
  // NOW + 330 days is 2027-05-27 12:00 UTC, 13:00 summer time in London; a minute later is 13:01.
  t.is(beyond?.message, "BA304 from LHR at 2027-05-27 13:01 local time is more than 330 days ahead, beyond what provider_b sells (max_advance_booking_days): book it nearer the date.");
});

test('a return whose last flight is beyond max_advance_booking_days is refused, naming that flight', (t) => {
  const trip = offerOf(
    [{ flight: 'BA117', from: 'LHR', to: 'JFK', local: localIn('LHR', 300 * DAY_MS) }],
    [{ flight: 'BA178', from: 'JFK', to: 'LHR', local: localIn('JFK', 335 * DAY_MS) }],
  );
  const refused = refusal(trip);
  t.is(refused?.code, 'departure_too_far_ahead');
  t.true(refused?.message.startsWith(`BA178 from JFK at ${localIn('JFK', 335 * DAY_MS).slice(0, 16).replace('T', ' ')} local time is more than 330 days ahead`), refused?.message);
  const within = offerOf(
    [{ flight: 'BA117', from: 'LHR', to: 'JFK', local: localIn('LHR', 300 * DAY_MS) }],
    [{ flight: 'BA178', from: 'JFK', to: 'LHR', local: localIn('JFK', 329 * DAY_MS) }],
  );
  t.is(refusal(within), undefined, 'both flights within the window');
});

test('the first flight to leave decides departed and too soon, whatever the order of slices and segments', (t) => {
  // A connection whose second flight is listed first, and a return listed before its outbound.
  const connection = offerOf([
    { flight: 'EI105', from: 'DUB', to: 'JFK', local: localIn('DUB', 5 * HOUR_MS) },
    { flight: 'EI155', from: 'LHR', to: 'DUB', local: localIn('LHR', HOUR_MS) },
  ]);
  const refused = refusal(connection);
  t.is(refused?.code, 'departure_too_soon');
  t.true(refused?.message.startsWith('EI155 from LHR'), refused?.message);
  t.deepEqual(
    departuresOf(connection).map((departure) => departure.flight),
    ['EI155', 'EI105'],
  );
  const returnFirst = offerOf(
    [{ flight: 'BA178', from: 'JFK', to: 'LHR', local: localIn('JFK', 7 * DAY_MS) }],
    [{ flight: 'BA117', from: 'LHR', to: 'JFK', local: localIn('LHR', -DAY_MS) }],
  );
  t.true(refusal(returnFirst)?.message.startsWith('BA117 from LHR'));
  t.is(refusal(returnFirst)?.code, 'flight_departed');
});

test('every provider seeds a window: 2 hours’ notice, 330 days ahead', (t) => {
  for (const provider of PROVIDERS) {
    t.is(provider.capabilities.min_advance_booking_hours, 2, provider.id);
    t.is(provider.capabilities.max_advance_booking_days, 330, provider.id);
  }
});
