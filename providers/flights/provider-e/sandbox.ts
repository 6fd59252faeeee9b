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
 *   2001 no availability: sold out (409), 5000 internal error (500).
 *
 * Endpoints:
 *   GET    /v3.0/flights/offers/{offerId}   the catalogue offer, expiring 30 minutes from now (a sandbox
 *                                           convenience: the offer a partner would hold after verify)
 *   POST   /v3.0/flights/verify {offerId}   binding pricing: `{offer, changes?:{pricing:{old,new}}}`
 *   POST   /v3.0/flights/seatmaps {offerId} per segment: every seat's state, and the free seats as
 *                                           `servicesAttachable` SEAT items per seated passenger
 *   POST   /v3.0/flights/prebooks {offerId, contact, passengers, usePaymentSdk?}
 *                                           passengers checked; answers prebookId, transactionId (and a
 *                                           secretKey with usePaymentSdk), the price, and what changed
 *   POST   /v3.0/flights/bookings {prebookId, payment:{method:"TRANSACTION_ID", transactionId}}
 *                                           books at the prebook's price: bookingId, bookingRef (the PNR)
 *   GET    /v3.0/flights/bookings/{id}      the booking
 *   DELETE /v3.0/flights/bookings/{id}      cancels it (invented: its cancel is not documented); no refund
 *
 * Offers are fixtures (fixtures/*.json, not the golden *.offer.json); prebooks and bookings are kept in
 * memory, which is enough for a sandbox (they go with the process). Magic offer ids (the LHR–JFK fixture
 * under another id) and a magic last name steer the failure paths; see MAGIC_OFFERS and MAGIC_LAST_NAME.
 */
import crypto from 'node:crypto';
import Router from '@koa/router';
import { nativeFixtures } from '../sandbox-fixtures.js';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { cabinsOf, seatState } from '../sandbox-cabins.js';
import { answerSlowly } from '../sandbox-timing.js';
import { ERROR_CODES } from './wire.js';
import type { FlightSandboxDeps } from '../sandbox-orders.js';

export const MAGIC_OFFERS = {
  /** Every step answers 404 (4040): provider_e's way of saying the offer expired. */
  expired: 'sandbox_expired',
  /** Verify and prebook answer 409 no availability (2001). */
  soldOut: 'sandbox_sold_out',
  /** Verify answers a higher total (the base fare 7.5% up, taxes as they were) with `changes.pricing`. */
  priceChangeAtVerify: 'sandbox_price_up_at_verify',
  /** Verify holds the price; prebook answers a higher total with `changes.pricing`, and book charges it. */
  priceChangeAtBooking: 'sandbox_price_up_at_booking',
  /** Verify and seat maps answer after 22 s: past provider_e's 20 s pricing timeout. */
  slow: 'sandbox_slow',
  /** Verify, seat maps and prebook answer 500 (5000). */
  error: 'sandbox_error',
} as const;

/** A passenger with this last name fails the airline's name check at prebook: 400 validation (4002). */
export const MAGIC_LAST_NAME = 'INVALID';
export const SANDBOX_TOKEN_PREFIX = 'liteapi_test_';

const SLOW_ANSWER_MS = 22_000;
const OFFER_LIFETIME_MS = 30 * 60 * 1000;
/** How much more the price-change magic offers cost, on the base fare (taxes stay). */
const PRICE_RISE_PER_MILLE = 75n;

interface Display {
  total: number;
  base?: number | null;
  taxes?: number | null;
  currency: string;
}

type NativeOffer = Record<string, unknown> & {
  offerId: string;
  expiration: string;
  pricing: { display: Display };
  journeys: { legs: { segmentRef: string; aircraft?: { code: string } | null }[] }[];
  passengers: { passengerRef: string; type: 'ADT' | 'CHD' | 'INF' }[];
  requirements: { documentRequired: boolean; documentTypes: string[] };
  servicesAttachable?: { type: string }[];
};

interface Prebook {
  prebookId: string;
  offerId: string;
  transactionId: string;
  expiresAt: Date;
  display: Display;
  passengers: Record<string, unknown>[];
  contact: Record<string, unknown>;
  offer: NativeOffer;
}

interface Booking {
  bookingId: string;
  bookingRef: string;
  status: 'CONFIRMED' | 'CANCELLED';
  offerId: string;
  prebookId: string;
  createdAt: string;
  cancelledAt: string | null;
  pricing: { display: Display };
  passengers: Record<string, unknown>[];
  contact: Record<string, unknown>;
  journeys: unknown;
}

function loadCatalogue(): Map<string, NativeOffer> {
  const offers = nativeFixtures<NativeOffer>(new URL('./fixtures/', import.meta.url));
  const catalogue = new Map(offers.map((offer) => [offer.offerId, offer]));
  const template = offers.find((offer) => offer.pricing.display.currency === 'GBP') as NativeOffer;
  for (const id of Object.values(MAGIC_OFFERS)) catalogue.set(id, { ...structuredClone(template), offerId: id });
  return catalogue;
}

export function providerESandbox({ clock }: FlightSandboxDeps): Router {
  const catalogue = loadCatalogue();
  const prebooks = new Map<string, Prebook>();
  const bookings = new Map<string, Booking>();
  const router = new Router({ prefix: '/sandbox/flights/provider_e' });
  const body = koaBody({ json: true, jsonLimit: '256kb', urlencoded: false, text: false, multipart: false });

  /** The offer as provider_e holds it now: valid for 30 minutes, at its catalogue price. */
  const offerFor = (id: string): NativeOffer | undefined => {
    const fixture = catalogue.get(id);
    if (!fixture) return undefined;
    return { ...structuredClone(fixture), expiration: utc(new Date(clock.now().getTime() + OFFER_LIFETIME_MS)) };
  };
  /** The offer named by the body's `offerId` for a step of the flow; answers the error itself if none. */
  const offerOf = (ctx: Context): NativeOffer | undefined => {
    const id = (ctx.request.body as { offerId?: unknown } | undefined)?.offerId;
    if (typeof id !== 'string' || id === '') {
      error(ctx, 400, ERROR_CODES.validation, 'Validation failed', [{ field: 'offerId', message: 'offerId is required' }]);
      return undefined;
    }
    const offer = id === MAGIC_OFFERS.expired ? undefined : offerFor(id);
    if (!offer) error(ctx, 404, ERROR_CODES.offerNotFound, 'Offer not found or expired');
    return offer;
  };

  router.use(authenticate);

  router.get('/v3.0/flights/offers/:offerId', (ctx) => {
    // The catalogue serves even the expired magic offer: it expired on provider_e's side only.
    const offer = offerFor(ctx.params.offerId as string);
    if (!offer) return error(ctx, 404, ERROR_CODES.offerNotFound, 'Offer not found or expired');
    ctx.body = { data: { offer } };
  });

  router.post('/v3.0/flights/verify', body, async (ctx) => {
    const offer = offerOf(ctx);
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
    const offer = offerOf(ctx);
    if (!offer) return;
    if (await steered(ctx, offer.offerId, { slow: true })) return;
    ctx.body = {
      data: {
        offerId: offer.offerId,
        seatmaps: offer.journeys.flatMap((journey) => journey.legs.map((leg) => seatMap(leg.segmentRef, leg.aircraft?.code, offer))),
      },
    };
  });

  router.post('/v3.0/flights/prebooks', body, async (ctx) => {
    const offer = offerOf(ctx);
    if (!offer) return;
    if (await steered(ctx, offer.offerId, { slow: false })) return;
    const request = ctx.request.body as { contact?: unknown; passengers?: unknown; usePaymentSdk?: unknown };
    const problems = [...contactProblems(request.contact), ...passengerProblems(request.passengers, offer, clock.now())];
    if (problems.length > 0) return error(ctx, 400, ERROR_CODES.validation, 'Validation failed', problems);
    if (offer.offerId === MAGIC_OFFERS.soldOut) return error(ctx, 409, ERROR_CODES.noAvailability, 'No availability for the requested offer');
    const old = offer.pricing.display;
    const display = offer.offerId === MAGIC_OFFERS.priceChangeAtBooking ? risen(old) : old;
    const prebook: Prebook = {
      prebookId: token(12),
      offerId: offer.offerId,
      transactionId: `tr_${token(16)}`,
      expiresAt: new Date(clock.now().getTime() + OFFER_LIFETIME_MS),
      display,
      passengers: request.passengers as Record<string, unknown>[],
      contact: request.contact as Record<string, unknown>,
      offer,
    };
    prebooks.set(prebook.prebookId, prebook);
    ctx.body = {
      data: {
        prebookId: prebook.prebookId,
        offerId: offer.offerId,
        status: 'PREBOOKED',
        transactionId: prebook.transactionId,
        ...(request.usePaymentSdk === true ? { secretKey: `sk_test_${token(24)}` } : {}),
        expiration: utc(prebook.expiresAt),
        pricing: { display },
        ...(display !== old ? { changes: { pricing: { old, new: display } } } : {}),
        // Bags and meals can still be attached; seats come from the seat maps.
        servicesAttachable: (offer.servicesAttachable ?? []).filter((service) => service.type !== 'SEAT'),
      },
    };
  });

  router.post('/v3.0/flights/bookings', body, (ctx) => {
    const request = ctx.request.body as { prebookId?: unknown; payment?: { method?: unknown; transactionId?: unknown } };
    const prebook = typeof request.prebookId === 'string' ? prebooks.get(request.prebookId) : undefined;
    if (!prebook || prebook.expiresAt <= clock.now()) return error(ctx, 404, ERROR_CODES.prebookNotFound, 'Prebook not found or expired');
    if (request.payment?.method !== 'TRANSACTION_ID' || request.payment.transactionId !== prebook.transactionId) {
      return error(ctx, 400, ERROR_CODES.validation, 'Validation failed', [
        { field: 'payment', message: 'payment must be {method: "TRANSACTION_ID", transactionId} with the prebook\'s transactionId' },
      ]);
    }
    // A prebook is booked once.
    prebooks.delete(prebook.prebookId);
    const booking: Booking = {
      bookingId: token(10),
      bookingRef: pnr(),
      status: 'CONFIRMED',
      offerId: prebook.offerId,
      prebookId: prebook.prebookId,
      createdAt: utc(clock.now()),
      cancelledAt: null,
      pricing: { display: prebook.display },
      passengers: prebook.passengers,
      contact: prebook.contact,
      journeys: prebook.offer.journeys,
    };
    bookings.set(booking.bookingId, booking);
    ctx.body = { data: booking };
  });

  router.get('/v3.0/flights/bookings/:bookingId', (ctx) => {
    const booking = bookings.get(ctx.params.bookingId as string);
    if (!booking) return error(ctx, 404, ERROR_CODES.bookingNotFound, 'Booking not found');
    ctx.body = { data: booking };
  });

  router.delete('/v3.0/flights/bookings/:bookingId', (ctx) => {
    const booking = bookings.get(ctx.params.bookingId as string);
    if (!booking) return error(ctx, 404, ERROR_CODES.bookingNotFound, 'Booking not found');
    // Cancelling twice answers the cancelled booking again.
    if (booking.status !== 'CANCELLED') Object.assign(booking, { status: 'CANCELLED', cancelledAt: utc(clock.now()) });
    ctx.body = { data: { ...booking, refund: null } };
  });
  return router;
}

async function authenticate(ctx: Context, next: Next): Promise<void> {
  if (!ctx.get('x-api-key').startsWith(SANDBOX_TOKEN_PREFIX)) return error(ctx, 401, ERROR_CODES.unauthorized, 'Invalid or missing API key');
  return next();
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

function error(ctx: Context, status: number, code: number, message: string, details?: { field: string; message: string }[]): void {
  ctx.status = status;
  ctx.body = { error: { code, message, ...(details ? { details } : {}) } };
}

/** The price after a rise on the base fare, computed in minor units (never in floating point). */
function risen(display: Display): Display {
  const currency = display.currency;
  const base = toMinorUnits(display.base ?? display.total, currency);
  const rise = (base * PRICE_RISE_PER_MILLE) / 1000n;
  const amount = (value: number) => Number(fromMinorUnits(toMinorUnits(value, currency) + rise, currency));
  return { ...display, total: amount(display.total), ...(display.base != null ? { base: amount(display.base) } : {}) };
}

/** A seat map in provider_e's shape, from the shared seat fixtures (sandbox-cabins.ts). */
function seatMap(segmentRef: string, aircraft: string | undefined, offer: NativeOffer) {
  const currency = offer.pricing.display.currency;
  // Infants travel on a lap: no seat of their own.
  const seated = offer.passengers.filter((passenger) => passenger.type !== 'INF');
  const seats: Record<string, unknown>[] = [];
  const services: Record<string, unknown>[] = [];
  for (const layout of cabinsOf(aircraft)) {
    for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
      for (const letter of layout.sections.flat()) {
        const state = seatState(row, letter, layout, currency);
        seats.push({
          seatNumber: state.designator,
          cabin: layout.cabinClass.toUpperCase(),
          status: state.status.toUpperCase(),
          position: state.position.toUpperCase(),
          exitRow: state.exitRow,
        });
        if (state.status !== 'available') continue;
        const kind = state.exitRow ? 'Exit row seat' : state.price > 0 ? 'Preferred seat' : 'Standard seat';
        for (const passenger of seated) {
          services.push({
            serviceId: `seat_${segmentRef}_${state.designator}_${passenger.passengerRef}`,
            type: 'SEAT',
            segmentRef,
            passengerRef: passenger.passengerRef,
            seatNumber: state.designator,
            description: `${kind} ${state.designator}`,
            price: { amount: state.price, currency },
          });
        }
      }
    }
  }
  return { segmentRef, aircraft: aircraft ?? null, seats, servicesAttachable: services };
}

type Problem = { field: string; message: string };

/** Names as airlines print them on tickets: letters, spaces, hyphens and apostrophes. */
const NAME = /^[\p{L}][\p{L} '-]*$/u;

function contactProblems(contact: unknown): Problem[] {
  const value = (contact ?? {}) as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const field of ['firstName', 'lastName'] as const) {
    if (typeof value[field] !== 'string' || !NAME.test(value[field])) problems.push({ field: `contact.${field}`, message: `${field} is required: letters only` });
  }
  if (typeof value.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value.email)) problems.push({ field: 'contact.email', message: 'email is not valid' });
  if (typeof value.phone !== 'string' || !/^\+\d{7,15}$/.test(value.phone)) problems.push({ field: 'contact.phone', message: 'phone must be in E.164 form' });
  return problems;
}

