/**
 * The purchase confirmation page in a real browser (headless Chromium): an agent searches provider_d,
 * makes an offer and calls create_booking; the traveler opens the confirmation URL in a browser that is
 * not signed in, signs in on the hosted pages, lands back on the page, reads the purchase and presses
 * Confirm; the agent's retry books, with one capture of the confirmed total. No console errors (a CSP
 * violation would show there).
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { toMinorUnits } from '../core/money/money.js';
import { intentsOf } from './helpers/booking-records.js';
import { saveCardInBrowser } from './helpers/cards.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { callTool as call, signInOnConfirmationPage, toolAgent } from './helpers/purchases.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let browser: Browser | undefined;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  await running?.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('the traveler signs in on the confirmation page in Chromium, confirms, and the agent’s retry books once for the confirmed total', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const ada = await toolAgent(running);
  await saveCardInBrowser(running, ada.browser, {}, true);
  const search = await call(ada.client, 'search_flights', { origin: 'LHR', destination: 'CDG', departure_date: inDays(25), currency: 'GBP' });
  const created = await call(ada.client, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[0].id });
  const offer = created.ok.offer;
  const input = {
    provider_id: 'provider_d',
    offer_id: created.ok.offer_id,
    passengers: [
      {
        provider_passenger_id: offer.passengers[0].id,
        first_name: 'Ada',
        last_name: 'Lovelace',
        born_on: '1985-12-10',
        gender: 'female',
        identity_documents: [{ type: 'passport', unique_identifier: 'P8880001', issuing_country_code: 'GB', expires_on: '2034-06-30' }],
      },
    ],
    contact: { email: 'ada@example.com', phone_number: '+447700900123', first_name: 'Ada', last_name: 'Lovelace' },
    idempotency_key: `chromium-${crypto.randomUUID()}`,
  };
  const asked = await call(ada.client, 'create_booking', input);
  t.is(asked.error?.code, 'confirmation_required', JSON.stringify(asked));

  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(asked.error.confirmation_url);
  // Not signed in in this browser: the hosted sign-in first, then back to the page.
  await signInOnConfirmationPage(page, running.url, ada.email);
  t.is(new URL(page.url()).pathname, `/confirm/${asked.error.confirmation_id}`);
  const shown = (await page.textContent('main')) ?? '';
  for (const text of ['Ada Lovelace', 'LHR → CDG', 'Visa card ending in 4242', `${offer.total_amount} GBP`, ada.email]) t.true(shown.includes(text), `the page shows “${text}”`);

  await page.getByRole('button', { name: `Confirm and pay ${offer.total_amount} GBP` }).click();
  await page.getByRole('heading', { name: 'Purchase confirmed' }).waitFor();
  t.deepEqual(errors, []);
  await context.close();

  const booked = await call(ada.client, 'create_booking', { ...input, confirmation_id: asked.error.confirmation_id });
  t.false(booked.isError, JSON.stringify(booked.error));
  t.is(booked.ok.booking.status, 'confirmed');
  const intents = await intentsOf(running, booked.ok.booking.id);
  t.is(intents.length, 1);
  t.is(intents[0].status, 'succeeded');
  t.is(BigInt(intents[0].amount_received), toMinorUnits(offer.total_amount, 'GBP'), 'one capture, of the confirmed total');
  await ada.client.close();
});
