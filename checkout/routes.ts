/**
 * The hosted checkout's door (decisions §12), served on AUTH_URL like the other hosted pages:
 *
 *   GET  /checkout/{id}                     the page (no data in it), framed by the session's origin only
 *   GET  /checkout/assets/checkout.js|.css  its script (an ES module) and stylesheet
 *   /checkout/{id}/api/...                  its JSON API, every call with `x-checkout-secret`:
 *     GET  session                          the session, its offer and steps, who is signed in
 *     GET  seat-maps                        the offer's seats, where the provider sells them
 *     POST sign-in {email}, sign-in/resend, sign-in/code {code} → {traveler_token}
 *   and with `x-checkout-traveler` (the token the code sign-in answered) as well:
 *     POST sign-out
 *     GET  passengers, POST passengers      the traveler's saved passengers; keep a new one
 *     GET  cards, POST cards {vault_token}  the traveler's cards; save one made in the vault's fields
 *     POST card-session                     a vault session for the hosted fields nested in the page
 *     POST review                           the final total of the choices (priced again where required)
 *     POST pay                              the booking, once per session
 *     POST abandon {reason: search_again}   the traveler chose to search again
 *
 * A wrong or missing secret is the same 404 as an unknown session. Errors are the API's envelopes. No
 * cookie is read or set: the checkout works where third-party cookies are blocked.
 */
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { CheckoutPayments } from '../core/checkout/checkout-payment.js';
import { Abandon, SaveCard } from '../core/checkout/hosted-schemas.js';
import type { CheckoutAccess, CheckoutTraveler, HostedCheckout } from '../core/checkout/hosted-checkout.js';
import { parseOrThrow } from '../core/validation.js';
import { checkoutPage, checkoutPageHeaders, CHECKOUT_PREFIX, missingPage } from './page.js';
import { clientSecretOf, jsonBodyOf, travelerTokenOf } from './request.js';

const SCRIPT = readFileSync(new URL('./assets/checkout.js', import.meta.url), 'utf8');
const STYLESHEET = readFileSync(new URL('./assets/checkout.css', import.meta.url), 'utf8');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Short enough that a fix reaches open checkouts within minutes. */
const ASSET_CACHE = 'public, max-age=300';

export interface HostedCheckoutDoorDeps {
  checkout: HostedCheckout;
  payments: CheckoutPayments;
  /** Where the card vault serves its hosted fields (the page frames them); undefined: no vault configured. */
  vaultUrl: string | undefined;
}

interface State {
  access: CheckoutAccess;
  traveler: CheckoutTraveler;
}

