/**
 * What a vault checks of a card before it keeps it: the number's check digit (Luhn), its length, its
 * network (from the leading digits, as the networks publish their ranges), the expiry and the security
 * code's length. The hosted fields' script repeats these rules in the browser (card-fields.js), so that a
 * traveler hears of a typo before anything is sent; this file is the rule that counts.
 */

/** The networks the vault tells apart; any other number that passes the checks is `unknown`. */
export type CardNetwork = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'diners' | 'unionpay' | 'unknown';

interface NetworkRule {
  network: Exclude<CardNetwork, 'unknown'>;
  /** Inclusive ranges of the number's leading digits (compared on as many digits as the bounds have). */
  ranges: ReadonlyArray<readonly [string, string]>;
  lengths: readonly number[];
  cvcLength: number;
}

// Checked in order: the first rule whose range matches names the network.
const NETWORKS: readonly NetworkRule[] = [
  { network: 'amex', ranges: [['34', '34'], ['37', '37']], lengths: [15], cvcLength: 4 },
  { network: 'visa', ranges: [['4', '4']], lengths: [13, 16, 19], cvcLength: 3 },
  { network: 'mastercard', ranges: [['51', '55'], ['2221', '2720']], lengths: [16], cvcLength: 3 },
  { network: 'discover', ranges: [['6011', '6011'], ['644', '649'], ['65', '65']], lengths: [16, 17, 18, 19], cvcLength: 3 },
  { network: 'jcb', ranges: [['3528', '3589']], lengths: [16, 17, 18, 19], cvcLength: 3 },
  { network: 'diners', ranges: [['300', '305'], ['36', '36'], ['38', '39']], lengths: [14, 15, 16, 17, 18, 19], cvcLength: 3 },
  { network: 'unionpay', ranges: [['62', '62']], lengths: [16, 17, 18, 19], cvcLength: 3 },
];

export const MIN_NUMBER_LENGTH = 13;
export const MAX_NUMBER_LENGTH = 19;

/** The number as typed, without the spaces and dashes people group its digits with. */
export function normalizeCardNumber(typed: string): string {
  return typed.replace(/[\s-]/g, '');
}

/** The Luhn check digit rule (ISO/IEC 7812): every card number of every network passes it. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function ruleOf(digits: string): NetworkRule | undefined {
  return NETWORKS.find((rule) =>
    rule.ranges.some(([low, high]) => {
      const prefix = digits.slice(0, low.length);
      return prefix.length === low.length && prefix >= low && prefix <= high;
    }),
  );
}

/** The network a number belongs to, from its leading digits. */
export function networkOf(digits: string): CardNetwork {
  return ruleOf(digits)?.network ?? 'unknown';
}

/** Whether `digits` (normalized) can be a card number: digits only, a length its network issues, Luhn. */
export function isValidCardNumber(digits: string): boolean {
  if (!/^\d+$/.test(digits) || digits.length < MIN_NUMBER_LENGTH || digits.length > MAX_NUMBER_LENGTH) return false;
  const rule = ruleOf(digits);
  if (rule && !rule.lengths.includes(digits.length)) return false;
  return passesLuhn(digits);
}

/** How many digits the security code of a card of this network has. */
export function cvcLengthOf(network: CardNetwork): number {
  return NETWORKS.find((rule) => rule.network === network)?.cvcLength ?? 3;
}

/**
 * Whether a card whose expiry is `month`/`year` has expired at `now`. A card is good through the last
 * day of its expiry month; the month is read in UTC, which can differ from the cardholder's by a day at
 * the turn of a month (issuers allow for that).
 */
export function hasExpired(month: number, year: number, now: Date): boolean {
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  return year < thisYear || (year === thisYear && month < thisMonth);
}
