/**
 * The permission boxes of the consent page and the Connected apps page lead with what a permission lets
 * the app do (CONSENT_SCOPES); the scope's identifier stays on the page, small, beside it, and is not
 * part of the box's name. Inputs keep their ids, names and values (the forms post them).
 */
import test from 'ava';
import { appsPage } from '../authz/pages/apps-page.js';
import { consentPage } from '../authz/pages/sign-in-pages.js';
import { CONSENT_SCOPES } from '../core/scopes.js';

const consent = (reasked: ('loyalty.read' | 'profile.read')[] = []) =>
  consentPage({
    action: '/interaction/abc/consent',
    csrfToken: 'token',
    clientName: 'Example Air',
    scopes: ['profile.read', 'bookings.write', 'loyalty.read'],
    reasked,
    denyAction: '/interaction/abc/deny',
    signedInAs: 'ada@example.com',
    switchUrl: '/?prompt=login',
    signOut: { action: '/account/sign-out', csrfToken: 'session-token' },
  });

/** The text of the <label for="id">, tags stripped. */
function labelText(page: string, id: string): string | undefined {
  const match = new RegExp(`<label[^>]* for="${id.replace(/\./g, '\\.')}"[^>]*>([\\s\\S]*?)</label>`).exec(page);
  return match?.[1]?.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
}

test('consent: each box is labelled by its meaning; the identifier follows, small, outside the label', (t) => {
  const page = consent();
  for (const scope of ['profile.read', 'bookings.write', 'loyalty.read'] as const) {
    t.regex(page, new RegExp(`<input id="scope-${scope.replace('.', '\\.')}" type="checkbox" name="scope" value="${scope.replace('.', '\\.')}" checked>`));
    t.is(labelText(page, `scope-${scope}`), CONSENT_SCOPES[scope], `${scope}: the label says what it means, and only that`);
    t.regex(page, new RegExp(`</label>\\s*<small class="scope-id">${scope.replace('.', '\\.')}</small>`), `${scope}: the identifier follows the meaning`);
  }
  // The meaning comes first on the page: the identifier never leads a box.
  t.notRegex(page, /<strong>profile\.read<\/strong>|<span>profile\.read<small>/);
});

test('consent: a box asked again keeps its note, described by it and outside the name', (t) => {
  const page = consent(['loyalty.read']);
  t.regex(page, /value="loyalty\.read" aria-describedby="scope-loyalty\.read-note" >/);
  t.is(labelText(page, 'scope-loyalty.read'), CONSENT_SCOPES['loyalty.read']);
  t.regex(page, /<small class="reasked" id="scope-loyalty\.read-note">You turned this off for Example Air before/);
});

test('Connected apps: the same boxes, labelled by meaning, identifier beside', (t) => {
  const page = appsPage({
    email: 'ada@example.com',
    csrfToken: 'token',
    signOutAction: '/account/sign-out',
    apps: [{ client_id: 'c1', client_name: 'Trip Agent', granted: ['profile.read'], declined: ['payments.read'], connected_at: '2024-05-01T00:00:00Z', kind: 'agent' }],
  });
  t.regex(page, /<input id="c1-profile\.read" type="checkbox" name="scope" value="profile\.read" checked>/);
  t.regex(page, /<input id="c1-payments\.read" type="checkbox" name="scope" value="payments\.read" >/);
  t.is(labelText(page, 'c1-profile.read'), CONSENT_SCOPES['profile.read']);
  t.is(labelText(page, 'c1-payments.read'), CONSENT_SCOPES['payments.read']);
  t.regex(page, /<\/label>\s*<small class="scope-id">payments\.read<\/small>/);
});
