/**
 * Stripe's dialect, as the payment processor sandbox speaks it: the secret key (Bearer, or Basic with the
 * key as user name), form parameters in bracket notation, and errors as `{error: {type, code, ...}}`.
 * A refusal is thrown as a `StripeRefusal` and answered (and, with an idempotency key, remembered) by
 * the router.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { inputProblems } from '../../core/input-checks.js';

export type ErrorType = 'card_error' | 'invalid_request_error' | 'api_error' | 'idempotency_error';

export interface StripeErrorBody {
  type: ErrorType;
  code?: string;
  decline_code?: string;
  param?: string;
  message: string;
  payment_intent?: unknown;
}

/** What the sandbox answers: an HTTP status and a body, as a replay gives it back. */
export interface Answer {
  status: number;
  body: unknown;
}

export class StripeRefusal extends Error {
  readonly answer: Answer;

  constructor(status: number, error: StripeErrorBody) {
    super(error.message);
    this.answer = { status, body: { error } };
  }
}

export const invalidRequest = (message: string, extra: Omit<StripeErrorBody, 'type' | 'message'> = {}, status = 400) =>
  new StripeRefusal(status, { type: 'invalid_request_error', message, ...extra });

export const apiError = () =>
  new StripeRefusal(500, { type: 'api_error', message: 'An error occurred while processing your request. Retry it in a moment.' });

/** An id that names nothing of this account's: 404 when it is the path's, 400 when a parameter's. */
export const resourceMissing = (what: string, id: string, param: string, status: 400 | 404) =>
  invalidRequest(`No such ${what}: '${id}'`, { code: 'resource_missing', param }, status);

/**
 * The account a request acts for: a digest of its secret key (each key is an account of its own, and
 * sees only its own objects), or a 401 in Stripe's words.
 */
export function accountOf(ctx: Context, apiKeys: readonly string[]): string {
  const key = presentedKey(ctx.get('authorization'));
  if (key === undefined) {
    throw invalidRequest(
      'You did not provide an API key. Provide it in the Authorization header, using Bearer auth (e.g. "Authorization: Bearer YOUR_SECRET_KEY").',
      {},
      401,
    );
  }
  if (!apiKeys.some((known) => sameText(known, key))) {
    const shown = key.length > 8 ? `${key.slice(0, 7)}${'*'.repeat(Math.min(key.length - 11, 24))}${key.slice(-4)}` : '****';
    throw invalidRequest(`Invalid API Key provided: ${shown}`, { code: 'api_key_invalid' }, 401);
  }
  return createHash('sha256').update(`processor-sandbox:${key}`).digest('hex').slice(0, 32);
}

function presentedKey(header: string): string | undefined {
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (!scheme || !value) return undefined;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const user = decoded.split(':', 1)[0];
    return user || undefined;
  }
  return undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Stripe's metadata limits. */
const METADATA_KEYS = 50;
const METADATA_KEY_LENGTH = 40;
const METADATA_VALUE_LENGTH = 500;

/** The parameters of one request (a parsed form), read one by one in Stripe's terms. */
export class Params {
  readonly #values: Record<string, unknown>;

  constructor(body: unknown, allowed: readonly string[]) {
    this.#values = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const problem = inputProblems(this.#values)[0];
    if (problem) throw invalidRequest(`Invalid value for ${problem.field || 'a parameter'}: text must not contain NUL characters or lone surrogates.`, { param: problem.field });
    const unknown = Object.keys(this.#values).find((name) => !allowed.includes(name));
    if (unknown !== undefined) throw invalidRequest(`Received unknown parameter: ${unknown}`, { code: 'parameter_unknown', param: unknown });
  }

  /** Everything that was sent, for the idempotency key's fingerprint. */
  get all(): Record<string, unknown> {
    return this.#values;
  }

  string(name: string, options: { required: true; max?: number }): string;
  string(name: string, options?: { required?: false; max?: number }): string | undefined;
  string(name: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.#values[name];
    if (value === undefined || value === '') {
      if (options.required) throw missing(name);
      return undefined;
    }
    if (typeof value !== 'string') throw invalidRequest(`Invalid string: ${name} must be a string.`, { param: name });
    if (options.max !== undefined && value.length > options.max) {
      throw invalidRequest(`Invalid string: ${name} must be at most ${options.max} characters long.`, { param: name });
    }
    return value;
  }

  /** A positive whole number of minor units. */
  integer(name: string, options: { required: true }): number;
  integer(name: string, options?: { required?: false }): number | undefined;
  integer(name: string, options: { required?: boolean } = {}): number | undefined {
    const value = this.#values[name];
    if (value === undefined || value === '') {
      if (options.required) throw missing(name);
      return undefined;
    }
    if (typeof value !== 'string' || !/^-?\d{1,15}$/.test(value)) throw invalidRequest(`Invalid integer: ${String(value)}`, { code: 'parameter_invalid_integer', param: name });
    const number = Number(value);
    if (number < 1) throw invalidRequest(`Invalid ${name}: must be at least 1.`, { code: 'parameter_invalid_integer', param: name });
    return number;
  }

  boolean(name: string): boolean | undefined {
    const value = this.#values[name];
    if (value === undefined || value === '') return undefined;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw invalidRequest(`Invalid boolean: ${String(value)}`, { param: name });
  }

  oneOf<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(choices as readonly string[]).includes(value)) throw invalidRequest(`Invalid ${name}: must be one of ${choices.join(', ')}`, { param: name });
    return value as T;
  }

  /** `metadata[key]=value` pairs: strings only, within Stripe's limits. */
  metadata(): Record<string, string> {
    const value = this.#values.metadata;
    if (value === undefined || value === '') return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalidRequest('Invalid object: metadata must be sent as metadata[key]=value.', { param: 'metadata' });
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > METADATA_KEYS) throw invalidRequest(`Invalid metadata: at most ${METADATA_KEYS} keys.`, { param: 'metadata' });
    const metadata: Record<string, string> = {};
    for (const [key, item] of entries) {
      if (typeof item !== 'string') throw invalidRequest(`Invalid metadata[${key}]: must be a string.`, { param: `metadata[${key}]` });
      if (key.length > METADATA_KEY_LENGTH || item.length > METADATA_VALUE_LENGTH) {
        throw invalidRequest(`Invalid metadata[${key}]: keys are at most ${METADATA_KEY_LENGTH} characters, values ${METADATA_VALUE_LENGTH}.`, { param: `metadata[${key}]` });
      }
      Object.defineProperty(metadata, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
    return metadata;
  }
}

function missing(name: string): StripeRefusal {
  return invalidRequest(`Missing required param: ${name}.`, { code: 'parameter_missing', param: name });
}

/** Stripe-style ids: a prefix and 24 random characters. */
export function newId(prefix: 'pi' | 'ch' | 're' | 'req'): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  return `${prefix}_${Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** Unix seconds, as Stripe's `created`. */
export const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
