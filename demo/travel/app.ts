/**
 * "Demo Travel": a stand-in travel agency's website, served in sandbox mode on a port of its own at
 * another site than the service (decisions §12), that sells with the checkout button the way a partner
 * integrates it:
 * - its shop fetches one offer of each provider from the providers' sandboxes; some it hands to the
 *   button raw (`flightOffer`), the others its backend creates with its secret key (`flightOfferID`);
 * - the buttons, with the agency's publishable key, open the hosted checkout over the page;
 * - once the traveler booked, the page asks the agency's backend, which confirms the sale with
 *   `GET {BASE_URL}/v1/checkout/sessions/{id}` and its secret key, over real HTTP, and shows the PNR;
 *   the booking path (`/checkout/bookings/{bookingId}?session={sessionId}`) does the same when loaded;
 * - its backend registers a webhook endpoint, verifies each event that arrives, and lists them on
 *   `/events` (webhooks.ts).
 *
 * It talks to the service only over HTTP, as a real agency would; nothing of the service is imported.
 */
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import got from 'got';
import Koa, { type Context } from 'koa';
import type { Logger } from '../../core/logger.js';
import { PRODUCTS, type Product } from './offers.js';
import { bookingPage, DEMO_STYLESHEET, eventsPage, formatPrice, shopPage, type BookingPageOptions, type ShelfItem } from './page.js';
import { DemoWebhooks, MAX_BODY_BYTES } from './webhooks.js';

export interface DemoTravelKeys {
  /** The agency's secret key: its backend's only. */
  secretKey: string;
  /** The publishable key of its page's origin, for its checkout buttons. */
  publishableKey: string;
}

export interface DemoTravelOptions {
  /** The service's API (offers, checkout sessions, the button's script) and its authorization server (the checkout). */
  baseUrl: string;
  /** The demo's own origin, where its webhook receiver answers. */
  origin: string;
  authUrl: string;
  /** Where the providers' sandboxes answer (the service's /sandbox). */
  sandboxUrl: string;
  /** The agency's keys, made on first use; `reset` after the service refused them, to get working ones. */
  keys: { get(): Promise<DemoTravelKeys>; reset(): void };
  logger: Logger;
}

/** The agency's IATA code, sent by its buttons as `x-customer-id`. */
export const DEMO_TRAVEL_IATA_CODE = 'DT';
export const DEMO_TRAVEL_BOOKING_PATH = '/checkout/bookings/{bookingId}?session={sessionId}';

const HANDOVERS: ReadonlyArray<Product['handover']> = ['raw', 'id'];
const PAGE_SCRIPT = readFileSync(new URL('./page-script.js', import.meta.url), 'utf8');
const API_TIMEOUT_MS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A suitcase on Demo Travel's green. */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0b7a5a"/><rect x="3" y="5" width="10" height="8" rx="1" fill="#fff"/><rect x="6" y="3" width="4" height="2" fill="#fff"/></svg>';

