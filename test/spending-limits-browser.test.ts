/**
 * The spending limit in a real browser (headless Chromium): the consent page's limit inputs are found by
 * their labels, a wrong amount comes back marked invalid with the reason, and the corrected limit is
 * saved; on the Connected apps page the traveler changes it, then removes it.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { latestCode } from './helpers/browser.js';
import { CHROMIUM_MISSING, clientCallback, launchChromium } from './helpers/chromium.js';
import { fitsEveryWidth } from './helpers/layout.js';
import { clientIdOf, spendingLimitsOf } from './helpers/consent.js';
import { registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let browser: Browser | undefined;
let callback: Awaited<ReturnType<typeof clientCallback>>;

test.before(async () => {
  running = await startService();
  callback = await clientCallback();
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  callback?.close();
  await running?.close();
});

test('set on the consent page by label, corrected after a mistake, then changed and removed on the Connected apps page', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const agent = await registerPublicClient(running, callback.url);
  const authorization = await startAuthorization(agent, callback.url, 'bookings.read bookings.write');
  const email = uniqueEmail('limits');
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));

  await page.goto(authorization.url.href);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await latestCode(running.url, email));
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByRole('heading', { name: 'Allow access' }).waitFor();
  const currency = page.getByRole('combobox', { name: 'Currency' });
  t.is(await currency.inputValue(), 'USD', 'the preferred currency is preselected');
  await currency.selectOption('GBP');
  await page.getByLabel(/Most for one booking/).fill('12.345');
  await page.getByLabel(/Most in any 30 days/).fill('600');
  await page.getByRole('button', { name: 'Allow' }).click();

  const perBooking = page.getByLabel(/Most for one booking/);
  await page.locator('#limit-per_booking-error').waitFor();
  t.is(await perBooking.getAttribute('aria-invalid'), 'true');
  t.regex((await page.locator('#limit-per_booking-error').textContent()) ?? '', /at most 2 decimal places/);
  await fitsEveryWidth(t, page, 'consent-limit-error');
  await perBooking.fill('120');
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(callback.url));

  const userId = ((await running.service.db.knex('users').where({ email }).first('id')) as { id: string }).id;
  const limits = spendingLimitsOf(running);
  t.deepEqual(await limits.get(userId, clientIdOf(agent)), { currency: 'GBP', perBookingMinor: 12000n, per30DaysMinor: 60000n });

  await page.goto(`${running.url}/account/apps`);
  await page.getByText('At most GBP 120.00 per booking and GBP 600.00 in any 30 days.').waitFor();
  await fitsEveryWidth(t, page, 'connected-apps-limit');
  await page.getByLabel(/Most for one booking/).fill('');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await page.getByText('The spending limit was saved.').waitFor();
  t.deepEqual(await limits.get(userId, clientIdOf(agent)), { currency: 'GBP', perBookingMinor: null, per30DaysMinor: 60000n });

  await page.getByRole('button', { name: 'Remove limit' }).click();
  await page.getByText('No limit: every purchase needs your confirmation.').waitFor();
  t.is(await limits.get(userId, clientIdOf(agent)), undefined);
  // The form that came back with the mistake was a 400 on purpose: Chromium notes every 4xx document.
  const unexpected = errors.filter((error) => !/status of 400/.test(error));
  t.deepEqual(unexpected, [], 'no console errors (CSP violations would show here)');
  await page.close();
});
