/**
 * The offers provider_c's sandbox sells: its fixtures (fixtures/*.json, not the golden *.offer.json), each
 * as OfferPrice would answer it today, served by a sandbox convenience *(invented: NDC has no such call; it
 * stands for AirShopping then OfferPrice)*:
 *
 *   GET /Offers/{OfferID}  → 200 {PricedOffer}, the shape OfferPriceRS answers; 404 Errors 913 when unknown
 *
 * Flights are moved by the calendar of the sandbox's clock (sandbox-calendar.ts), at their local times.
 * The time limits are the airline's own, set when the offer is served, as an airline sets them when it
 * prices: the offer expires 30 minutes later (every offer call answers 913 after that, sandbox.ts), and
 * each item that had a payment time limit may be held unpaid for 24 hours (the hold lapses then,
 * sandbox-order-routes.ts). The magic flight numbers (sandbox-magic.ts) are not sold here: a partner
 * edits a fetched offer's first DatedMarketingSegment `MarketingCarrierFlightNumberText`.
 */
import fs from 'node:fs';
import type Router from '@koa/router';
import { sandboxCalendar } from '../sandbox-calendar.js';
import { nativeFixtures } from '../sandbox-fixtures.js';
import { ndcError } from './sandbox-ndc.js';
import type { WireOffer } from './wire.js';

const FIXTURES = new URL('./fixtures/', import.meta.url);
export const OFFER_LIFETIME_MS = 30 * 60 * 1000;
export const PAYMENT_TIME_LIMIT_MS = 24 * 60 * 60 * 1000;

/**
 * A fixture (`lhr-jfk-family-gbp`) as the sandbox serves it at `now`: its flights moved to `now`'s day by
 * the calendar, expiring 30 minutes after `now`, payable for 24 hours. Tests book these, never the files
 * themselves (their flights left in June 2026).
 */
export function datedFixture(name: string, now: Date): WireOffer {
  return served(JSON.parse(fs.readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as WireOffer, now);
}

function served(fixture: WireOffer, now: Date): WireOffer {
  const { move } = sandboxCalendar(now);
  const offer = structuredClone(fixture);
  for (const segment of offer.DataLists.DatedMarketingSegmentList) {
    segment.Dep.AircraftScheduledDateTime = move(segment.Dep.AircraftScheduledDateTime);
    segment.Arrival.AircraftScheduledDateTime = move(segment.Arrival.AircraftScheduledDateTime);
  }
  offer.OfferExpirationTimeLimitDateTime = new Date(now.getTime() + OFFER_LIFETIME_MS).toISOString();
  const payBy = new Date(now.getTime() + PAYMENT_TIME_LIMIT_MS).toISOString();
  for (const item of offer.OfferItem) if (item.PaymentTimeLimitDateTime) item.PaymentTimeLimitDateTime = payBy;
  return offer;
}

/** Mounts `GET /Offers/{OfferID}` on `router` (behind its bearer-token check). */
export function offerCatalogue(router: Router, clock: { now(): Date }): void {
  const fixtures = new Map(nativeFixtures<WireOffer>(FIXTURES).map((offer) => [offer.OfferID, offer]));
  router.get('/Offers/:offerId', (ctx) => {
    const fixture = fixtures.get(ctx.params.offerId as string);
    if (!fixture) return void ndcError(ctx, '913', 'Invalid Request/OfferID value is entered (Call again AirShoppingRQ)', 'Unavailable', 404);
    ctx.body = { PricedOffer: served(fixture, clock.now()) };
  });
}