export function demoTravelApp(options: DemoTravelOptions): Koa {
  const app = new Koa();
  const router = new Router();
  const apiOrigin = new URL(options.baseUrl).origin;
  const authOrigin = new URL(options.authUrl).origin;
  // The button's script and the API (offers, sessions) on the service's origin, the checkout framed from
  // its authorization server, our own script and backend; nothing inline.
  const pageCsp = [
    "default-src 'none'",
    `script-src 'self' ${apiOrigin}`,
    `connect-src 'self' ${apiOrigin}`,
    `frame-src ${authOrigin}`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

  /** A call to the service with the agency's secret key; a refused key is made again for the next call. */
  const api = async (method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown) => {
    const { secretKey } = await options.keys.get();
    const response = await got(`${options.baseUrl}${path}`, {
      method,
      headers: { 'x-api-key': secretKey, accept: 'application/json' },
      json,
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: API_TIMEOUT_MS },
    });
    if (response.statusCode === 401) options.keys.reset();
    return { status: response.statusCode, body: parseJson(response.body) };
  };

  const shelfItem = async (product: Product): Promise<ShelfItem> => {
    try {
      const offer = await product.fetch(options.sandboxUrl, new Date());
      const total = product.price(offer);
      const price = total ? formatPrice(total.amount, total.currency) : undefined;
      if (product.handover === 'raw') return { product, price, rawOffer: offer };
      const created = await api('POST', `/v1/flights/providers/${product.provider}/offers`, offer);
      const offerId = created.body.offer_id;
      if (created.status !== 201 || typeof offerId !== 'string') return { product, price, problem: `Travel Partner answered ${created.status} ${String(created.body.code ?? '')}`.trim() };
      return { product, price, offerId };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      options.logger.warn({ provider: product.provider, code, message }, 'demo travel: an offer could not be loaded');
      return { product, problem: `${product.provider}'s sandbox did not answer.` };
    }
  };

  const webhooks = new DemoWebhooks(api, options.origin, options.logger);

  // `?handover=raw` or `?handover=id` hands every offer over the one way, to try both with each provider.
  router.get('/', async (ctx) => {
    const keys = await options.keys.get();
    await webhooks.ensureRegistered();
    const handover = HANDOVERS.find((way) => way === ctx.query.handover);
    const items = await Promise.all(PRODUCTS.map((product) => shelfItem(handover ? { ...product, handover } : product)));
    page(ctx, pageCsp, shopPage({ componentUrl: `${options.baseUrl}/components/checkout-button.js`, publishableKey: keys.publishableKey, iataCode: DEMO_TRAVEL_IATA_CODE, bookingPath: DEMO_TRAVEL_BOOKING_PATH, handover, items }));
  });

  // The page's script asks here once a button says booking_confirmed: the backend's word, not the browser's.
  router.get('/api/checkout-sessions/:id', async (ctx) => {
    const answer = await readSession(ctx.params.id as string);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = answer.status;
    ctx.body = answer.body;
  });

  // The buttons' booking path: the page the traveler lands on (and may reload, or bookmark) after booking.
  router.get('/checkout/bookings/:bookingId', async (ctx) => {
    const bookingId = ctx.params.bookingId as string;
    const sessionId = typeof ctx.query.session === 'string' ? ctx.query.session : '';
    const answer = await readSession(sessionId);
    const options: BookingPageOptions =
      answer.status === 200
        ? { bookingId, session: answer.body as BookingPageOptions['session'] }
        : { bookingId, session: undefined, problem: `Travel Partner did not confirm it (${answer.status} ${String(answer.body.code ?? answer.body.message ?? '')}).` };
    page(ctx, pageCsp, bookingPage(options));
  });

  // The receiver: verified before it is read (webhooks.ts), answered at once.
  router.post('/webhooks', async (ctx) => {
    const raw = await rawBody(ctx, MAX_BODY_BYTES);
    ctx.status = raw === undefined ? 413 : webhooks.receive(raw, ctx.headers);
  });

  // What arrived, newest first: the agency's own record of its sales, told by Travel Partner.
  router.get('/events', async (ctx) => {
    await options.keys.get();
    await webhooks.ensureRegistered();
    page(ctx, pageCsp, eventsPage({ receiverUrl: webhooks.receiverUrl, registered: webhooks.registered, events: webhooks.events }));
  });

  router.get('/page.js', (ctx) => asset(ctx, 'application/javascript; charset=utf-8', PAGE_SCRIPT));
  router.get('/favicon.ico', (ctx) => asset(ctx, 'image/svg+xml', FAVICON));
  router.get('/demo.css', (ctx) => asset(ctx, 'text/css; charset=utf-8', DEMO_STYLESHEET));

  /** What the service says of a checkout session: its status and, once complete, the booking and its PNR. */
  async function readSession(id: string): Promise<{ status: number; body: Record<string, unknown> }> {
    if (!UUID.test(id)) return { status: 400, body: { message: 'Give the checkout session id the button reported (sessionId).' } };
    try {
      const answer = await api('GET', `/v1/checkout/sessions/${id}`);
      if (answer.status !== 200) return answer;
      const { status, booking_id, airline_pnr, total_amount, currency, provider_id } = answer.body;
      return { status: 200, body: { id, status, booking_id, airline_pnr, total_amount, currency, provider_id } };
    } catch (error) {
      // The code and message only: the request (its secret key) stays out of the log.
      const { code, message } = error as { code?: string; message?: string };
      options.logger.warn({ code, message }, 'demo travel: reading a checkout session failed');
      return { status: 502, body: { message: 'The Travel Partner service did not answer.' } };
    }
  }

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** The request's body as text, or undefined past `limit` bytes. */
async function rawBody(ctx: Context, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function page(ctx: Context, csp: string, body: string): void {
  ctx.set({ 'Content-Security-Policy': csp, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  ctx.type = 'html';
  ctx.body = body;
}

function asset(ctx: Context, type: string, body: string): void {
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = type;
  ctx.body = body;
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { value };
  } catch {
    return { message: text.slice(0, 500) };
  }
}
