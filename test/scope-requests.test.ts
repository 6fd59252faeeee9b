import test from 'ava';
import { InvalidScopeError, readScopeRequest, scopesForToken, scopesToOffer } from '../core/scope-requests.js';
import { SCOPE_NAMES } from '../core/scopes.js';

test('known scopes are read, identity scopes apart, duplicates once', (t) => {
  t.deepEqual(readScopeRequest('openid profile.read profile.read bookings.write email', 'partner'), {
    legacy: false,
    identity: ['openid', 'email'],
    scopes: ['profile.read', 'bookings.write'],
  });
});

test('an unknown scope is refused with invalid_scope naming it (rule 1)', (t) => {
  const error = t.throws(() => readScopeRequest('profile.read admin.everything', 'dynamic'), { instanceOf: InvalidScopeError });
  t.is(error.code, 'invalid_scope');
  t.regex(error.message, /"admin\.everything"/);
});

test('no scope: a dynamic client asks for all ten, a partner client is legacy (rule 8)', (t) => {
  t.deepEqual(readScopeRequest(undefined, 'dynamic'), { legacy: false, identity: [], scopes: [...SCOPE_NAMES] });
  t.deepEqual(readScopeRequest('openid', 'dynamic'), { legacy: false, identity: ['openid'], scopes: [...SCOPE_NAMES] });
  t.deepEqual(readScopeRequest('', 'partner'), { legacy: true, identity: [] });
  t.deepEqual(readScopeRequest('openid email', 'partner'), { legacy: true, identity: ['openid', 'email'] });
});

test('the first-party account client asks for identity scopes only, never the ten (its consent would loop)', (t) => {
  t.deepEqual(readScopeRequest('openid', 'first_party'), { legacy: false, identity: ['openid'], scopes: [] });
  t.deepEqual(readScopeRequest(undefined, 'first_party'), { legacy: false, identity: ['openid'], scopes: [] });
  t.deepEqual(readScopeRequest('openid profile.read', 'first_party'), { legacy: false, identity: ['openid'], scopes: [] });
  t.throws(() => readScopeRequest('openid bogus', 'first_party'), { code: 'invalid_scope' });
});

test('the consent screen offers only what is new and not declined before (rules 3, 4)', (t) => {
  t.deepEqual(
    scopesToOffer(['profile.read', 'profile.write', 'bookings.read'], new Set(['profile.read']), new Set(['bookings.read'])),
    ['profile.write'],
  );
  t.deepEqual(scopesToOffer(['profile.read'], new Set(['profile.read']), new Set()), []);
});

test('the token carries requested ∩ granted; all declined is invalid_scope (rules 2, 5)', (t) => {
  t.deepEqual(scopesForToken(['profile.read', 'bookings.write'], new Set(['bookings.write', 'payments.read'])), ['bookings.write']);
  t.throws(() => scopesForToken(['profile.read'], new Set(['bookings.write'])), { instanceOf: InvalidScopeError });
});
