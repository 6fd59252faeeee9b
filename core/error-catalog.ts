/**
 * What a caller can do about each error code: whether the same request may succeed if retried, whether
 * only the traveler can unblock it (confirm, sign in again, pick another card), and where our published
 * docs explain it (`/docs/errors#<code>`, a page rendered from this catalog). Every door adds these to its
 * error bodies: the REST envelopes (`request_id`, `doc_url`) and tool errors (`retryable`, `needs_user`,
 * `request_id`, `doc_url`).
 *
 * The entries live in error-catalog/, one file per family of kinds, in the order the docs page shows
 * them. A test reads the source for every code the service can answer and fails when one is missing here.
 */
import { ACCESS_ERRORS } from './error-catalog/access.js';
import { AVAILABILITY_ERRORS } from './error-catalog/availability.js';
import type { ErrorAdvice, ErrorEntry, ErrorGroup } from './error-catalog/entry.js';
import { REFUSAL_ERRORS } from './error-catalog/refusals.js';
import { REQUEST_ERRORS } from './error-catalog/request.js';
import { STATE_ERRORS } from './error-catalog/state.js';
import { WEBHOOK_ERRORS } from './error-catalog/webhooks.js';
import type { DomainError, ErrorKind } from './errors.js';

export type { ErrorAdvice, ErrorEntry, ErrorGroup } from './error-catalog/entry.js';

/** Where the docs page of errors is served; each code is an anchor on it. */
export const ERROR_DOCS_PATH = '/docs/errors';

/** The families of codes, in the order the docs page shows them. */
export const ERROR_GROUPS: readonly ErrorGroup[] = [...REQUEST_ERRORS, ...ACCESS_ERRORS, ...STATE_ERRORS, ...REFUSAL_ERRORS, ...WEBHOOK_ERRORS, ...AVAILABILITY_ERRORS];

/** Every code, once. Without a prototype: a code such as `constructor` must not find Object's. */
export const ERROR_CATALOG: Readonly<Record<string, ErrorEntry>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, ErrorEntry>, ...ERROR_GROUPS.map((group) => group.entries)),
);

/** For a code the catalog lacks (it should not), the kind decides. */
const ADVICE_BY_KIND: Record<ErrorKind, ErrorAdvice> = {
  validation: { retryable: false, needsUser: false },
  unauthenticated: { retryable: false, needsUser: true },
  forbidden: { retryable: false, needsUser: false },
  not_found: { retryable: false, needsUser: false },
  conflict: { retryable: false, needsUser: false },
  gone: { retryable: false, needsUser: false },
  rate_limited: { retryable: true, needsUser: false },
  price_changed: { retryable: false, needsUser: true },
  provider_rejected: { retryable: false, needsUser: false },
  provider_unavailable: { retryable: true, needsUser: false },
  provider_timeout: { retryable: true, needsUser: false },
  payment_declined: { retryable: false, needsUser: true },
  unprocessable: { retryable: false, needsUser: false },
  not_implemented: { retryable: false, needsUser: false },
};

export function adviceFor(error: Pick<DomainError, 'kind' | 'code'>): ErrorAdvice {
  const entry = ERROR_CATALOG[error.code];
  return entry ? { retryable: entry.retryable, needsUser: entry.needsUser } : ADVICE_BY_KIND[error.kind];
}

/** The HTTP statuses a code is answered with (most have one). */
export function statusesOf(entry: ErrorEntry): readonly number[] {
  return typeof entry.status === 'number' ? [entry.status] : entry.status;
}

/**
 * The docs anchor of a code, on the service's public origin; the page itself for a code the catalog
 * lacks (a test keeps that from happening), so that a link never points at an anchor that is not there.
 */
export function errorDocUrl(publicOrigin: string, code: string): string {
  const page = `${publicOrigin.replace(/\/+$/, '')}${ERROR_DOCS_PATH}`;
  return Object.hasOwn(ERROR_CATALOG, code) ? `${page}#${code}` : page;
}
