/** Small pieces every provider's normalization shares. */
import { toUtcIso } from '../time.js';
import type { FareClassMetadata, Offer } from './offer-schemas.js';

type Penalty = { allowed: boolean; penalty_amount: string | null; penalty_currency: string | null } | null | undefined;

/** The refund and change part of the fare summary, from the offer's conditions (unknown: not allowed). */
export function penaltySummary(
  refund: Penalty,
  change: Penalty,
): Pick<
  FareClassMetadata,
  'changes_allowed' | 'change_penalty_amount' | 'change_penalty_currency' | 'refunds_allowed' | 'refund_penalty_amount' | 'refund_penalty_currency'
> {
  return {
    changes_allowed: change?.allowed ?? false,
    change_penalty_amount: change?.penalty_amount ?? null,
    change_penalty_currency: change?.penalty_currency ?? null,
    refunds_allowed: refund?.allowed ?? false,
    refund_penalty_amount: refund?.penalty_amount ?? null,
    refund_penalty_currency: refund?.penalty_currency ?? null,
  };
}

/** What a provider says of a fare's seats, bags and boarding; the rest of its summary comes from the conditions. */
type FareTerms = Pick<FareClassMetadata, 'seat_selection_allowed' | 'extra_legroom' | 'carry_on_bags' | 'checked_bags' | 'checked_bags_paid' | 'boarding_priority'>;

/**
 * The fare summary of an offer that names no seat fee (seats are priced in the seat map): `terms`, and the
 * refund and change parts as penaltySummary reads them. One literal in the summary's field order: a spread
 * of penaltySummary in the middle of a literal makes V8 define every later field the slow way, per offer.
 */
export function fareSummary(terms: FareTerms, refund: Penalty, change: Penalty): FareClassMetadata {
  return {
    seat_selection_allowed: terms.seat_selection_allowed,
    seat_selection_fee: null,
    seat_selection_currency: null,
    extra_legroom: terms.extra_legroom,
    carry_on_bags: terms.carry_on_bags,
    checked_bags: terms.checked_bags,
    checked_bags_paid: terms.checked_bags_paid,
    changes_allowed: change?.allowed ?? false,
    change_penalty_amount: change?.penalty_amount ?? null,
    change_penalty_currency: change?.penalty_currency ?? null,
    refunds_allowed: refund?.allowed ?? false,
    refund_penalty_amount: refund?.penalty_amount ?? null,
    refund_penalty_currency: refund?.penalty_currency ?? null,
    boarding_priority: terms.boarding_priority,
  };
}

type Baggage = Offer['slices'][number]['segments'][number]['passengers'][number]['baggages'][number];

/** A segment passenger's bags: the checked ones, then the carry-on ones, each only when there are some. */
export function baggages(checked: number, carryOn: number): Baggage[] {
  const bags: Baggage[] = [];
  if (checked > 0) bags.push({ type: 'checked', quantity: checked });
  if (carryOn > 0) bags.push({ type: 'carry_on', quantity: carryOn });
  return bags;
}

/** A local time as providers write it (seconds optional) in the normalized form, with seconds. */
export function withSeconds(local: string): string {
  return local.length === 16 ? `${local}:00` : local;
}

const UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/;

/**
 * toUtcIso of a timestamp the native schema has checked (z.iso.datetime: a real date and time). One
 * already in UTC only has its fraction written as toISOString writes it (milliseconds, further digits
 * dropped): no Date to build and format, which costs more than the rest of a timestamp's normalizing.
 */
export function checkedUtcIso(value: string): string {
  const utc = UTC.exec(value);
  return utc ? `${utc[1]}.${(utc[2] ?? '').slice(0, 3).padEnd(3, '0')}Z` : toUtcIso(value);
}
