/**
 * Spending limits on the Connected apps page (decisions §10), over real HTTP with the hosted pages: each
 * app that may book shows its limit (or that it has none), the traveler changes or removes it with a form
 * carrying the page's CSRF token, other travelers' and other apps' limits are untouched, and
 * disconnecting an app forgets its limit.
 */
import test from 'ava';
import type { SpendingLimits } from '../core/purchases/spending-limits.js';
import { appsHeaders } from './helpers/apps-api.js';
import { csrfOf, isPage, type Page, type TestBrowser } from './helpers/browser.js';
import { allowWithLimit, clientIdOf, consentPage, inputValue, spendingLimitsOf, userIdOf } from './helpers/consent.js';
import { registerPublicClient, type oauth } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let limits: SpendingLimits;

test.before(async () => {
  running = await startService();
  limits = spendingLimitsOf(running);
});
test.after.always(async () => {
  await running?.close();
});

interface Traveler {
  email: string;
  userId: string;
  browser: TestBrowser;
  /** bookings.write, with a limit of GBP 250 a booking and GBP 1000 in 30 days. */
  limited: string;
  /** bookings.write, no limit. */
  unlimited: string;
  /** No bookings.write. */
  reader: string;
}

/** A traveler who connected three agents (see Traveler); `limitedAgent`: an agent another traveler uses too. */
async function travelerWithApps(limitedAgent?: oauth.Configuration): Promise<Traveler> {
  const first = await consentPage(running, 'bookings.read bookings.write', { agent: limitedAgent });
  await allowWithLimit(first, ['bookings.read', 'bookings.write'], { currency: 'GBP', per_booking: '250', per_30_days: '1000' });
  const { browser, email } = first;
  const second = await consentPage(running, 'bookings.write', { browser, email });
  await allowWithLimit(second, ['bookings.write']);
  const third = await consentPage(running, 'profile.read bookings.read', { browser, email });
  await allowWithLimit(third, ['profile.read', 'bookings.read']);
  return {
    email,
    userId: await userIdOf(running, email),
    browser,
    limited: clientIdOf(first.agent),
    unlimited: clientIdOf(second.agent),
    reader: clientIdOf(third.agent),
  };
}

async function openApps(browser: TestBrowser): Promise<Page> {
  const page = await browser.open(`${running.url}/account/apps`);
  if (!isPage(page) || page.status !== 200) throw new Error(`the Connected apps page did not open: ${JSON.stringify(page).slice(0, 300)}`);
  return page;
}

/** The part of the page about one app. */
function sectionOf(html: string, clientId: string): string {
  const section = html.split('<section class="app"').find((part) => part.includes(`/account/apps/${encodeURIComponent(clientId)}/`));
  if (!section) throw new Error(`no section for ${clientId}`);
  return section;
}

const limitAction = (clientId: string) => `/apps/${encodeURIComponent(clientId)}/spending-limit`;

/** A form post as another site (or a script without the page) would send it, with this browser's cookies. */
async function postRaw(browser: TestBrowser, path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${running.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookieHeader(path), accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
  });
}

test('each app that may book shows its limit or that it has none; an app without bookings.write has no limit form', async (t) => {
  const traveler = await travelerWithApps();
  const page = await openApps(traveler.browser);

  const limited = sectionOf(page.html, traveler.limited);
  t.regex(limited, /At most GBP 250\.00 per booking and GBP 1000\.00 in any 30 days\. Every purchase still needs your confirmation\./);
  t.regex(limited, /Spent through this app in the last 30 days: GBP 0\.00\./);
  t.is(inputValue(limited, 'currency'), 'GBP');
  t.is(inputValue(limited, 'per_booking'), '250.00');
  t.is(inputValue(limited, 'per_30_days'), '1000.00');
  t.true(limited.includes(`${limitAction(traveler.limited)}/remove`), 'a limit can be removed');

  const unlimited = sectionOf(page.html, traveler.unlimited);
  t.regex(unlimited, /No limit: every purchase needs your confirmation\./);
  t.is(inputValue(unlimited, 'currency'), 'USD', 'the preferred currency (the default locale’s) for a new limit');
  t.is(inputValue(unlimited, 'per_booking'), '');
  t.false(unlimited.includes('/spending-limit/remove'), 'nothing to remove');

  const reader = sectionOf(page.html, traveler.reader);
  t.false(reader.includes('spending-limit'));
  t.false(reader.includes('Spending limit'));
});

