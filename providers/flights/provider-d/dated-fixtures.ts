/**
 * provider_d's fixtures as its sandbox would answer them on a given day. On disk they stay as searched on
 * FIXTURE_TODAY (their golden normalized copies depend on it); moved by the sandbox calendar, each flight
 * leaves the same days ahead of `now` at the same local time, its UTC times follow the airports' real
 * zones in that season, and its booking token says the moved dates and was issued at `now`, so
 * check_flights and save_booking take it for the next 30 minutes (a token carries what was searched:
 * dates, passengers, when). What the sandbox derives from a token moves with it: the segments' ids, the
 * item's id, its deep link, and a kept check's session id.
 */
import fs from 'node:fs';
import { sandboxCalendar, type SandboxCalendar } from '../sandbox-calendar.js';
import { instantAtAirport, localTimeAt } from './airport-clocks.js';
import { segmentId, type Token } from './itineraries.js';
import { sessionOf } from './sandbox-dialect.js';

interface Segment {
  id: string;
  airline: string;
  flight_no: number;
  flyFrom: string;
  flyTo: string;
  local_departure: string;
  utc_departure: string;
  local_arrival: string;
  utc_arrival: string;
  [field: string]: unknown;
}

/** A native offer or search answer of provider_d, as the fixtures are: only what dating touches is named. */
export interface NativeFixture {
  search_params?: Record<string, unknown>;
  data: { id: string; booking_token: string; deep_link?: string; route: Segment[]; [field: string]: unknown }[];
  check_flights?: { server_time?: number; session_id?: string; flights?: Segment[]; [field: string]: unknown };
  [field: string]: unknown;
}

/** The fixture `name` (`lhr-jfk-gbp`, from providers/flights/provider-d/fixtures/), dated for `now`. */
export function datedFixture(name: string, now = new Date()): NativeFixture {
  const file = new URL(`./fixtures/${name}.json`, import.meta.url);
  return dateFixture(JSON.parse(fs.readFileSync(file, 'utf8')) as NativeFixture, now);
}

/** A native fixture moved to the calendar of `now` (the one given is left as it was). */
export function dateFixture(fixture: NativeFixture, now: Date): NativeFixture {
  const calendar = sandboxCalendar(now);
  const data = fixture.data.map((item) => {
    const bookingToken = moveToken(item.booking_token, calendar, now);
    const route = item.route.map((segment) => moveSegment(segment, calendar));
    const ids = new Map(item.route.map((segment, index) => [segment.id, route[index]?.id as string]));
    return {
      ...item,
      id: item.id.split('|').map((id) => ids.get(id) ?? id).join('|'),
      booking_token: bookingToken,
      route,
      ...(item.deep_link ? { deep_link: item.deep_link.replace(item.booking_token.slice(0, 16), bookingToken.slice(0, 16)) } : {}),
    };
  });
  const check = fixture.check_flights;
  return {
    ...fixture,
    ...(fixture.search_params ? { search_params: moveDays(fixture.search_params, calendar) } : {}),
    data,
    ...(check
      ? {
          check_flights: {
            ...check,
            server_time: Math.floor(now.getTime() / 1000),
            // The session check_flights opens is derived from the token: a new token, a new session.
            ...(check.session_id && data[0] ? { session_id: sessionOf(data[0].booking_token) } : {}),
            ...(check.flights ? { flights: check.flights.map((segment) => moveSegment(segment, calendar)) } : {}),
          },
        }
      : {}),
  };
}

/** The token with its legs' dates moved, issued at `now`. */
function moveToken(bookingToken: string, calendar: SandboxCalendar, now: Date): string {
  const token = JSON.parse(Buffer.from(bookingToken, 'base64url').toString('utf8')) as Token;
  const moved: Token = { ...token, legs: token.legs.map((leg) => ({ ...leg, date: calendar.move(leg.date) })), searchedAt: now.getTime() };
  return Buffer.from(JSON.stringify(moved)).toString('base64url');
}

/**
 * The flight on its moved day: the same local departure time, UTC from the airport's zone on that day,
 * the same time in the air (a change of clocks at one end moves the local arrival, not the duration).
 */
function moveSegment(segment: Segment, calendar: SandboxCalendar): Segment {
  const localDeparture = calendar.move(segment.local_departure);
  const departs = instantAtAirport(segment.flyFrom, localDeparture.slice(0, 19));
  const arrives = new Date(departs.getTime() + Date.parse(segment.utc_arrival) - Date.parse(segment.utc_departure));
  return {
    ...segment,
    id: segmentId(segment.airline, segment.flight_no, localDeparture.slice(0, 10)),
    local_departure: localDeparture,
    utc_departure: departs.toISOString(),
    local_arrival: `${localTimeAt(segment.flyTo, arrives)}.000Z`,
    utc_arrival: arrives.toISOString(),
  };
}

/** Search parameters with their days (dd/mm/YYYY, as provider_d writes them) moved; the rest as it was. */
function moveDays(params: Record<string, unknown>, calendar: SandboxCalendar): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, typeof value === 'string' && /^\d{2}\/\d{2}\/\d{4}$/.test(value) ? calendar.moveDayMonthYear(value) : value]),
  );
}