export function hostedCheckoutRoutes(deps: HostedCheckoutDoorDeps): Middleware {
  const router = new Router({ prefix: CHECKOUT_PREFIX });
  const vaultOrigin = deps.vaultUrl ? new URL(deps.vaultUrl).origin : undefined;
  const { checkout, payments } = deps;

  router.get('/assets/checkout.js', (ctx) => asset(ctx, 'text/javascript; charset=utf-8', SCRIPT));
  router.get('/assets/checkout.css', (ctx) => asset(ctx, 'text/css; charset=utf-8', STYLESHEET));

  router.get('/:id', async (ctx) => {
    const id = String(ctx.params.id);
    const origin = UUID.test(id) ? await checkout.framingOrigin(id) : undefined;
    ctx.type = 'text/html; charset=utf-8';
    if (!origin) {
      checkoutPageHeaders(ctx, "'none'", vaultOrigin);
      ctx.status = 404;
      ctx.body = missingPage();
      return;
    }
    checkoutPageHeaders(ctx, origin, vaultOrigin);
    ctx.body = checkoutPage(id.toLowerCase());
  });

  const api = new Router({ prefix: '/:id/api' });
  api.use(noStore, opened(checkout));
  const traveler = signedIn(checkout);

  api.get('/session', async (ctx) => answer(ctx, 200, await checkout.summary(access(ctx), travelerTokenOf(ctx))));
  api.get('/seat-maps', async (ctx) => answer(ctx, 200, await checkout.seatMaps(access(ctx))));
  api.post('/sign-in', async (ctx) => answer(ctx, 200, await checkout.startSignIn(access(ctx), await jsonBodyOf(ctx), ctx.ip)));
  api.post('/sign-in/resend', async (ctx) => answer(ctx, 200, await checkout.resendCode(access(ctx), ctx.ip)));
  api.post('/sign-in/code', async (ctx) => answer(ctx, 200, await checkout.confirmSignIn(access(ctx), await jsonBodyOf(ctx), ctx.ip)));
  api.post('/sign-out', traveler, async (ctx) => {
    await checkout.signOut(access(ctx));
    ctx.status = 204;
  });
  api.get('/passengers', traveler, async (ctx) => answer(ctx, 200, await checkout.savedPassengers(access(ctx), travelerOf(ctx))));
  api.post('/passengers', traveler, async (ctx) => answer(ctx, 201, await checkout.savePassenger(access(ctx), travelerOf(ctx), await jsonBodyOf(ctx))));
  api.get('/cards', traveler, async (ctx) => answer(ctx, 200, await checkout.cards(travelerOf(ctx))));
  api.post('/cards', traveler, async (ctx) => {
    const { vault_token: token } = parseOrThrow(SaveCard, await jsonBodyOf(ctx));
    answer(ctx, 201, await checkout.saveCard(access(ctx), travelerOf(ctx), token));
  });
  api.post('/card-session', traveler, async (ctx) => answer(ctx, 200, await checkout.cardSession(access(ctx), travelerOf(ctx))));
  api.post('/review', traveler, async (ctx) => answer(ctx, 200, await payments.review(access(ctx), travelerOf(ctx), await jsonBodyOf(ctx))));
  api.post('/pay', traveler, async (ctx) => answer(ctx, 200, await payments.pay(access(ctx), travelerOf(ctx), await jsonBodyOf(ctx))));
  api.post('/abandon', traveler, async (ctx) => {
    parseOrThrow(Abandon, await jsonBodyOf(ctx));
    const session = await checkout.fail(access(ctx).session.id, 'search_again');
    answer(ctx, 200, { status: session.status, failure_reason: session.failure_reason });
  });

  router.use(api.routes(), api.allowedMethods());
  // Every request of the service passes here: only the checkout's own paths pay for the router's match.
  const routes = router.routes() as Middleware;
  return function hostedCheckout(ctx: Context, next: Next) {
    return ctx.path.startsWith(`${CHECKOUT_PREFIX}/`) ? routes(ctx, next) : next();
  };
}

/** The session the client secret opens; the same 404 for an unknown id, a wrong secret and another session's. */
function opened(checkout: HostedCheckout): Middleware {
  return async function openSession(ctx: Context, next: Next) {
    const access = await checkout.open(String(ctx.params.id), clientSecretOf(ctx));
    (ctx.state as Partial<State>).access = access;
    return next();
  };
}

/** The traveler signed in to this session inside the frame: their token, besides the client secret. */
function signedIn(checkout: HostedCheckout): Middleware {
  return async function requireTraveler(ctx: Context, next: Next) {
    (ctx.state as Partial<State>).traveler = await checkout.travelerOf(access(ctx), travelerTokenOf(ctx));
    return next();
  };
}

function access(ctx: Context): CheckoutAccess {
  return (ctx.state as State).access;
}

function travelerOf(ctx: Context): CheckoutTraveler {
  return (ctx.state as State).traveler;
}

async function noStore(ctx: Context, next: Next): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  await next();
}

function answer(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

function asset(ctx: Context, type: string, body: string): void {
  ctx.set({ 'Cache-Control': ASSET_CACHE, 'X-Content-Type-Options': 'nosniff' });
  ctx.type = type;
  ctx.body = body;
}

