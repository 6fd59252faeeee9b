/**
 * For the property tests: values a hostile client sends, and the check that every answer to them is one
 * of our envelopes. The values are text PostgreSQL cannot store (lone UTF-16 surrogates, NULs) among
 * ordinary strings, and JSON nested far deeper than any request of ours.
 */
import fc from 'fast-check';
import type { Json } from './http.js';

const UNSTORABLE = ['\ud800', '\udfff', 'Ada\udc00', '\ud83d', 'O\u0000Brien', '\u0000'];

/** Strings, sometimes with a lone surrogate or a NUL somewhere inside. */
export function hostileText(maxLength = 60): fc.Arbitrary<string> {
  const plain = fc.string({ maxLength });
  return fc.oneof(
    { weight: 3, arbitrary: plain },
    { weight: 1, arbitrary: fc.constantFrom(...UNSTORABLE) },
    { weight: 1, arbitrary: fc.tuple(plain, fc.constantFrom(...UNSTORABLE), plain).map((parts) => parts.join('')) },
  );
}

/**
 * Arrays or objects nested between 60 and 1,500 levels (the service takes 64). Deeper values are sent as
 * text (nestedJson): the test's own JSON.stringify overflows its stack at about 5,000.
 */
export function deeplyNested(): fc.Arbitrary<Json> {
  return fc.tuple(fc.integer({ min: 60, max: 1500 }), fc.constantFrom('array', 'object'), fc.constantFrom('first_name', 'seat', 'scopes', 'a')).map(([depth, kind, key]) => nested(depth, kind, key));
}

/** `[[[...]]]` or `{"key":{"key":...}}` as JSON text, `depth` levels. */
export function nestedJson(depth: number, kind: 'array' | 'object', key = 'a'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The same as a value, built without recursion. */
export function nested(depth: number, kind: 'array' | 'object', key = 'a'): Json {
  let value: Json = 1;
  for (let level = 0; level < depth; level++) value = kind === 'array' ? [value] : { [key]: value };
  return value;
}

/**
 * Reads the response: never a 5xx, and an error is the standard envelope `{message, status_code, code}`,
 * the validation envelope `{message, code, fields}` or, for bearer tokens, the OAuth envelope.
 */
export async function answersInOurEnvelope(response: Response): Promise<boolean> {
  const text = await response.text();
  if (response.status >= 500) return false;
  if (response.status < 400) return true;
  const body = parsed(text);
  return isStandard(body, response.status) || isValidation(body) || isOAuth(body);
}

/**
 * The same for the hosted pages: never a 5xx; an error is one of our pages (HTML) or, for a client that
 * does not ask for HTML, the OAuth envelope `{error, error_description}` (or the standard envelope, which
 * the error middleware gives the pages' JSON API and unknown apps).
 */
export async function answersAsOurPages(response: Response): Promise<boolean> {
  const text = await response.text();
  if (response.status >= 500) return false;
  if (response.status < 400) return true;
  if ((response.headers.get('content-type') ?? '').startsWith('text/html')) return text.includes('<html');
  const body = parsed(text);
  return isOAuth(body) || isStandard(body, response.status) || isValidation(body);
}

function parsed(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isStandard(body: Json, status: number): boolean {
  return typeof body?.message === 'string' && body.status_code === status && typeof body.code === 'string';
}

function isValidation(body: Json): boolean {
  return (
    typeof body?.message === 'string' &&
    body.code === 'validation_error' &&
    typeof body.fields === 'object' &&
    Object.values(body.fields as Record<string, Json>).every((entry) => typeof entry.field === 'string' && typeof entry.rule === 'string' && typeof entry.message === 'string')
  );
}

function isOAuth(body: Json): boolean {
  return typeof body?.error === 'string' && typeof body.error_description === 'string';
}
