/**
 * Money on the wire is a decimal string with exactly the currency's minor units (ISO 4217: GBP 2, JPY 0,
 * KWD 3), never a float. Providers send amounts as strings, numbers or {amount, curCode}; these helpers
 * turn any of them into that one form without going through binary floating point arithmetic.
 */
import currencyCodes from 'currency-codes';
import { ValidationError, type FieldError } from '../errors.js';

/** ISO 4217 codes that are not money a traveler pays in: metals, funds, drawing rights, testing, none. */
const NOT_PAYABLE = new Set(['XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'XSU', 'XUA', 'XBA', 'XBB', 'XBC', 'XBD', 'XTS', 'XXX']);

/** Minor units by payable code, built once: the package's own lookup scans its whole list on every call. */
const MINOR_UNITS = new Map<string, number>();
for (const entry of currencyCodes.data) {
  if (!NOT_PAYABLE.has(entry.code) && !MINOR_UNITS.has(entry.code)) MINOR_UNITS.set(entry.code, entry.digits);
}

/** The ISO 4217 minor units of `currency`, or undefined for a code that is not a currency. */
export function minorUnits(currency: string): number | undefined {
  return MINOR_UNITS.get(currency) ?? MINOR_UNITS.get(currency.toUpperCase());
}

/** Unsigned amounts as toDecimalString writes them, by the currency's minor units (ISO 4217 has 0 to 4). */
const CANONICAL = [/^(?:0|[1-9]\d*)$/, /^(?:0|[1-9]\d*)\.\d$/, /^(?:0|[1-9]\d*)\.\d{2}$/, /^(?:0|[1-9]\d*)\.\d{3}$/, /^(?:0|[1-9]\d*)\.\d{4}$/];

/**
 * `amount` as a decimal string with exactly the minor units of `currency`; a missing fraction is padded.
 * A string is taken digit for digit, and may not be more precise than its currency (512.465 GBP is not
 * a price: ValidationError naming `field`), but for trailing zeros. A number (JSON floats, as some
 * providers send) is read by its shortest decimal form and rounded half away from zero.
 */
export function toDecimalString(amount: string | number, currency: string, field = 'amount'): string {
  const digits = minorUnits(currency);
  if (digits === undefined) throw new ValidationError([{ field, rule: 'iso_4217', message: `${currency} is not an ISO 4217 currency` }]);
  // Most amounts arrive already in this form (no sign, no leading zero, exactly the minor units): as they are.
  if (typeof amount === 'string' && CANONICAL[digits]?.test(amount)) return amount;
  const text = typeof amount === 'number' ? numberToPlainString(amount, field) : amount.trim();
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new ValidationError([{ field, rule: 'decimal', message: `${String(amount)} is not a decimal amount` }]);
  const [, sign, whole, fraction = ''] = match as unknown as [string, string, string, string | undefined];
  if (typeof amount === 'string' && /[1-9]/.test(fraction.slice(digits))) {
    throw new ValidationError([{ field, rule: 'minor_units', message: `${amount} has more decimal places than ${currency} has (${digits})` }]);
  }
  // Scaled to an integer count of minor units (plus one guard digit for rounding), as a bigint.
  // The guard digit decides: 5 or more rounds the magnitude up (half away from zero).
  const scaled = BigInt(whole + fraction.padEnd(digits + 1, '0').slice(0, digits + 1));
  const units = (scaled + (scaled % 10n >= 5n ? 10n : 0n)) / 10n;
  const padded = units.toString().padStart(digits + 1, '0');
  const body = digits === 0 ? padded : `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  return units === 0n ? body : `${sign}${body}`;
}

/**
 * The most digits an amount may have before its decimal point, in any currency: every amount we take from
 * outside (a partner's offer, a provider's answer, an expected total) is below 10^11 of its currency,
 * i.e. at most 99999999999.99 GBP, 99999999999 JPY, 99999999999.999 KWD, with exactly the currency's
 * minor units. Why 11:
 * - a seat's price is kept in `numeric(14,3)` (booking_seat_selections.price), which holds 11 digits
 *   before the point: the narrowest money column;
 * - a booking's total (the offer, up to 20 services of 9 each, up to 40 seats) is summed as a bigint and
 *   held to the same bound, so its minor units stay below 10^15 (KWD: 10^14; a four-decimal unit such as
 *   CLF: 10^15). That is under Number.MAX_SAFE_INTEGER (about 9.007 × 10^15), so the `Number()` the
 *   payment processor is sent is exact, the `bigint` columns (up to 2^63 − 1) are far away, and the
 *   booking's `total_amount`, a JSON number of at most 15 significant digits, reads back exactly;
 * - 100 billion of a currency is still far above any real fare, even in the currencies with the most
 *   units to the dollar: nine first-class round trips, some USD 150 000, are about 4 billion Vietnamese
 *   dong or 14 billion Lebanese pounds.
 */
export const MAX_WHOLE_DIGITS = 11;

/** The largest count of minor units, by the currency's minor units (0 to 4): computed once each. */
const MAX_UNITS = [0, 1, 2, 3, 4].map((digits) => 10n ** BigInt(MAX_WHOLE_DIGITS + digits) - 1n);

/** The largest amount of `currency` we take (see MAX_WHOLE_DIGITS), in its minor units. */
export function maxMinorUnits(currency: string): bigint {
  const digits = minorUnits(currency) ?? 0;
  return MAX_UNITS[digits] ?? 10n ** BigInt(MAX_WHOLE_DIGITS + digits) - 1n;
}

/** The largest amount of `currency` we take, as a decimal string: "99999999999.99" for GBP. */
export function maxAmount(currency: string): string {
  return fromMinorUnits(maxMinorUnits(currency), currency);
}

/** Whether `units` (minor units of `currency`, either sign) is within MAX_WHOLE_DIGITS. */
export function withinBound(units: bigint, currency: string): boolean {
  return (units < 0n ? -units : units) <= maxMinorUnits(currency);
}

/** The field error of an amount beyond the bound, or undefined when `units` is within it. */
export function boundProblem(units: bigint, currency: string, field: string): FieldError | undefined {
  if (withinBound(units, currency)) return undefined;
  return {
    field,
    rule: 'max',
    message: `${field} is ${fromMinorUnits(units, currency)} ${currency}, beyond the largest amount taken (${maxAmount(currency)} ${currency}): no fare is that large, so check the amount and its currency`,
  };
}

/**
 * An amount from outside (a partner's offer, a provider's answer): toDecimalString, and within
 * MAX_WHOLE_DIGITS of its currency, or ValidationError naming `field` (rule `max`).
 */
export function toBoundedDecimalString(amount: string | number, currency: string, field = 'amount'): string {
  const decimal = toDecimalString(amount, currency, field);
  // Written without leading zeros, an amount is within the bound when its whole part has no more digits.
  const point = decimal.indexOf('.');
  if ((point === -1 ? decimal.length : point) - (decimal.startsWith('-') ? 1 : 0) <= MAX_WHOLE_DIGITS) return decimal;
  const problem = boundProblem(BigInt(decimal.replace('.', '')), currency, field);
  if (problem) throw new ValidationError([problem]);
  return decimal;
}

/** a − b − c ... in minor units of `currency`, as a decimal string (for tax = total − base − fees). */
export function subtract(currency: string, from: string, ...amounts: string[]): string {
  return fromMinorUnits(
    amounts.reduce((total, amount) => total - toMinorUnits(amount, currency), toMinorUnits(from, currency)),
    currency,
  );
}

/** An amount as an integer count of the currency's minor units (pence, yen, fils). */
export function toMinorUnits(amount: string | number, currency: string): bigint {
  const decimal = toDecimalString(amount, currency);
  if (decimal.length > 15) return BigInt(decimal.replace('.', ''));
  // At most 15 digits (every amount within MAX_WHOLE_DIGITS but the longest), so a double counts them
  // exactly: one BigInt made from the count, no copy of the text without its point to parse again.
  const negative = decimal.startsWith('-');
  let units = 0;
  for (let index = negative ? 1 : 0; index < decimal.length; index++) {
    const code = decimal.charCodeAt(index);
    if (code !== 46) units = units * 10 + code - 48; // 46: the decimal point
  }
  return BigInt(negative ? -units : units);
}

export function fromMinorUnits(units: bigint, currency: string): string {
  const digits = minorUnits(currency) as number;
  const negative = units < 0n;
  const padded = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const body = digits === 0 ? padded : `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  return negative ? `-${body}` : body;
}

/** A number as plain decimal digits (no exponent), the shortest that reads back as the same number. */
function numberToPlainString(value: number, field: string): string {
  if (!Number.isFinite(value)) throw new ValidationError([{ field, rule: 'decimal', message: `${value} is not a finite amount` }]);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent notation: huge values are integers; tiny ones fit in 20 fraction digits.
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}
