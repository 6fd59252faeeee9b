/**
 * The sandbox of provider_c, speaking its own dialect (IATA NDC 21.3 rendered as JSON, money as
 * `{amount, curCode}`): bearer token `ndc_test_…`. As real NDC does, a business error is HTTP 200 with
 * `Errors:[{Code, DescText, TypeCode}]`; the system error is HTTP 500. Served under
 * `/sandbox/flights/provider_c` in sandbox mode:
 *
 *   GET  /Offers/{OfferID}  → {PricedOffer}: a fixture as OfferPrice would answer it now (a sandbox
 *                             convenience, sandbox-offers.ts), its flights dated by the calendar
 *   POST /OfferPrice        {PricedOffer}  → {PricedOffer, Warning?:[711]}
 *   POST /SeatAvailability  {PricedOffer}  → {ALaCarteOffer, SeatMap:[one per PaxSegment]}
 *   and the order endpoints of sandbox-order-routes.ts (OrderCreate, OrderReshop, OrderChange, OrderRetrieve).
 *
 * Real NDC names an offer by OfferRefID and the airline keeps it; this sandbox keeps no offers, so the
 * offer is sent whole (as wire.ts describes it) and any offer can be priced. It keeps its own
 * OfferExpirationTimeLimitDateTime; past it, every offer call answers 913. The first DatedMarketingSegment's
 * flight number steers the failure paths (sandbox-magic.ts).
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { z } from 'zod';
import type { FlightSandboxDeps } from '../sandbox-orders.js';
import { answerSlowly } from '../sandbox-timing.js';
import { MAGIC_FLIGHT_NUMBERS, SLOW_BOOKING_MS, SLOW_PRICING_MS } from './sandbox-magic.js';
import { authenticate, flightOf, ndcError, parsed } from './sandbox-ndc.js';
import { offerCatalogue } from './sandbox-offers.js';
import { orderRoutes } from './sandbox-order-routes.js';
import { repriced } from './sandbox-rules.js';
import { seatAvailability } from './sandbox-seats.js';
import { WireOffer } from './wire.js';

export { MAGIC_FLIGHT_NUMBERS, MAGIC_SURNAME_INVALID, SANDBOX_TOKEN_PREFIX } from './sandbox-magic.js';
export { datedFixture } from './sandbox-offers.js';

const OfferRequest = z.looseObject({ PricedOffer: WireOffer });

export function providerCSandbox(deps: FlightSandboxDeps): Router {
  const router = new Router({ prefix: '/sandbox/flights/provider_c' });
  const body = koaBody({ json: true, jsonLimit: '1mb', urlencoded: false, text: false, multipart: false });

  /**
   * Whether the offer can still be sold; false when the answer was given, or when the caller hung up
   * while the sandbox played slow (then nothing may be done on its behalf).
   */
  const sellable = async (ctx: Context, offer: WireOffer, slowMs: number): Promise<boolean> => {
    const flight = flightOf(offer);
    if (flight === MAGIC_FLIGHT_NUMBERS.slow) {
      if (!(await answerSlowly(ctx, slowMs))) return false;
    }
    if (flight === MAGIC_FLIGHT_NUMBERS.systemError) return ndcError(ctx, '911', 'System error', 'Retry', 500);
    if (flight === MAGIC_FLIGHT_NUMBERS.internalError) return ndcError(ctx, '911', 'Internal error (unknown internal technical error)', 'Unknown');
    if (flight === MAGIC_FLIGHT_NUMBERS.expired || new Date(offer.OfferExpirationTimeLimitDateTime) <= deps.clock.now()) {
      return ndcError(ctx, '913', 'Invalid or Timed-out Request/PricedOffer/SelectedOffer/OfferRefID value is entered (Call again AirShoppingRQ)', 'Unavailable');
    }
    return true;
  };

  router.use(authenticate);
  offerCatalogue(router, deps.clock);
  router.post('/OfferPrice', body, async (ctx) => {
    const offer = parsed(ctx, OfferRequest)?.PricedOffer;
    if (!offer || !(await sellable(ctx, offer, SLOW_PRICING_MS))) return;
    const flight = flightOf(offer);
    if (flight === MAGIC_FLIGHT_NUMBERS.soldOut) return void ndcError(ctx, '496', 'No available flights', 'Unavailable');
    ctx.body =
      flight === MAGIC_FLIGHT_NUMBERS.priceChange
        ? { PricedOffer: repriced(offer), Warning: [{ Code: '711', DescText: 'Selected Offer Price changed' }] }
        : { PricedOffer: offer };
  });
  router.post('/SeatAvailability', body, async (ctx) => {
    const offer = parsed(ctx, OfferRequest)?.PricedOffer;
    if (!offer || !(await sellable(ctx, offer, SLOW_PRICING_MS))) return;
    ctx.body = seatAvailability(offer);
  });
  orderRoutes(router, body, deps, sellable, SLOW_BOOKING_MS);
  return router;
}
