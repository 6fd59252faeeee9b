/**
 * The spending limit a traveler chooses for an agent on the consent page (decisions §10), over real HTTP
 * with the hosted pages: offered only with bookings.write, in the traveler's preferred currency by
 * default, typed as decimals and kept in minor units (what the purchase gate reads), refused with the
 * page's own message and nothing granted when invalid, and never saved when bookings.write is unticked.
 */
import test from 'ava';
import { systemClock } from '../core/clock.js';
import { PreferencesService } from '../core/preferences/service.js';
import type { SpendingLimits } from '../core/purchases/spending-limits.js';
import { isPage, offeredScopes, type TestBrowser } from './helpers/browser.js';
import { clientIdOf, consentPage as consentPageOf, inputValue as valueOf, spendingLimitsOf, userIdOf as userIdIn } from './helpers/consent.js';
import { oauth } from './helpers/oauth.js';
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

const consentPage = (scope: string, options: { email?: string; browser?: TestBrowser; agent?: oauth.Configuration } = {}) => consentPageOf(running, scope, options);
const userIdOf = (email: string) => userIdIn(running, email);

async function grantsOf(userId: string, clientId: string): Promise<number> {
  return (await running.service.db.knex('oidc_models').where({ kind: 'Grant', account_id: userId, client_id: clientId })).length;
}

