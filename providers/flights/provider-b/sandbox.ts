/**
 * The sandbox of provider_b, speaking its own dialect (modelled on Duffel v2): bearer token and
 * `Duffel-Version: v2`, bodies wrapped in `{data}`, errors as `{errors:[{type, code, title, message}],
 * meta}`. Served under `/sandbox/flights/provider_b` in sandbox mode:
 *
 *   GET  /air/offers/{id}                 the offer (a fixture, its flights weeks ahead), valid for 30 minutes from now
 *   POST /air/offers/{id}/actions/price   the offer as priced now
 *   GET  /air/seat_maps?offer_id={id}     one seat map per segment (A320 3-3; 777 3-4-3 with business 1-2-1)
 *   PATCH /air/offers/{id}/passengers/{pas_id}   a passenger's name and loyalty accounts
 *   and the order endpoints of sandbox-order-routes.ts (orders, payments, cancellations).
 *
 * Deterministic apart from timestamps and new ids. Magic offer ids (sandbox-catalogue.ts) and the family
 * name SOLDOUT steer the failure paths; the README lists them.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import type { FlightSandboxDeps } from '../sandbox-orders.js';
import { answerSlowly } from '../sandbox-timing.js';
import { Catalogue, MAGIC_OFFERS } from './sandbox-catalogue.js';
import { answerError, notFound } from './sandbox-errors.js';
import { NAME } from './sandbox-order-checks.js';
import { orderRoutes } from './sandbox-order-routes.js';
import { seatMaps } from './sandbox-seat-maps.js';

export { datedFixture, MAGIC_OFFERS, SOLD_OUT_SURNAME } from './sandbox-catalogue.js';

export const SANDBOX_TOKEN_PREFIX = 'duffel_test_';
const SLOW_ANSWER_MS = 12_000;

export function providerBSandbox(deps: FlightSandboxDeps): Router {
  const catalogue = new Catalogue(deps.clock);
  const router = new Router({ prefix: '/sandbox/flights/provider_b' });

  router.use(authenticate);
  router.get('/air/offers/:id', (ctx) => {
    const offer = catalogue.offer(ctx.params.id as string);
    if (!offer) return notFound(ctx, 'offer');
    ctx.body = { data: offer };
  });
  router.post('/air/offers/:id/actions/price', async (ctx) => {
    const id = ctx.params.id as string;
    const offer = catalogue.offer(id);
    if (!offer) return notFound(ctx, 'offer');
    if (await steeredFailure(ctx, id)) return;
    if (id === MAGIC_OFFERS.soldOut || id === MAGIC_OFFERS.expired) {
      return answerError(ctx, 422, 'invalid_request_error', 'offer_no_longer_available', 'Offer no longer available', 'The offer is no longer available.');
    }
    ctx.body = { data: catalogue.livePrice(offer) };
  });
  router.patch('/air/offers/:id/passengers/:passengerId', koaBody({ json: true, jsonLimit: '64kb', urlencoded: false, text: false, multipart: false }), (ctx) => {
    const offer = catalogue.offer(ctx.params.id as string);
    const passenger = offer?.passengers.find((item) => item.id === ctx.params.passengerId);
    if (!offer || !passenger) return notFound(ctx, 'offer passenger');
    const data = ((ctx.request.body as { data?: Record<string, unknown> } | undefined)?.data ?? {}) as {
      given_name?: string;
      family_name?: string;
      loyalty_programme_accounts?: unknown[];
    };
    const invalid = [data.given_name, data.family_name].find((name) => name !== undefined && !NAME.test(name));
    if (invalid !== undefined) {
      return answerError(ctx, 422, 'validation_error', 'invalid_passenger_name', 'Invalid passenger name', 'The passenger name contains invalid characters.');
    }
    ctx.body = {
      data: {
        ...passenger,
        given_name: data.given_name ?? null,
        family_name: data.family_name ?? null,
        loyalty_programme_accounts: data.loyalty_programme_accounts ?? [],
      },
    };
  });
  router.get('/air/seat_maps', async (ctx) => {
    const id = String(ctx.query.offer_id ?? '');
    const offer = catalogue.offer(id);
    if (!offer) return notFound(ctx, 'offer');
    if (await steeredFailure(ctx, id)) return;
    ctx.body = { data: seatMaps(offer) };
  });
  orderRoutes(router, catalogue, deps);
  return router;
}

async function authenticate(ctx: Context, next: Next): Promise<void> {
  const token = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
  if (!token?.startsWith(SANDBOX_TOKEN_PREFIX)) {
    return answerError(ctx, 401, 'authentication_error', 'invalid_authentication', 'Invalid authentication', 'The access token is missing or not valid.');
  }
  if (ctx.get('duffel-version') !== 'v2') {
    return answerError(ctx, 400, 'invalid_request_error', 'unsupported_version', 'Unsupported version', 'Send the Duffel-Version: v2 header.');
  }
  return next();
}

/** The slow and failing magic offers; true when the answer was given. */
async function steeredFailure(ctx: Context, id: string): Promise<boolean> {
  if (id === MAGIC_OFFERS.slow) {
    await answerSlowly(ctx, SLOW_ANSWER_MS);
  }
  if (id === MAGIC_OFFERS.error) {
    answerError(ctx, 500, 'api_error', 'internal_server_error', 'Internal server error', 'An unexpected error occurred.');
    return true;
  }
  return false;
}
