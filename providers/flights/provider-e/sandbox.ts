/**
 * The sandbox of provider_e, speaking its own dialect (modelled on LiteAPI / Nuitee flights, a
 * checkout-only API: verify → prebook → book). Served under `/sandbox/flights/provider_e` in sandbox mode.
 *
 * Dialect:
 * - the key goes in `X-API-Key` (here: any key starting `liteapi_test_`; anything else is 401); paths
 *   start `/v3.0`; bodies are JSON, answers wrapped in `{data}`;
 * - money is JSON numbers beside a currency code (`{total: 512.46, currency: "GBP"}`); times of day are
 *   local without offset, `expiration` UTC; offer ids are opaque (msgpack, base64url-encoded);
 * - errors are `{error:{code, message, details?}}` with its own numeric codes: 4010 bad key (401),
 *   4040 offer not found, which is how it says expired, at any step (404), 4041 booking not found (404),
 *   4042 prebook not found or expired (404), 4002 validation, with `details[{field, message}]` (400),
 *   4003 payment amount not the prebook's price (400, invented), 4090 prebook already booked (409,
 *   invented), 2001 no availability: sold out (409), 5000 internal error (500).
 *
 * Endpoints:
 *   GET    /v3.0/flights/offers/{offerId}   the catalogue offer, its flights weeks ahead, expiring 30
 *                                           minutes from now (a sandbox convenience: the offer a
 *                                           partner would hold after verify)
 *   POST   /v3.0/flights/verify {offerId}   binding pricing: `{offer, changes?:{pricing:{old,new}}}`
 *   POST   /v3.0/flights/seatmaps {offerId} per segment: every seat's state, and the free seats as
 *                                           `servicesAttachable` SEAT items per seated passenger
 *   POST   /v3.0/flights/prebooks {offerId, clientReference?, contact, passengers, usePaymentSdk?}
 *                                           passengers checked; answers prebookId, transactionId (and a
 *                                           secretKey with usePaymentSdk), the price, its expiration,
 *                                           and what changed; the same clientReference answers the
 *                                           first prebook
 *   GET    /v3.0/flights/prebooks/{id}      the prebook (EXPIRED once its expiration passed unbooked)
 *   POST   /v3.0/flights/prebooks/{id}/services {services:[{serviceId, quantity?}]}
 *                                           attaches seats (from the seat maps) and bags: new price,
 *                                           new transactionId
 *   DELETE /v3.0/flights/prebooks/{id}      cancels an unbooked prebook (invented)
 *   POST   /v3.0/flights/bookings {prebookId, payment:{method:"TRANSACTION_ID", transactionId} |
 *                                  {method:"CREDIT", amount, currency}}
 *                                           books at the prebook's price: bookingId, bookingRef (the
 *                                           PNR), ticket numbers; a booked prebook answers its booking
 *   GET    /v3.0/flights/bookings/{id}      the booking
 *   DELETE /v3.0/flights/bookings/{id}      cancels it (invented: its cancel is not documented), with the
 *                                           refund the fare allows (`refund` null when none)
 *
 * Offers are fixtures (sandbox-catalogue.ts); prebooks and bookings live in the database
 * (sandbox-store.ts), so they outlive the process and are shared by every instance. Magic offer ids (the
 * LHR–JFK fixture under another id) and a magic last name steer the failure paths; see MAGIC_OFFERS and
 * MAGIC_LAST_NAME.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import type { FlightSandboxDeps } from '../sandbox-orders.js';
import { answerSlowly } from '../sandbox-timing.js';
import { bookingRoutes } from './sandbox-bookings.js';
import { Catalogue, MAGIC_OFFERS, risen } from './sandbox-catalogue.js';
import { authenticate, error } from './sandbox-dialect.js';
import { prebookRoutes } from './sandbox-prebooks.js';
import { seatMaps } from './sandbox-seat-maps.js';
import { CheckoutStore } from './sandbox-store.js';
import { ERROR_CODES } from './wire.js';

export { datedFixture, MAGIC_OFFERS } from './sandbox-catalogue.js';
export { MAGIC_LAST_NAME } from './sandbox-checks.js';
export { SANDBOX_TOKEN_PREFIX } from './sandbox-dialect.js';

const SLOW_ANSWER_MS = 22_000;

export function providerESandbox(deps: FlightSandboxDeps): Router {
  const { clock } = deps;
  const catalogue = new Catalogue(clock);
  const router = new Router({ prefix: '/sandbox/flights/provider_e' });
  const body = koaBody({ json: true, jsonLimit: '256kb', urlencoded: false, text: false, multipart: false });

  router.use(authenticate);

  router.get('/v3.0/flights/offers/:offerId', (ctx) => {
    // The catalogue serves even the expired magic offer: it expired on provider_e's side only.
    const offer = catalogue.offer(ctx.params.offerId as string);
    if (!offer) return error(ctx, 404, ERROR_CODES.offerNotFound, 'Offer not found or expired');
    ctx.body = { data: { offer } };
  });

  router.post('/v3.0/flights/verify', body, async (ctx) => {
    const offer = catalogue.offerOf(ctx);
    if (!offer) return;
    if (await steered(ctx, offer.offerId, { slow: true })) return;
    if (offer.offerId === MAGIC_OFFERS.soldOut) return error(ctx, 409, ERROR_CODES.noAvailability, 'No availability for the requested offer');
    if (offer.offerId !== MAGIC_OFFERS.priceChangeAtVerify) {
      ctx.body = { data: { offer } };
      return;
    }
    const old = offer.pricing.display;
    offer.pricing.display = risen(old);
    ctx.body = { data: { offer, changes: { pricing: { old, new: offer.pricing.display } } } };
  });

  router.post('/v3.0/flights/seatmaps', body, async (ctx) => {
    const offer = catalogue.offerOf(ctx);
    if (!offer) return;
    if (await steered(ctx, offer.offerId, { slow: true })) return;
    ctx.body = { data: { offerId: offer.offerId, seatmaps: seatMaps(offer) } };
  });

  const checkout = { catalogue, store: new CheckoutStore(deps), clock, body, steered };
  prebookRoutes(router, checkout);
  bookingRoutes(router, checkout);
  return router;
}

/** The slow and failing magic offers; true when the answer was given. */
async function steered(ctx: Context, offerId: string, options: { slow: boolean }): Promise<boolean> {
  if (options.slow && offerId === MAGIC_OFFERS.slow) await answerSlowly(ctx, SLOW_ANSWER_MS);
  if (offerId === MAGIC_OFFERS.error) {
    error(ctx, 500, ERROR_CODES.internal, 'Internal server error');
    return true;
  }
  return false;
}
