/**
 * What provider_a's sandbox charges and refunds, in one place so that pricing quotes what the order then
 * charges and the cancel then refunds: the checked-bag prices (`included.bags`), the seat prices of the seat
 * maps, and the fare rules (`detailed-fare-rules`): a BASIC branded fare refunds nothing; other fares refund
 * the total less one penalty per order.
 */
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { cabinsOf, seatState, type SeatState } from '../sandbox-cabins.js';

/** Chargeable checked bags per traveler for the whole itinerary, by count: 1 or 2 bags. */
export function bagPrice(quantity: number, currency: string): string | undefined {
  const prices: Record<number, [major: string, yen: string]> = { 1: ['25', '4500'], 2: ['45', '8000'] };
  const price = prices[quantity];
  return price && inCurrency(price, currency);
}

/** The seat `number` on an aircraft type, as the seat maps show it; undefined when the aircraft has none such. */
export function seatOn(aircraft: string | undefined, number: string, currency: string): SeatState | undefined {
  const match = /^(\d{1,3})([A-Z])$/.exec(number);
  if (!match) return undefined;
  const row = Number(match[1]);
  const letter = match[2] as string;
  const layout = cabinsOf(aircraft).find((cabin) => row >= cabin.rows[0] && row <= cabin.rows[1] && cabin.sections.flat().includes(letter));
  return layout ? seatState(row, letter, layout, currency) : undefined;
}

export interface FareRule {
  category: 'REFUND' | 'EXCHANGE';
  notApplicable?: boolean;
  maxPenaltyAmount?: string;
}

/** The fare rules of a fare by its branded fare. */
export function fareRules(brandedFare: string | undefined, currency: string): FareRule[] {
  return brandedFare === 'BASIC'
    ? [{ category: 'REFUND', notApplicable: true }, { category: 'EXCHANGE', maxPenaltyAmount: inCurrency(['60', '9000'], currency) }]
    : [{ category: 'REFUND', maxPenaltyAmount: inCurrency(['100', '18000'], currency) }, { category: 'EXCHANGE', maxPenaltyAmount: '0' }];
}

/** What cancelling a ticketed order of `total` refunds under these rules; undefined when nothing. */
export function refundOf(rules: FareRule[], total: string, currency: string): string | undefined {
  const refund = rules.find((rule) => rule.category === 'REFUND');
  if (!refund || refund.notApplicable) return undefined;
  const left = toMinorUnits(total, currency) - toMinorUnits(refund.maxPenaltyAmount ?? '0', currency);
  return left > 0n ? fromMinorUnits(left, currency) : undefined;
}

/** An amount in major units of the offer's currency, or its own figure in yen (0 decimals, about 180 to the pound). */
function inCurrency([major, yen]: [string, string], currency: string): string {
  return fromMinorUnits(toMinorUnits(currency === 'JPY' ? yen : major, currency), currency);
}
