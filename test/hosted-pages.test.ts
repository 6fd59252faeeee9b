/**
 * The hosted sign-in pages when things go wrong: a wrong code says how many tries are left, a new code
 * waits a minute, a form without its CSRF token or from another browser goes nowhere, and a sign-in that
 * is no longer there says to start again. Pages carry strict security headers.
 */
import test from 'ava';
import { jsonOf } from './helpers/http.js';
import { formActions, isPage, TestBrowser, type Page } from './helpers/browser.js';
import { registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;

test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

async function codePageFor(email: string): Promise<{ browser: TestBrowser; page: Page }> {
  const agent = await registerPublicClient(running);
  const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const first = await browser.open(authorization.url.href);
  if (!isPage(first)) throw new Error('expected the e-mail page');
  const page = await browser.submit(first, '/email', { email });
  if (!isPage(page)) throw new Error('expected the code page');
  return { browser, page };
}

test('the e-mail page: labelled input, Continue, strict headers; a bad address is explained', async (t) => {
  const agent = await registerPublicClient(running);
  const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const page = await browser.open(authorization.url.href);
  if (!isPage(page)) return t.fail();
  t.is(page.status, 200);
  const csp = page.headers.get('content-security-policy') ?? '';
  t.regex(csp, /default-src 'none'/);
  t.regex(csp, /frame-ancestors 'none'/);
  t.regex(csp, /form-action 'self' http:\/\/localhost:53682/, "the client's origin is allowed for the redirect after a form post");
  t.is(page.headers.get('x-frame-options'), 'DENY');
  t.is(page.headers.get('referrer-policy'), 'same-origin');
  t.is(page.headers.get('cache-control'), 'no-store');
  t.regex(page.html, /<label for="email">Email<\/label>/);
  t.regex(page.html, />Continue</);
  const bad = await browser.submit(page, '/email', { email: 'not-an-address' });
  t.true(isPage(bad) && bad.status === 400 && /Enter your e-mail address/.test(bad.html));
});

test('a wrong code says how many tries are left; a new code is refused within the minute', async (t) => {
  const { browser, page } = await codePageFor(uniqueEmail());
  t.regex(page.html, /<label for="code">Code<\/label>/);
  t.regex(page.html, /6-digit code/);
  const wrong = await browser.submit(page, '/code', { code: '000000' });
  t.true(isPage(wrong));
  if (!isPage(wrong)) return;
  t.is(wrong.status, 400);
  t.regex(wrong.html, /4 tries left/);
  const resend = await browser.submit(wrong, '/resend', {});
  t.true(isPage(resend) && resend.status === 429 && /once a minute/.test(resend.html));
});

test('a form without its CSRF token, or posted from another browser, goes nowhere', async (t) => {
  const { page } = await codePageFor(uniqueEmail());
  const action = codeAction(page);
  const noToken = await fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: 'code=123456',
  });
  t.is(noToken.status, 400, 'another browser (without the attempt cookie) has no attempt here');
  t.regex((await jsonOf(noToken)).error_description, /start again/);

  const { browser: other, page: otherPage } = await codePageFor(uniqueEmail());
  const forged = await other.open(codeAction(page).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ code: '123456', csrf: 'forged' }).toString(),
  });
  t.true(isPage(forged) && forged.status === 400, 'the attempt in the URL is not this browser’s');
  const missingToken = await other.open(codeAction(otherPage).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'code=123456',
  });
  t.true(isPage(missingToken) && missingToken.status === 403 && /another site/.test(missingToken.html));
});

test('an unknown sign-in attempt asks to start again', async (t) => {
  const response = await fetch(`${running.url}/interaction/unknown-attempt-id`, { headers: { accept: 'text/html' } });
  t.is(response.status, 400);
  t.regex(await response.text(), /start again/);
});

function codeAction(page: Page): URL {
  const action = formActions(page.html).find((candidate) => candidate.endsWith('/code'));
  return new URL(action as string, page.url);
}

test('when the mail cannot go out, the e-mail page says so and the traveler can try again', async (t) => {
  const broken = await startService({ SANDBOX_URL: 'http://127.0.0.1:9/sandbox' });
  try {
    const agent = await registerPublicClient(broken);
    const authorization = await startAuthorization(agent, 'http://localhost:53682/callback', 'profile.read');
    const browser = new TestBrowser(new URL(broken.config.authUrl).origin);
    const page = await browser.open(authorization.url.href);
    if (!isPage(page)) return t.fail();
    const failed = await browser.submit(page, '/email', { email: uniqueEmail() });
    t.true(isPage(failed));
    if (!isPage(failed)) return;
    t.is(failed.status, 503);
    t.regex(failed.html, /could not be sent just now/);
    t.regex(failed.html, /name="email"/, 'the form is there to try again');
  } finally {
    await broken.close();
  }
});