test('the limit fields appear only when bookings.write is asked, in the preferred currency (USD until one is set)', async (t) => {
  const withoutBuying = await consentPage('profile.read bookings.read');
  t.false(withoutBuying.page.html.includes('name="per_booking"'));
  t.false(withoutBuying.page.html.includes('Spending limit'));

  const buying = await consentPage('bookings.read bookings.write');
  t.deepEqual(offeredScopes(buying.page.html), ['bookings.read', 'bookings.write']);
  t.regex(buying.page.html, /Spending limit for this app \(optional/);
  t.is(valueOf(buying.page.html, 'currency'), 'USD');
  t.is(valueOf(buying.page.html, 'per_booking'), '', 'no cap by default');
  t.is(valueOf(buying.page.html, 'per_30_days'), '', 'no cap by default');
  t.regex(buying.page.html, /Every purchase still needs your confirmation/);

  // A traveler who prefers euros sees EUR when the next agent asks to buy.
  await new PreferencesService({ db: running.service.db.knex, clock: systemClock }).setLocale(await userIdOf(buying.email), {
    language_code: 'fr',
    region_code: 'FR',
    currency_code: 'EUR',
  });
  const again = await consentPage('bookings.write', { email: buying.email, browser: buying.browser });
  t.is(valueOf(again.page.html, 'currency'), 'EUR');
});

test('allowed with bookings.write: the limit is saved in minor units for that traveler and agent, and the gate reads it', async (t) => {
  const step = await consentPage('bookings.read bookings.write');
  const done = await step.browser.submit(step.page, '/consent', {
    scope: ['bookings.read', 'bookings.write'],
    currency: 'gbp',
    per_booking: '250.5',
    per_30_days: ' 1000 ',
  });
  t.false(isPage(done), 'the browser went back to the agent');
  const back = new URL((done as { redirectedTo: string }).redirectedTo);
  t.truthy(back.searchParams.get('code'));
  const tokens = await oauth.authorizationCodeGrant(step.agent, back, { pkceCodeVerifier: step.authorization.verifier, expectedState: step.authorization.state });
  t.deepEqual(new Set(tokens.scope?.split(' ')), new Set(['bookings.read', 'bookings.write']));

  const userId = await userIdOf(step.email);
  const clientId = clientIdOf(step.agent);
  t.deepEqual(await limits.get(userId, clientId), { currency: 'GBP', perBookingMinor: 25050n, per30DaysMinor: 100000n });
  const row = await running.service.db.knex('agent_spending_limits').where({ user_id: userId, client_id: clientId }).first();
  t.deepEqual([row.currency, String(row.per_booking_minor), String(row.per_30_days_minor)], ['GBP', '25050', '100000'], 'stored in pence');
});

test('a currency without minor units, and one cap left blank', async (t) => {
  const step = await consentPage('bookings.write');
  const done = await step.browser.submit(step.page, '/consent', { scope: ['bookings.write'], currency: 'JPY', per_booking: '', per_30_days: '120000' });
  t.false(isPage(done));
  t.deepEqual(await limits.get(await userIdOf(step.email), clientIdOf(step.agent)), { currency: 'JPY', perBookingMinor: null, per30DaysMinor: 120000n });
});

test('both amounts blank: no limit is saved (every purchase still needs the confirmation)', async (t) => {
  const step = await consentPage('bookings.write');
  const done = await step.browser.submit(step.page, '/consent', { scope: ['bookings.write'], currency: 'USD', per_booking: '', per_30_days: '' });
  t.false(isPage(done));
  const userId = await userIdOf(step.email);
  t.is(await limits.get(userId, clientIdOf(step.agent)), undefined);
  t.is(await grantsOf(userId, clientIdOf(step.agent)), 1, 'the permissions were granted');
});

const INVALID: { name: string; fields: Record<string, string>; field: string; message: RegExp }[] = [
  { name: 'not an amount', fields: { currency: 'GBP', per_booking: 'lots', per_30_days: '' }, field: 'per_booking', message: /as an amount in GBP such as 250 or 250\.50/ },
  { name: 'thousands separators', fields: { currency: 'GBP', per_booking: '', per_30_days: '1,000' }, field: 'per_30_days', message: /no currency sign, spaces or thousands separators/ },
  { name: 'negative', fields: { currency: 'GBP', per_booking: '-5', per_30_days: '' }, field: 'per_booking', message: /cannot be negative/ },
  { name: 'more decimals than the currency has', fields: { currency: 'GBP', per_booking: '10.505', per_30_days: '' }, field: 'per_booking', message: /at most 2 decimal places/ },
  { name: 'decimals in a currency without them', fields: { currency: 'JPY', per_booking: '10.5', per_30_days: '' }, field: 'per_booking', message: /no decimal places/ },
  { name: 'an unknown currency', fields: { currency: 'XYZ', per_booking: '100', per_30_days: '' }, field: 'currency', message: /XYZ is not a currency we know/ },
  { name: 'no currency', fields: { currency: '', per_booking: '100', per_30_days: '' }, field: 'currency', message: /No currency was given/ },
  { name: 'absurdly large', fields: { currency: 'GBP', per_booking: '', per_30_days: '5000000000' }, field: 'per_30_days', message: /at most 1,000,000,000 GBP/ },
];

for (const invalid of INVALID) {
  test(`invalid limit (${invalid.name}): the page comes back with the problem, nothing granted or saved, and a corrected form goes through`, async (t) => {
    const step = await consentPage('bookings.read bookings.write');
    const again = await step.browser.submit(step.page, '/consent', { scope: ['bookings.write'], ...invalid.fields });
    if (!isPage(again)) return t.fail('the browser left the consent page');
    t.is(again.status, 400);
    t.regex(again.html, /The spending limit is not valid/);
    t.regex(again.html, invalid.message);
    t.regex(again.html, new RegExp(`name="${invalid.field}"[^>]*aria-invalid="true" aria-describedby="limit-${invalid.field}-error"`));
    t.regex(again.html, new RegExp(`id="limit-${invalid.field}-error"`));
    // What the traveler chose is shown as they left it: bookings.read unticked, their text kept.
    t.regex(again.html, /value="bookings\.read" >/);
    t.regex(again.html, /value="bookings\.write" checked>/);
    t.is(valueOf(again.html, 'per_booking'), invalid.fields.per_booking);
    t.is(valueOf(again.html, 'per_30_days'), invalid.fields.per_30_days);
    const userId = await userIdOf(step.email);
    const clientId = clientIdOf(step.agent);
    t.is(await grantsOf(userId, clientId), 0, 'nothing granted');
    t.is(await limits.get(userId, clientId), undefined, 'nothing saved');

    const fixed = await step.browser.submit(again, '/consent', { scope: ['bookings.write'], currency: 'EUR', per_booking: '99.99', per_30_days: '' });
    t.false(isPage(fixed), 'the corrected form goes back to the agent');
    t.deepEqual(await limits.get(userId, clientId), { currency: 'EUR', perBookingMinor: 9999n, per30DaysMinor: null });
  });
}

test('bookings.write unticked: the limit is not saved, even one that is invalid', async (t) => {
  for (const fields of [
    { currency: 'GBP', per_booking: '100', per_30_days: '500' },
    { currency: 'XYZ', per_booking: 'lots', per_30_days: '-1' },
  ]) {
    const step = await consentPage('bookings.read bookings.write');
    const done = await step.browser.submit(step.page, '/consent', { scope: ['bookings.read'], ...fields });
    t.false(isPage(done), 'the browser went back to the agent');
    const userId = await userIdOf(step.email);
    t.is(await limits.get(userId, clientIdOf(step.agent)), undefined);
    t.is(await grantsOf(userId, clientIdOf(step.agent)), 1);
  }
});

test('Deny saves no limit', async (t) => {
  const step = await consentPage('bookings.write');
  const done = await step.browser.submit(step.page, '/deny', { currency: 'GBP', per_booking: '100' });
  t.false(isPage(done));
  t.is(new URL((done as { redirectedTo: string }).redirectedTo).searchParams.get('error'), 'access_denied');
  t.is(await limits.get(await userIdOf(step.email), clientIdOf(step.agent)), undefined);
});

test('the consent form without its CSRF token saves nothing', async (t) => {
  const step = await consentPage('bookings.write');
  const action = /action="([^"]+\/consent)"/.exec(step.page.html)?.[1] as string;
  const response = await fetch(new URL(action, step.page.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: step.browser.cookieHeader(new URL(action, step.page.url).pathname), accept: 'text/html' },
    body: new URLSearchParams({ scope: 'bookings.write', currency: 'GBP', per_booking: '100' }).toString(),
  });
  t.is(response.status, 403);
  const userId = await userIdOf(step.email);
  t.is(await limits.get(userId, clientIdOf(step.agent)), undefined);
  t.is(await grantsOf(userId, clientIdOf(step.agent)), 0);
});