/** One passenger per passenger of the offer, in its order and of its type, with what the airline needs. */
function passengerProblems(passengers: unknown, offer: NativeOffer, now: Date): Problem[] {
  if (!Array.isArray(passengers) || passengers.length !== offer.passengers.length) {
    return [{ field: 'passengers', message: `exactly ${offer.passengers.length} passengers are required, as in the offer` }];
  }
  return passengers.flatMap((item: unknown, index: number): Problem[] => {
    const passenger = (item ?? {}) as Record<string, unknown>;
    const expected = offer.passengers[index] as NativeOffer['passengers'][number];
    const at = (field: string) => `passengers[${index}].${field}`;
    const problems: Problem[] = [];
    if (passenger.passengerRef !== undefined && passenger.passengerRef !== expected.passengerRef) problems.push({ field: at('passengerRef'), message: `must be ${expected.passengerRef}` });
    if (passenger.type !== expected.type) problems.push({ field: at('type'), message: `must be ${expected.type}` });
    for (const field of ['firstName', 'lastName'] as const) {
      const name = passenger[field];
      if (typeof name !== 'string' || !NAME.test(name)) problems.push({ field: at(field), message: `${field} is required: letters, spaces, hyphens and apostrophes` });
    }
    if (typeof passenger.lastName === 'string' && passenger.lastName.toUpperCase() === MAGIC_LAST_NAME) {
      problems.push({ field: at('lastName'), message: 'the airline rejected the name' });
    }
    const birthday = typeof passenger.birthday === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(passenger.birthday) ? new Date(`${passenger.birthday}T00:00:00Z`) : null;
    if (!birthday || Number.isNaN(birthday.getTime()) || birthday >= now) problems.push({ field: at('birthday'), message: 'birthday must be a past date as YYYY-MM-DD' });
    if (passenger.gender !== 'M' && passenger.gender !== 'F') problems.push({ field: at('gender'), message: 'gender must be M or F' });
    if (offer.requirements.documentRequired) {
      const document = (passenger.document ?? {}) as Record<string, unknown>;
      if (!offer.requirements.documentTypes.includes(String(document.type)) || typeof document.number !== 'string' || typeof document.expiryDate !== 'string') {
        problems.push({ field: at('document'), message: `a document (${offer.requirements.documentTypes.join(' or ')}) with number and expiryDate is required` });
      }
    }
    return problems;
  });
}

/** A timestamp as provider_e writes it: UTC, whole seconds. */
function utc(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function token(length: number): string {
  return crypto.randomBytes(length).toString('base64url').slice(0, length);
}

/** A six-character record locator without the letters airlines avoid (I, O) or digits 0 and 1. */
function pnr(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(crypto.randomBytes(6), (byte) => alphabet[byte % alphabet.length]).join('');
}