test('the traveler changes a limit and sets one: stored in minor units, other travelers’ and apps’ limits untouched', async (t) => {
  const other = await travelerWithApps();
  const agent = await registerPublicClient(running);
  const traveler = await travelerWithApps(agent);
  // Another traveler's limit for the very same agent.
  const step = await consentPage(running, 'bookings.write', { agent, browser: other.browser, email: other.email });
  await allowWithLimit(step, ['bookings.write'], { currency: 'USD', per_booking: '40', per_30_days: '' });

  const changed = await traveler.browser.submit(await openApps(traveler.browser), limitAction(traveler.limited), { currency: 'eur', per_booking: '300.5', per_30_days: '' });
  if (!isPage(changed)) return t.fail();
  t.is(changed.status, 200);
  t.regex(changed.html, /The spending limit was saved\./);
  t.regex(sectionOf(changed.html, traveler.limited), /At most EUR 300\.50 per booking\./);
  t.deepEqual(await limits.get(traveler.userId, traveler.limited), { currency: 'EUR', perBookingMinor: 30050n, per30DaysMinor: null });

  const set = await traveler.browser.submit(changed, limitAction(traveler.unlimited), { currency: 'JPY', per_booking: '', per_30_days: '50000' });
  if (!isPage(set)) return t.fail();
  t.deepEqual(await limits.get(traveler.userId, traveler.unlimited), { currency: 'JPY', perBookingMinor: null, per30DaysMinor: 50000n });

  t.deepEqual(await limits.get(other.userId, traveler.limited), { currency: 'USD', perBookingMinor: 4000n, per30DaysMinor: null }, 'the other traveler’s limit for that agent');
  t.deepEqual(await limits.get(other.userId, other.limited), { currency: 'GBP', perBookingMinor: 25000n, per30DaysMinor: 100000n });
  t.is(await limits.get(traveler.userId, traveler.reader), undefined);
});

test('an invalid limit comes back on the page with the problem, and nothing changes', async (t) => {
  const traveler = await travelerWithApps();
  for (const [fields, field, message] of [
    [{ currency: 'GBP', per_booking: '-1', per_30_days: '' }, 'per_booking', /cannot be negative/],
    [{ currency: 'GBP', per_booking: 'ten', per_30_days: '' }, 'per_booking', /as an amount in GBP/],
    [{ currency: 'ABC', per_booking: '10', per_30_days: '' }, 'currency', /ABC is not a currency we know/],
    [{ currency: 'KWD', per_booking: '', per_30_days: '1.2345' }, 'per_30_days', /at most 3 decimal places/],
  ] as const) {
    const page = await traveler.browser.submit(await openApps(traveler.browser), limitAction(traveler.limited), fields);
    if (!isPage(page)) return t.fail();
    t.is(page.status, 400);
    t.regex(page.html, /The spending limit for Test agent is not valid/);
    const section = sectionOf(page.html, traveler.limited);
    t.regex(section, message);
    t.regex(section, new RegExp(`aria-describedby="${traveler.limited}-limit-${field}-error"`));
    // What the traveler typed is kept; a currency the list does not offer leaves “Choose a currency” selected.
    t.is(inputValue(section, field), field === 'currency' ? '' : fields[field], 'what the traveler gave is kept');
    t.regex(section, /At most GBP 250\.00 per booking/, 'the stored limit is still shown');
    t.deepEqual(await limits.get(traveler.userId, traveler.limited), { currency: 'GBP', perBookingMinor: 25000n, per30DaysMinor: 100000n });
  }
});

test('the traveler removes a limit, by Remove or by clearing both amounts', async (t) => {
  const other = await travelerWithApps();
  const traveler = await travelerWithApps();
  const removed = await traveler.browser.submit(await openApps(traveler.browser), `${limitAction(traveler.limited)}/remove`, {});
  if (!isPage(removed)) return t.fail();
  t.regex(removed.html, /The spending limit was removed/);
  t.regex(sectionOf(removed.html, traveler.limited), /No limit: every purchase needs your confirmation\./);
  t.is(await limits.get(traveler.userId, traveler.limited), undefined);

  await traveler.browser.submit(removed, limitAction(traveler.unlimited), { currency: 'GBP', per_booking: '10', per_30_days: '' });
  t.truthy(await limits.get(traveler.userId, traveler.unlimited));
  const cleared = await traveler.browser.submit(await openApps(traveler.browser), limitAction(traveler.unlimited), { currency: 'GBP', per_booking: '', per_30_days: '' });
  if (!isPage(cleared)) return t.fail();
  t.regex(cleared.html, /The spending limit was removed/);
  t.is(await limits.get(traveler.userId, traveler.unlimited), undefined);

  t.deepEqual(await limits.get(other.userId, other.limited), { currency: 'GBP', perBookingMinor: 25000n, per30DaysMinor: 100000n });
});

