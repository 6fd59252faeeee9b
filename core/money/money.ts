/**
 * Money on the wire is a decimal string with exactly the currency's minor units (ISO 4217: GBP 2, JPY 0,
 * KWD 3), never a float. Providers send amounts as strings, numbers or {amount, curCode}; these helpers
 * turn any of them into that one form without going through binary floating point arithmetic.
 */
import currencyCodes from 'currency-codes';
import { ValidationError } from '../errors.js';

/** The ISO 4217 minor units of `currency`, or undefined for a code that is not a currency. */
export function minorUnits(currency: string): number | undefined {
  const entry = currencyCodes.code(currency.toUpperCase());
  // Codes for funds and metals (XAU, XXX, ...) are not money a traveler pays in.
  return entry && !entry.code.startsWith('X') ? entry.digits : undefined;
}

export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && minorUnits(code) !== undefined;
}

/**
 * `amount` as a decimal string with exactly the minor units of `currency`. A string is taken digit for
 * digit; a number by its shortest decimal representation (512.46 stays 512.46). Extra digits are
 * rounded half away from zero, as amounts are in invoices; a missing fraction is padded.
 */
export function toDecimalString(amount: string | number, currency: string): string {
  const digits = minorUnits(currency);
  if (digits === undefined) throw new ValidationError([{ field: 'currency', rule: 'iso_4217', message: `${currency} is not an ISO 4217 currency` }]);
  const text = typeof amount === 'number' ? numberToPlainString(amount) : amount.trim();
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new ValidationError([{ field: 'amount', rule: 'decimal', message: `${String(amount)} is not a decimal amount` }]);
  const [, sign, whole, fraction = ''] = match as unknown as [string, string, string, string | undefined];
  // Scaled to an integer count of minor units (plus one guard digit for rounding), as a bigint.
  // The guard digit decides: 5 or more rounds the magnitude up (half away from zero).
  const scaled = BigInt(whole + fraction.padEnd(digits + 1, '0').slice(0, digits + 1));
  const units = (scaled + (scaled % 10n >= 5n ? 10n : 0n)) / 10n;
  const padded = units.toString().padStart(digits + 1, '0');
  const body = digits === 0 ? padded : `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  return units === 0n ? body : `${sign}${body}`;
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
  return BigInt(toDecimalString(amount, currency).replace('.', ''));
}

export function fromMinorUnits(units: bigint, currency: string): string {
  const digits = minorUnits(currency) as number;
  const negative = units < 0n;
  const padded = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const body = digits === 0 ? padded : `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  return negative ? `-${body}` : body;
}

/** A number as plain decimal digits (no exponent), the shortest that reads back as the same number. */
function numberToPlainString(value: number): string {
  if (!Number.isFinite(value)) throw new ValidationError([{ field: 'amount', rule: 'decimal', message: `${value} is not a finite amount` }]);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent notation: huge values are integers; tiny ones fit in 20 fraction digits.
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}
