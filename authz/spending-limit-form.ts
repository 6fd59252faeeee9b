/**
 * The spending limit fields of the consent page and of the Connected apps page (decisions §10): a
 * currency and two optional caps, per booking and per rolling 30 days, typed by the traveler as decimals
 * of that currency (250 or 250.50) and kept in minor units. Blank means no cap of that kind; both blank
 * means no limit at all (every purchase still needs the traveler's confirmation on our page).
 */
import currencyCodes from 'currency-codes';
import { ValidationError } from '../core/errors.js';
import { fromMinorUnits, minorUnits, toMinorUnits } from '../core/money/money.js';
import type { SpendingLimit } from '../core/purchases/contracts.js';

/** What the form holds, as typed: shown again when the page comes back with a problem. */
export interface LimitFields {
  currency: string;
  per_booking: string;
  per_30_days: string;
}

export interface LimitProblem {
  field: keyof LimitFields;
  message: string;
}

export type ParsedLimit = { ok: true; limit: SpendingLimit | null } | { ok: false; problems: LimitProblem[] };

/** The currencies a limit may be in, as the form offers them: every ISO 4217 currency a traveler pays in, by code. */
export const LIMIT_CURRENCIES: readonly { code: string; name: string }[] = currencyCodes
  .data.filter((entry) => minorUnits(entry.code) !== undefined)
  .map((entry) => ({ code: entry.code, name: entry.currency }))
  .sort((a, b) => a.code.localeCompare(b.code));

/** A cap above this many units of the currency is a slip of the keyboard, not a limit. */
const MAX_UNITS = 1_000_000_000n;

const CAPS = [
  ['per_booking', 'per-booking limit'],
  ['per_30_days', '30-day limit'],
] as const;

/** The three fields of a posted form (anything that is not one string counts as blank). */
export function limitFieldsOf(body: unknown): LimitFields {
  const record = (body ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof record[name] === 'string' ? (record[name] as string).trim() : '');
  return { currency: text('currency').toUpperCase(), per_booking: text('per_booking'), per_30_days: text('per_30_days') };
}

/** A stored limit as the form shows it: amounts as decimals of its currency. */
export function fieldsOfLimit(limit: SpendingLimit | undefined, defaultCurrency: string): LimitFields {
  if (!limit) return { currency: defaultCurrency, per_booking: '', per_30_days: '' };
  const decimal = (minor: bigint | null) => (minor === null ? '' : fromMinorUnits(minor, limit.currency));
  return { currency: limit.currency, per_booking: decimal(limit.perBookingMinor), per_30_days: decimal(limit.per30DaysMinor) };
}

/** The traveler's fields as a limit (null: no cap at all), or what is wrong with them, field by field. */
export function parseLimitFields(fields: LimitFields): ParsedLimit {
  if (fields.per_booking === '' && fields.per_30_days === '') return { ok: true, limit: null };
  const { currency } = fields;
  if (!/^[A-Z]{3}$/.test(currency) || minorUnits(currency) === undefined) {
    const given = currency === '' ? 'No currency was given' : `${currency} is not a currency we know`;
    return { ok: false, problems: [{ field: 'currency', message: `${given}: choose a currency from the list (ISO 4217, such as GBP, EUR or USD).` }] };
  }
  const problems: LimitProblem[] = [];
  const caps: Partial<Record<(typeof CAPS)[number][0], bigint>> = {};
  for (const [field, label] of CAPS) {
    if (fields[field] === '') continue;
    const amount = amountIn(fields[field], currency, label);
    if (typeof amount === 'string') problems.push({ field, message: amount });
    else caps[field] = amount;
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, limit: { currency, perBookingMinor: caps.per_booking ?? null, per30DaysMinor: caps.per_30_days ?? null } };
}

/** The amount in minor units, or a message saying what is wrong and what to type instead. */
function amountIn(text: string, currency: string, label: string): bigint | string {
  const digits = minorUnits(currency) as number;
  const example = digits === 0 ? '250' : `250 or 250.${'5'.padEnd(digits, '0')}`;
  if (text.startsWith('-')) return `The ${label} cannot be negative: enter an amount of 0 or more (0 stops every purchase), or leave it blank for no cap.`;
  let minor: bigint;
  try {
    minor = toMinorUnits(text, currency);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    if (Object.values(error.fields).some((problem) => problem.rule === 'minor_units')) {
      return `${currency} amounts have ${digits === 0 ? 'no decimal places' : `at most ${digits} decimal places`}: enter the ${label} like ${example}.`;
    }
    return `Enter the ${label} as an amount in ${currency} such as ${example} (digits only: no currency sign, spaces or thousands separators), or leave it blank for no cap.`;
  }
  if (minor > MAX_UNITS * 10n ** BigInt(digits)) return `The ${label} can be at most 1,000,000,000 ${currency}: enter a smaller amount, or leave it blank for no cap.`;
  return minor;
}

/** Runs `save`; the store's own refusal (a ValidationError naming the same fields) becomes the form's problems. */
export async function saveOrProblems(save: () => Promise<void>): Promise<LimitProblem[]> {
  try {
    await save();
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return Object.values(error.fields).map((problem) => ({
      // The store names the form's own fields; anything else is shown beside the currency, the first one.
      field: FIELD_NAMES.has(problem.field) ? (problem.field as keyof LimitFields) : 'currency',
      message: `${problem.field.replace(/_/g, ' ')}: ${problem.message}.`,
    }));
  }
}

const FIELD_NAMES = new Set<string>(['currency', 'per_booking', 'per_30_days']);

/** The limit in words, for the Connected apps page. */
export function describeLimit(limit: SpendingLimit): string {
  const caps = [
    limit.perBookingMinor !== null ? `${limit.currency} ${fromMinorUnits(limit.perBookingMinor, limit.currency)} per booking` : '',
    limit.per30DaysMinor !== null ? `${limit.currency} ${fromMinorUnits(limit.per30DaysMinor, limit.currency)} in any 30 days` : '',
  ].filter(Boolean);
  return `At most ${caps.join(' and ')}.`;
}
