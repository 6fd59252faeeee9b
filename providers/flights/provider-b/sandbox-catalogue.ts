/**
 * The offers provider_b's sandbox serves: its fixtures, and the magic offer ids that steer the failure
 * paths (the LHR–JFK fixture under another id). Each offer is served as live: its flights moved by the
 * sandbox calendar to three to five weeks after the sandbox's today (sandbox-calendar.ts), valid for 30
 * minutes from the sandbox's now, and holdable for two days.
 */
import fs from 'node:fs';
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { sandboxCalendar } from '../sandbox-calendar.js';
import { nativeFixtures } from '../sandbox-fixtures.js';

export const MAGIC_OFFERS = {
  /** Pricing answers a higher total. */
  priceChange: 'off_0000SANDBOXPRICECHANGE',
  /** Pricing and ordering answer 422 offer_no_longer_available: sold out. */
  soldOut: 'off_0000SANDBOXSOLDOUT',
  /** The offer expired a minute ago: pricing and ordering answer 422 offer_no_longer_available. */
  expired: 'off_0000SANDBOXEXPIRED',
  /** Pricing and seat maps answer after 12 s, an order after 65 s: past every timeout of provider_b. */
  slow: 'off_0000SANDBOXSLOW',
  /** Pricing, seat maps and ordering answer 500. */
  error: 'off_0000SANDBOXERROR',
  /**
   * Served at its old total, but the airline's total went up 7.5% since: pricing answers the new total,
   * an order or a payment at the old one answers 422 price_changed, and one at the new total goes through.
   */
  priceChangeAtBooking: 'off_0000SANDBOXBOOKINGPRICE',
} as const;

/** A passenger with this family name finds the flight sold out when ordering (providers.md §4). */
export const SOLD_OUT_SURNAME = 'SOLDOUT';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const OFFER_LIFETIME_MS = 30 * 60 * 1000;
const HOLD_PAYMENT_WINDOW_MS = 48 * 60 * 60 * 1000;
const PRICE_GUARANTEE_MS = 24 * 60 * 60 * 1000;

export interface Penalty {
  allowed: boolean;
  penalty_amount?: string | null;
  penalty_currency?: string | null;
}

export type NativeOffer = Record<string, unknown> & {
  id: string;
  expires_at: string;
  total_amount: string;
  total_currency: string;
  base_amount?: string | null;
  passenger_identity_documents_required: boolean;
  passengers: { id: string; type?: string | null }[];
  slices: { id: string; segments: { id: string; departing_at: string; arriving_at: string; aircraft?: { iata_code: string } | null }[] }[];
  conditions: { refund_before_departure?: Penalty | null; change_before_departure?: Penalty | null };
  payment_requirements: { requires_instant_payment: boolean; payment_required_by?: string | null; price_guarantee_expires_at?: string | null };
  available_services?: { id: string; type: string; total_amount: string; total_currency: string; maximum_quantity?: number; passenger_ids: string[]; segment_ids: string[] }[] | null;
};

/**
 * A fixture (`lhr-jfk-gbp`, `lhr-cdg-gbp`, `sfo-nrt-jpy`, `kwi-dxb-kwd`) as the sandbox serves it at `now`.
 * Tests book these, never the files themselves (their flights left in June 2026).
 */
export function datedFixture(name: string, now: Date): NativeOffer {
  return served(JSON.parse(fs.readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as NativeOffer, now);
}

/**
 * The offer as served at `now`: every segment's local departure and arrival moved to `now`'s day by the
 * calendar (times of day kept: nothing else in it says when it flies), and the times the airline sets
 * when it quotes (created, expiry, a hold's payment deadline) counted from `now`.
 */
function served(fixture: NativeOffer, now: Date): NativeOffer {
  const { move } = sandboxCalendar(now);
  const offer = structuredClone(fixture);
  for (const segment of offer.slices.flatMap((slice) => slice.segments)) {
    segment.departing_at = move(segment.departing_at);
    segment.arriving_at = move(segment.arriving_at);
  }
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  offer.created_at = at(0);
  offer.updated_at = at(0);
  offer.expires_at = offer.id === MAGIC_OFFERS.expired ? at(-60_000) : at(OFFER_LIFETIME_MS);
  if (!offer.payment_requirements.requires_instant_payment) {
    offer.payment_requirements = { requires_instant_payment: false, payment_required_by: at(HOLD_PAYMENT_WINDOW_MS), price_guarantee_expires_at: at(PRICE_GUARANTEE_MS) };
  }
  return offer;
}

export class Catalogue {
  readonly #offers: Map<string, NativeOffer>;

  constructor(private readonly clock: { now(): Date }) {
    const offers = nativeFixtures<NativeOffer>(FIXTURES);
    this.#offers = new Map(offers.map((offer) => [offer.id, offer]));
    const template = offers.find((offer) => offer.id === 'off_0000AuPyAJY1KPrmYbBxIm') as NativeOffer;
    for (const id of Object.values(MAGIC_OFFERS)) this.#offers.set(id, { ...structuredClone(template), id });
  }

  /** The offer as served now, or undefined when there is none by that id. */
  offer(id: string): NativeOffer | undefined {
    const fixture = this.#offers.get(id);
    return fixture && served(fixture, this.clock.now());
  }

  /** The offer at the airline's current total: higher than served for the price-changing magic offers. */
  livePrice(offer: NativeOffer): NativeOffer {
    if (offer.id !== MAGIC_OFFERS.priceChange && offer.id !== MAGIC_OFFERS.priceChangeAtBooking) return offer;
    const currency = offer.total_currency;
    // 7.5% more, on the base fare: the taxes stay as they were.
    const increase = (toMinorUnits(offer.total_amount, currency) * 75n) / 1000n;
    const raised = { ...offer, total_amount: fromMinorUnits(toMinorUnits(offer.total_amount, currency) + increase, currency) };
    if (offer.base_amount) raised.base_amount = fromMinorUnits(toMinorUnits(offer.base_amount, currency) + increase, currency);
    return raised;
  }
}