test('no limit for an app without bookings.write, or one connected only to another traveler: 404, nothing stored', async (t) => {
  const other = await travelerWithApps();
  const traveler = await travelerWithApps();
  const page = await openApps(traveler.browser);
  for (const clientId of [traveler.reader, other.limited, 'no-such-app']) {
    for (const suffix of ['', '/remove']) {
      const response = await postRaw(traveler.browser, `/account/apps/${encodeURIComponent(clientId)}/spending-limit${suffix}`, {
        csrf: csrfOf(page.html),
        currency: 'GBP',
        per_booking: '1',
      });
      t.is(response.status, 404, `${clientId}${suffix}`);
      t.regex(await response.text(), /has no spending limit to change/);
    }
  }
  t.is(await limits.get(traveler.userId, traveler.reader), undefined);
  t.is(await limits.get(traveler.userId, other.limited), undefined);
  t.deepEqual(await limits.get(other.userId, other.limited), { currency: 'GBP', perBookingMinor: 25000n, per30DaysMinor: 100000n }, 'the owner’s limit is untouched');
});

test('without the page’s CSRF token (missing, wrong, or another traveler’s) a limit is neither changed nor removed', async (t) => {
  const other = await travelerWithApps();
  const traveler = await travelerWithApps();
  const othersToken = csrfOf((await openApps(other.browser)).html);
  for (const csrf of [undefined, 'forged', othersToken]) {
    for (const suffix of ['', '/remove']) {
      const path = `/account/apps/${encodeURIComponent(traveler.limited)}/spending-limit${suffix}`;
      const response = await postRaw(traveler.browser, path, { ...(csrf ? { csrf } : {}), currency: 'USD', per_booking: '1', per_30_days: '' });
      t.is(response.status, 303, path);
      t.is(response.headers.get('location'), '/account/apps');
    }
  }
  t.deepEqual(await limits.get(traveler.userId, traveler.limited), { currency: 'GBP', perBookingMinor: 25000n, per30DaysMinor: 100000n });
});

test('disconnecting an app forgets its limit (the page’s Disconnect and DELETE /v1/apps); the traveler’s other apps and other travelers keep theirs', async (t) => {
  const agent = await registerPublicClient(running);
  const other = await travelerWithApps(agent);
  const traveler = await travelerWithApps(agent);
  await traveler.browser.submit(await openApps(traveler.browser), limitAction(traveler.unlimited), { currency: 'GBP', per_booking: '5', per_30_days: '' });

  const revoked = await traveler.browser.submit(await openApps(traveler.browser), `/apps/${encodeURIComponent(traveler.limited)}/revoke`, {});
  if (!isPage(revoked)) return t.fail();
  t.regex(revoked.html, /The app was disconnected/);
  t.is(await limits.get(traveler.userId, traveler.limited), undefined);
  t.deepEqual(await limits.get(other.userId, traveler.limited), { currency: 'GBP', perBookingMinor: 25000n, per30DaysMinor: 100000n }, 'the same agent, another traveler');

  const deleted = await fetch(`${running.url}/v1/apps/${encodeURIComponent(traveler.unlimited)}`, {
    method: 'DELETE',
    headers: await appsHeaders(running.url, traveler.browser.cookieHeader('/v1/apps')),
  });
  t.is(deleted.status, 204);
  t.is(await limits.get(traveler.userId, traveler.unlimited), undefined);

  // Connecting the agent again starts without a limit.
  const again = await consentPage(running, 'bookings.write', { agent, browser: traveler.browser, email: traveler.email });
  t.is(inputValue(again.page.html, 'per_booking'), '');
  await allowWithLimit(again, ['bookings.write']);
  t.is(await limits.get(traveler.userId, traveler.limited), undefined);
});

test('turning bookings.write off hides the limit form', async (t) => {
  const traveler = await travelerWithApps();
  const page = await traveler.browser.submit(await openApps(traveler.browser), `/apps/${encodeURIComponent(traveler.limited)}/scopes`, { scope: ['bookings.read'] });
  if (!isPage(page)) return t.fail();
  t.false(sectionOf(page.html, traveler.limited).includes('spending-limit'));
});
