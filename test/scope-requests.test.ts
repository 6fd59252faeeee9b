import test from 'ava';
import { InvalidScopeError, readScopeRequest, scopesForToken, scopesToOffer, scopesToReask } from '../core/scope-requests.js';
import { SCOPE_NAMES } from '../core/scopes.js';

test('known scopes are read, identity scopes apart, duplicates once', (t) => {
  t.deepEqual(readScopeRequest('openid profile.read profile.read bookings.write email', 'partner'), {
    legacy: false,
    identity: ['openid', 'email'],
    scopes: ['profile.read', 'bookings.write'],
  });
});

test('an unknown scope is refused with invalid_scope naming it (rule 1)', (t) => {
  const error = t.throws(() => readScopeRequest('profile.read admin.everything', 'agent'), { instanceOf: InvalidScopeError });
  t.is(error.code, 'invalid_scope');
  t.regex(error.message, /"admin\.everything"/);
  t.regex(error.message, /loyalty\.read/, 'the list of valid scopes names loyalty.read');
});

test('loyalty.read is known beside the ten, for partners and dynamic clients alike (rule 1)', (t) => {
  t.deepEqual(readScopeRequest('openid profile.read loyalty.read', 'partner'), { legacy: false, identity: ['openid'], scopes: ['profile.read', 'loyalty.read'] });
  t.deepEqual(readScopeRequest('loyalty.read', 'partner'), { legacy: false, identity: [], scopes: ['loyalty.read'] }, 'loyalty.read alone is a scoped request, not legacy');
  t.deepEqual(readScopeRequest('loyalty.read', 'agent'), { legacy: false, identity: [], scopes: ['loyalty.read'] }, 'not widened to the ten');
});

test('no scope: a dynamic client asks for all ten, a partner client is legacy (rule 8)', (t) => {
  t.deepEqual(readScopeRequest(undefined, 'agent'), { legacy: false, identity: [], scopes: [...SCOPE_NAMES] });
  t.deepEqual(readScopeRequest('openid', 'agent'), { legacy: false, identity: ['openid'], scopes: [...SCOPE_NAMES] });
  t.deepEqual(readScopeRequest('', 'partner'), { legacy: true, identity: [] });
  t.deepEqual(readScopeRequest('openid email', 'partner'), { legacy: true, identity: ['openid', 'email'] });
  const all = readScopeRequest(undefined, 'agent');
  t.false(!all.legacy && (all.scopes as string[]).includes('loyalty.read'), '"all ten" never includes loyalty.read');
});

test('the first-party account client asks for identity scopes only, never the ten (its consent would loop)', (t) => {
  t.deepEqual(readScopeRequest('openid', 'first_party'), { legacy: false, identity: ['openid'], scopes: [] });
  t.deepEqual(readScopeRequest(undefined, 'first_party'), { legacy: false, identity: ['openid'], scopes: [] });
  t.deepEqual(readScopeRequest('openid profile.read', 'first_party'), { legacy: false, identity: ['openid'], scopes: [] });
  t.deepEqual(readScopeRequest('openid loyalty.read', 'first_party'), { legacy: false, identity: ['openid'], scopes: [] });
  t.throws(() => readScopeRequest('openid bogus', 'first_party'), { code: 'invalid_scope' });
});

test('the consent screen offers only what is new and not declined before (rules 3, 4)', (t) => {
  t.deepEqual(
    scopesToOffer(['profile.read', 'profile.write', 'bookings.read'], new Set(['profile.read']), new Set(['bookings.read'])),
    ['profile.write'],
  );
  t.deepEqual(scopesToOffer(['profile.read'], new Set(['profile.read']), new Set()), []);
});

test('a declined loyalty.read that the request names is offered again; other declined scopes are not (rules 4, 9)', (t) => {
  const declined = new Set(['loyalty.read', 'payments.read']);
  t.deepEqual(scopesToOffer(['profile.read', 'payments.read', 'loyalty.read'], new Set(['profile.read']), declined), ['loyalty.read']);
  t.deepEqual(scopesToReask(['profile.read', 'payments.read', 'loyalty.read'], declined), ['loyalty.read']);
  // Not named: nothing is asked again (a request without scope never names it).
  t.deepEqual(scopesToOffer(['profile.read', 'payments.read'], new Set(['profile.read']), declined), []);
  t.deepEqual(scopesToReask(['profile.read', 'payments.read'], declined), []);
  // Granted: nothing to ask.
  t.deepEqual(scopesToOffer(['loyalty.read'], new Set(['loyalty.read']), new Set()), []);
  t.deepEqual(scopesToReask(['loyalty.read'], new Set()), []);
});

test('the token carries requested ∩ granted; all declined is invalid_scope (rules 2, 5)', (t) => {
  t.deepEqual(scopesForToken(['profile.read', 'bookings.write'], new Set(['bookings.write', 'payments.read'])), ['bookings.write']);
  t.throws(() => scopesForToken(['profile.read'], new Set(['bookings.write'])), { instanceOf: InvalidScopeError });
});
