/**
 * The error catalog against the code base: every code the source can answer with has an entry (so a new
 * code without documentation fails here, not in a partner's hands), each entry's HTTP status is the one
 * the REST door really answers for the kinds and statuses the source gives that code, and the advice and
 * links the doors build from it.
 */
import test from 'ava';
import { adviceFor, ERROR_CATALOG, ERROR_DOCS_PATH, ERROR_GROUPS, errorDocUrl, statusesOf } from '../core/error-catalog.js';
import type { ErrorKind } from '../core/errors.js';
import { STATUS_BY_KIND } from '../rest/error-handler.js';
import { findErrorCodes, type FoundCode } from './helpers/error-codes.js';

const found = findErrorCodes(process.cwd());

/** The codes issue 14 brings, which the source may not throw yet. */
const ARRIVING = [
  'confirmation_required',
  'confirmation_pending',
  'confirmation_outdated',
  'confirmation_declined',
  'confirmation_expired',
  'confirmation_used',
  'confirmation_not_found',
  'confirmation_not_yours',
  'spending_limit_exceeded',
  'total_changed',
];

test('the scan of the source finds the codes of every way an error is made', (t) => {
  const codes = new Set(found.map((finding) => finding.code));
  // A subclass's fixed code, a default parameter, an HttpProblem, a body written in place, a tool's error.
  for (const code of ['invalid_token', 'not_found', 'route_not_found', 'api_key_not_allowed', 'tool_not_found', 'validation_error', 'internal_error']) {
    t.true(codes.has(code), code);
  }
  // Outside systems' own words (the sandboxes, a processor's decline codes) are not ours.
  t.false(codes.has('expired_card'));
  t.false(codes.has('custom'));
  t.true(codes.size > 90);
});

test('every code the source can answer with is in the catalog', (t) => {
  const missing = found.filter((finding) => !Object.hasOwn(ERROR_CATALOG, finding.code)).map((finding) => `${finding.code} (${finding.where})`);
  t.deepEqual(missing, [], 'add these codes to core/error-catalog/ with a title, help, status, retryable and needs_user');
});

test('the codes arriving with purchase confirmation and spending limits are in the catalog', (t) => {
  for (const code of ARRIVING) t.true(Object.hasOwn(ERROR_CATALOG, code), code);
  t.like(ERROR_CATALOG.confirmation_required, { status: 403, needsUser: true });
  t.like(ERROR_CATALOG.confirmation_pending, { needsUser: true });
  t.like(ERROR_CATALOG.confirmation_outdated, { needsUser: true });
  t.like(ERROR_CATALOG.confirmation_declined, { status: 403 });
  t.like(ERROR_CATALOG.confirmation_expired, { status: 410 });
  t.like(ERROR_CATALOG.confirmation_used, { status: 409 });
  t.like(ERROR_CATALOG.confirmation_not_found, { status: 404 });
  t.like(ERROR_CATALOG.spending_limit_exceeded, { status: 403, needsUser: true });
  t.like(ERROR_CATALOG.total_changed, { status: 409, needsUser: true });
  t.like(ERROR_CATALOG.invalid_token, { status: 401 });
  t.like(ERROR_CATALOG.insufficient_scope, { status: 403 });
});

test('each entry’s status is the one the REST door answers for that code', (t) => {
  const expected = (finding: FoundCode) => finding.status ?? (finding.kind ? STATUS_BY_KIND[finding.kind as ErrorKind] : undefined);
  const wrong = found
    .filter((finding) => Object.hasOwn(ERROR_CATALOG, finding.code) && expected(finding) !== undefined)
    .filter((finding) => !statusesOf(ERROR_CATALOG[finding.code]!).includes(expected(finding)!))
    .map((finding) => `${finding.code}: answered ${expected(finding)} at ${finding.where}, catalog says ${String(ERROR_CATALOG[finding.code]!.status)}`);
  t.deepEqual(wrong, []);
});

test('every entry is complete, and each code appears once, in one group', (t) => {
  const seen = new Map<string, string>();
  for (const group of ERROR_GROUPS) {
    t.true(group.title.length > 0 && group.summary.length > 20, group.title);
    for (const [code, entry] of Object.entries(group.entries)) {
      t.false(seen.has(code), `${code} is in both ${seen.get(code)} and ${group.title}`);
      seen.set(code, group.title);
      t.regex(code, /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
      t.true(entry.title.length > 0, code);
      t.true(entry.help.length > 40, `${code}: the help says what to do next`);
      t.regex(entry.help, /[.)]$/, code);
      t.is(typeof entry.retryable, 'boolean', code);
      t.is(typeof entry.needsUser, 'boolean', code);
      for (const status of statusesOf(entry)) t.true(status >= 400 && status <= 599, code);
    }
  }
  t.is(seen.size, Object.keys(ERROR_CATALOG).length);
});

test('adviceFor reads the catalog, and the kind only for a code it lacks', (t) => {
  t.deepEqual(adviceFor({ kind: 'forbidden', code: 'confirmation_required' }), { retryable: false, needsUser: true });
  t.deepEqual(adviceFor({ kind: 'provider_unavailable', code: 'payment_unavailable' }), { retryable: true, needsUser: false });
  t.deepEqual(adviceFor({ kind: 'rate_limited', code: 'api_key_not_allowed' }), { retryable: false, needsUser: false });
  t.deepEqual(adviceFor({ kind: 'provider_timeout', code: 'no_such_code' }), { retryable: true, needsUser: false });
  // Object's own properties are not codes.
  t.deepEqual(adviceFor({ kind: 'validation', code: 'constructor' }), { retryable: false, needsUser: false });
  t.deepEqual(adviceFor({ kind: 'validation', code: '__proto__' }), { retryable: false, needsUser: false });
});

test('errorDocUrl points at the code’s anchor, and at the page for a code the catalog lacks', (t) => {
  t.is(errorDocUrl('https://api.example.com/', 'offer_expired'), `https://api.example.com${ERROR_DOCS_PATH}#offer_expired`);
  t.is(errorDocUrl('https://api.example.com', 'no_such_code'), `https://api.example.com${ERROR_DOCS_PATH}`);
  t.is(errorDocUrl('https://api.example.com', 'toString'), `https://api.example.com${ERROR_DOCS_PATH}`);
});
