/**
 * What a caller can do about each error code: whether the same request may succeed if retried, whether
 * only the traveler can unblock it (confirm, sign in again, pick another card), and where our published
 * docs explain it (`/docs/errors#<code>`, a page rendered from this catalog). Every door adds these to its
 * error bodies: the REST envelopes (`request_id`, `doc_url`) and tool errors (`retryable`, `needs_user`,
 * `request_id`, `doc_url`).
 *
 * TODO(issue 14, errors helper): one entry for every code the service answers, and the page.
 */
import type { DomainError, ErrorKind } from './errors.js';

export interface ErrorAdvice {
  /** The same request may succeed later, unchanged (after Retry-After where one is given). */
  retryable: boolean;
  /** Only the traveler can unblock it: ask them, or show them a URL. */
  needsUser: boolean;
}

export interface ErrorEntry extends ErrorAdvice {
  /** A short title for the docs page. */
  title: string;
  /** What to do about it, for the docs page. */
  help: string;
}

/** Where the docs page of errors is served; each code is an anchor on it. */
export const ERROR_DOCS_PATH = '/docs/errors';

export const ERROR_CATALOG: Readonly<Record<string, ErrorEntry>> = {};

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

/** The docs anchor of a code, on the service's public origin. */
export function errorDocUrl(publicOrigin: string, code: string): string {
  return `${publicOrigin.replace(/\/+$/, '')}${ERROR_DOCS_PATH}#${code}`;
}
