/**
 * The offers provider_a's sandbox sells: its fixtures (fixtures/*.json, not the golden *.offer.json),
 * dated by the sandbox calendar of its own clock (sandbox-calendar.ts), found with Amadeus's Flight Offers
 * Search:
 *
 *   GET /v2/shopping/flight-offers?originLocationCode=LHR&destinationLocationCode=CDG[&departureDate=YYYY-MM-DD]
 *       → 200 {meta:{count}, data:[flight-offer]}
 *
 * Invented where Amadeus differs: `departureDate` may be left out (every day the sandbox sells), and the
 * other search parameters (`adults`, ...) are not read: each fixture is a fixed fare for its own travelers.
 * Amadeus's own errors: a missing code is 32171, a malformed one 477, a past departure date 425.
 * The magic flight numbers (magic-values.ts) are not sold here: a partner edits a fetched offer's first
 * segment `number` to take a magic path.
 */
import fs from 'node:fs';
import type Router from '@koa/router';
import { sandboxCalendar } from '../sandbox-calendar.js';
import { nativeFixtures } from '../sandbox-fixtures.js';
import { authorized, failParameter } from './sandbox-http.js';
import type { WireOffer } from './wire.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);

/**
 * A fixture (`lhr-cdg-return-gbp`, `cdg-dxb-family-eur`) as the sandbox serves it on `now`'s day: every
 * segment's local departure and arrival, and the last ticketing date, moved by the calendar. Tests book
 * these, never the files themselves (their flights left in June 2026).
 */
export function datedFixture(name: string, now: Date): WireOffer {
  return dated(JSON.parse(fs.readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as WireOffer, now);
}

function dated(fixture: WireOffer, now: Date): WireOffer {
  const { move } = sandboxCalendar(now);
  const offer = structuredClone(fixture);
  for (const segment of offer.itineraries.flatMap((itinerary) => itinerary.segments)) {
    segment.departure.at = move(segment.departure.at);
    segment.arrival.at = move(segment.arrival.at);
  }
  // The fare's own deadline, as far before the flight as in the fixture.
  if (offer.lastTicketingDate) offer.lastTicketingDate = move(offer.lastTicketingDate);
  if (offer.lastTicketingDateTime) offer.lastTicketingDateTime = move(offer.lastTicketingDateTime);
  return offer;
}

const IATA_CODE = /^[A-Z]{3}$/;

export function flightOffersSearch(router: Router, clock: { now(): Date }): void {
  const fixtures = nativeFixtures<WireOffer>(FIXTURES);

  router.get('/v2/shopping/flight-offers', (ctx) => {
    if (!authorized(ctx)) return;
    const query = ctx.query as Record<string, string | string[] | undefined>;
    const codes: string[] = [];
    for (const parameter of ['originLocationCode', 'destinationLocationCode']) {
      const value = query[parameter];
      if (value === undefined || value === '') return failParameter(ctx, 32171, 'MANDATORY DATA MISSING', 'This attribute is required.', parameter);
      if (typeof value !== 'string' || !IATA_CODE.test(value)) return failParameter(ctx, 477, 'INVALID FORMAT', 'Must be a 3-letter IATA code.', parameter, 'LHR');
      codes.push(value);
    }
    const now = clock.now();
    const day = query.departureDate;
    if (day !== undefined) {
      if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
        return failParameter(ctx, 477, 'INVALID FORMAT', 'Invalid date format, please check your request.', 'departureDate', now.toISOString().slice(0, 10));
      }
      // Today is the sandbox clock's UTC day: its flights leave weeks ahead, so no time zone is near the edge.
      if (day < now.toISOString().slice(0, 10)) return failParameter(ctx, 425, 'INVALID DATE', 'Date/Time is in the past.', 'departureDate');
    }
    const [origin, destination] = codes;
    const data = fixtures
      .map((fixture) => dated(fixture, now))
      .filter((offer) => {
        const outbound = offer.itineraries[0]?.segments ?? [];
        const [first] = outbound;
        if (!first || first.departure.iataCode !== origin || outbound.at(-1)?.arrival.iataCode !== destination) return false;
        return day === undefined || first.departure.at.startsWith(day);
      });
    ctx.body = { meta: { count: data.length }, data };
  });
}
