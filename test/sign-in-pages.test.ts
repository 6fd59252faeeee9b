import test from 'ava';
import { CsrfTokens } from '../authz/pages/csrf.js';
import { escapeHtml, html } from '../authz/pages/html.js';
import { codePage, consentPage, emailPage } from '../authz/pages/sign-in-pages.js';

const form = { action: '/interaction/abc/email', csrfToken: 'tok"en' };

test('values are escaped; rendered fragments are not', (t) => {
  t.is(escapeHtml(`<a href="x">'&'</a>`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  t.is(html`<p>${'<b>'}</p>${html`<i>ok</i>`}`.text, '<p>&#60;b&#62;</p><i>ok</i>');
  // An object that only looks rendered (e.g. a form field parsed as email[text]=...) is escaped.
  const lookalike = { text: '<script>alert(1)</script>' } as unknown as string;
  t.false(emailPage({ ...form, clientName: 'Air', email: lookalike }).includes('<script>'));
  t.false(html`${[lookalike] as never}`.text.includes('<script>'));
});

test('the e-mail page: a labelled Email input, Continue, the CSRF token, the client named safely', (t) => {
  const page = emailPage({ ...form, clientName: '<script>alert(1)</script> Air' });
  t.regex(page, /<label for="email">Email<\/label>\s*<input id="email" name="email" type="email"/);
  t.regex(page, /<button class="primary" type="submit">Continue<\/button>/);
  t.regex(page, /<input type="hidden" name="csrf" value="tok&#34;en">/);
  t.false(page.includes('<script>'));
  t.regex(page, /&#60;script&#62;alert\(1\)&#60;\/script&#62; Air/);
  t.regex(page, /<html lang="en">/);
});

test('the code page: a labelled Code input sized to the code, and a way to get a new one', (t) => {
  const page = codePage({ ...form, sentTo: 'ada@example.com', digits: 8, resendAction: '/interaction/abc/resend' });
  t.regex(page, /<label for="code">Code<\/label>/);
  t.regex(page, /pattern="\[0-9\]\{8\}" minlength="8" maxlength="8"/);
  t.regex(page, /autocomplete="one-time-code"/);
  t.regex(page, /action="\/interaction\/abc\/resend"/);
  t.regex(page, /8-digit code to <strong>ada@example.com<\/strong>/);
});

test('the consent page: who is signed in and “Not you?”; one ticked, labelled box per scope with its plain-language line; Allow and Deny', (t) => {
  const page = consentPage({
    ...form,
    clientName: 'Example Air',
    scopes: ['profile.read', 'bookings.write'],
    denyAction: '/interaction/abc/deny',
    signedInAs: 'ada@example.com',
    switchUrl: '/?client_id=x&prompt=login',
    signOut: { action: '/account/sign-out', csrfToken: 'session-token' },
  });
  t.regex(page, /<form method="post" action="\/account\/sign-out">\s*<input type="hidden" name="csrf" value="session-token">[\s\S]*Sign out<\/button>/);
  t.regex(page, /Signed in as <strong>ada@example.com<\/strong>\. <a href="\/\?client_id=x&#38;prompt=login">Not you\? Sign in with another address<\/a>/);
  const boxes = [...page.matchAll(/<input id="scope-([a-z.]+)" type="checkbox" name="scope" value="([a-z.]+)" checked>/g)];
  t.deepEqual(
    boxes.map((match) => match[1]),
    ['profile.read', 'bookings.write'],
  );
  t.regex(page, /<label for="scope-profile\.read">Read your profile<\/label>\s*<small class="scope-id">profile\.read<\/small>/);
  t.regex(page, /<button class="primary" type="submit">Allow<\/button>/);
  t.regex(page, /formaction="\/interaction\/abc\/deny" formnovalidate>Deny<\/button>/);
});

test('CSRF tokens are bound to the attempt and the browser, and survive key rotation', (t) => {
  const before = new CsrfTokens(['k'.repeat(32)]);
  const token = before.issue('attempt-1', 'browser-cookie-1');
  t.true(before.verify('attempt-1', 'browser-cookie-1', token));
  t.false(before.verify('attempt-2', 'browser-cookie-1', token), 'another attempt');
  t.false(before.verify('attempt-1', 'browser-cookie-2', token), 'another browser');
  t.false(before.verify('attempt-1', '', token), 'no browser binding');
  t.false(before.verify('attempt-1', 'browser-cookie-1', 'forged'));
  t.false(before.verify('attempt-1', 'browser-cookie-1', undefined));
  const rotated = new CsrfTokens(['n'.repeat(32), 'k'.repeat(32)]);
  t.true(rotated.verify('attempt-1', 'browser-cookie-1', token), 'a token issued before the rotation still verifies');
  t.not(rotated.issue('attempt-1', 'browser-cookie-1'), token, 'new tokens use the new key');
});
