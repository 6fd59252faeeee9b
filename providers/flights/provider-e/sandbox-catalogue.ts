/**
 * The offers provider_e's sandbox sells: its fixtures (fixtures/*.json, not the golden *.offer.json),
 * plus the magic offers, each the LHR–JFK fixture (a non-refundable GBP fare) under an id that steers one
 * path. An offer is served with its flights moved by the sandbox calendar to three to five weeks after
 * the sandbox's today (sandbox-calendar.ts), valid for 30 minutes from the moment it is asked for.
 *
 * The fixtures' ids are msgpack that happen to hold the day the fixture was written for (20260601 in the
 * LHR–JFK one): they stay as they are, opaque, and nothing reads a date out of them; the legs say when.
 */
import fs from 'node:fs';
import type { Context } from 'koa';
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { sandboxCalendar } from '../sandbox-calendar.js';
import { nativeFixtures } from '../sandbox-fixtures.js';
import { error, utc } from './sandbox-dialect.js';
import { ERROR_CODES } from './wire.js';

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
  /**
   * Verify answers at once; prebook answers after 32 s, past provider_e's 30 s booking timeout, and
   * places nothing when the caller has hung up by then.
   */
  slowAtBooking: 'sandbox_slow_at_booking',
  /** Verify, seat maps and prebook answer 500 (5000). */
  error: 'sandbox_error',
} as const;

const FIXTURES = new URL('./fixtures/', import.meta.url);
export const OFFER_LIFETIME_MS = 30 * 60 * 1000;
/** How much more the price-change magic offers cost, on the base fare (taxes stay). */
const PRICE_RISE_PER_MILLE = 75n;

export interface Display {
  total: number;
  base?: number | null;
  taxes?: number | null;
  /** What attached services (seats, bags) add to the fare; absent before any are attached. */
  services?: number;
  currency: string;
}

export interface NativeService {
  serviceId: string;
  type: string;
  segmentRef?: string;
  passengerRef?: string;
  seatNumber?: string;
  maxQuantity?: number;
  price: { amount: number; currency: string };
}

export type NativeOffer = Record<string, unknown> & {
  offerId: string;
  expiration: string;
  pricing: { display: Display };
  validatingCarrier: { code: string };
  journeys: { legs: { segmentRef: string; departure: string; arrival: string; aircraft?: { code: string } | null }[] }[];
  passengers: { passengerRef: string; type: 'ADT' | 'CHD' | 'INF' }[];
  fareRules: { refundable: boolean; refundPenalty?: { amount: number; currency: string } | null };
  requirements: { documentRequired: boolean; documentTypes: string[] };
  servicesAttachable?: NativeService[];
};

/**
 * A fixture (`lhr-jfk-gbp`, `cdg-dxb-family-eur`, `kwi-dxb-kwd`) as the sandbox serves it at `now`. Tests
 * book these, never the files themselves (their flights left in June 2026).
 */
export function datedFixture(name: string, now: Date): NativeOffer {
  return served(JSON.parse(fs.readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as NativeOffer, now);
}

/**
 * The offer as served at `now`: every leg's local departure and arrival moved to `now`'s day by the
 * calendar (times of day kept: nothing else in it says when it flies), expiring 30 minutes after `now`.
 */
function served(fixture: NativeOffer, now: Date): NativeOffer {
  const { move } = sandboxCalendar(now);
  const offer = structuredClone(fixture);
  for (const leg of offer.journeys.flatMap((journey) => journey.legs)) {
    leg.departure = move(leg.departure);
    leg.arrival = move(leg.arrival);
  }
  offer.expiration = utc(new Date(now.getTime() + OFFER_LIFETIME_MS));
  return offer;
}

export class Catalogue {
  readonly #offers: Map<string, NativeOffer>;

  constructor(private readonly clock: { now(): Date }) {
    const offers = nativeFixtures<NativeOffer>(FIXTURES);
    this.#offers = new Map(offers.map((offer) => [offer.offerId, offer]));
    const template = offers.find((offer) => offer.pricing.display.currency === 'GBP') as NativeOffer;
    for (const id of Object.values(MAGIC_OFFERS)) this.#offers.set(id, { ...structuredClone(template), offerId: id });
  }

  /** The offer as provider_e holds it now: valid for 30 minutes, at its catalogue price. */
  offer(id: string): NativeOffer | undefined {
    const fixture = this.#offers.get(id);
    return fixture && served(fixture, this.clock.now());
  }

  /**
   * The offer named by the body's `offerId` for a step of the flow (verify, seat maps, prebook), which
   * provider_e no longer knows once it expired; answers the error itself if there is none.
   */
  offerOf(ctx: Context): NativeOffer | undefined {
    const id = (ctx.request.body as { offerId?: unknown } | undefined)?.offerId;
    if (typeof id !== 'string' || id === '') {
      error(ctx, 400, ERROR_CODES.validation, 'Validation failed', [{ field: 'offerId', message: 'offerId is required' }]);
      return undefined;
    }
    const offer = id === MAGIC_OFFERS.expired ? undefined : this.offer(id);
    if (!offer) error(ctx, 404, ERROR_CODES.offerNotFound, 'Offer not found or expired');
    return offer;
  }
}

/** The price after a rise on the base fare, computed in minor units (never in floating point). */
export function risen(display: Display): Display {
  const currency = display.currency;
  const base = toMinorUnits(display.base ?? display.total, currency);
  const rise = (base * PRICE_RISE_PER_MILLE) / 1000n;
  const amount = (value: number) => Number(fromMinorUnits(toMinorUnits(value, currency) + rise, currency));
  return { ...display, total: amount(display.total), ...(display.base != null ? { base: amount(display.base) } : {}) };
}
