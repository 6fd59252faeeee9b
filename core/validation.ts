/**
 * zod failures as the specification's validation envelope: one entry per field path, naming the rule
 * that failed (`required`, `type`, `min_length`, `format`, `enum`, `unknown_field`, ...) in words that
 * say what to send instead.
 */
import { z } from 'zod';
import { ValidationError, type FieldError } from './errors.js';

/** Parses `input` with `schema` or throws ValidationError; `prefix` names where the input came from. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(toFieldErrors(result.error, prefix));
}

export function toFieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  const fields: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = joinPath(prefix, [...issue.path, key]);
        fields.push({ field, rule: 'unknown_field', message: `${field} is not a known field: remove it` });
      }
      continue;
    }
    const field = joinPath(prefix, issue.path);
    const { rule, message } = describe(issue, field || 'the body');
    fields.push({ field: field || '(body)', rule, message });
  }
  return fields;
}

function joinPath(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  return [prefix, ...path.map(String)].filter((part) => part !== '').join('.');
}

type Issue = z.core.$ZodIssue;

const MISSING_VALUE_CODES = new Set(['invalid_type', 'invalid_value', 'invalid_union']);

function describe(issue: Issue, field: string): { rule: string; message: string } {
  // Parsed with reportInput, an issue lacks its input only when the value was absent. A schema's own
  // message (`z.string({ error })`) says how to supply it.
  if (issue.input === undefined && MISSING_VALUE_CODES.has(issue.code)) {
    return { rule: 'required', message: `${field} is required${customOr(issue.message, '', ': ')}` };
  }
  switch (issue.code) {
    case 'invalid_type':
      return { rule: 'type', message: `${field} must be ${article(issue.expected)}` };
    case 'too_small':
      return sizeRule(issue.origin, 'min', issue.minimum, issue.inclusive ?? true, field);
    case 'too_big':
      return sizeRule(issue.origin, 'max', issue.maximum, issue.inclusive ?? true, field);
    case 'invalid_format': {
      const format = issue.format === 'regex' ? 'pattern' : issue.format;
      return { rule: format, message: `${field} ${customOr(issue.message, `must be a valid ${issue.format}`)}` };
    }
    case 'invalid_value':
      return {
        rule: 'enum',
        message: `${field} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`,
      };
    case 'not_multiple_of':
      return { rule: 'multiple_of', message: `${field} must be a multiple of ${String(issue.divisor)}` };
    case 'invalid_union':
      return { rule: 'one_of', message: `${field} does not match any of the accepted shapes` };
    default:
      return { rule: 'custom', message: `${field} ${issue.message}` };
  }
}

function sizeRule(origin: string, bound: 'min' | 'max', limit: number | bigint, inclusive: boolean, field: string) {
  const limitText = String(limit);
  if (origin === 'string') {
    const words = bound === 'min' ? 'at least' : 'at most';
    return { rule: `${bound}_length`, message: `${field} must be ${words} ${limitText} characters long` };
  }
  if (origin === 'array' || origin === 'set') {
    const words = bound === 'min' ? 'at least' : 'at most';
    return { rule: `${bound}_items`, message: `${field} must have ${words} ${limitText} items` };
  }
  const words = bound === 'min' ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
  return { rule: bound, message: `${field} must be ${words} ${limitText}` };
}

/** zod's default messages start with "Invalid"; ours (passed to the schema) are worth keeping. */
function customOr(message: string, fallback: string, lead = ''): string {
  return message.startsWith('Invalid') ? fallback : `${lead}${message}`;
}

function article(expected: string): string {
  const noun = expected === 'nonoptional' ? 'a value' : expected;
  return /^[aeiou]/.test(noun) ? `an ${noun}` : noun === 'a value' ? noun : `a ${noun}`;
}

/** A calendar day, YYYY-MM-DD, between 1900 and 2999: the range PostgreSQL and people's lives share. */
export const CalendarDate = z.iso
  .date()
  .refine((day) => day >= '1900-01-01' && day <= '2999-12-31', 'a date between 1900-01-01 and 2999-12-31');

/** Free text that PostgreSQL can store (no NUL character), trimmed, within `min` and `max` characters. */
export function Text(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((text) => !text.includes('\u0000'), 'must not contain NUL characters');
}

/** A person's name as passports print it: letters of any script, spaces, hyphens and apostrophes. */
export function PersonName(min: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(100)
    .regex(/^[\p{L}][\p{L}\p{M} '’-]*$/u, 'letters, spaces, hyphens and apostrophes only');
}
