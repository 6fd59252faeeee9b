/**
 * The checkout button end to end in Chromium, on Demo Travel (another site than the service), with
 * third-party cookies blocked throughout: for each of the five providers, once with the provider's offer
 * handed to the button raw (`flightOffer`: the button creates our offer first) and once by id
 * (`flightOfferID`: the agency's backend created it), a new traveler clicks the button, signs in inside
 * the frame with the e-mailed code, enters every passenger of the offer, picks a seat for each where seats
 * are sold and a bag where bags are, adds a new card in the vault's fields, reviews the total and pays.
 * Then the page heard SVC_BOOKING_COMPLETE from the checkout, onExit said `booking_confirmed`, the history
 * entry was replaced by the booking path, the agency's backend read the session `complete` with the same
 * booking, and the processor captured exactly the review's total. Once more by keyboard alone, from the
 * page's first Tab to the booking, after the service sat idle. On the embedded database, as `npm start`
 * runs without DATABASE_URL.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { toMinorUnits } from '../core/money/money.js';
import { intentRecord } from './helpers/bookings.js';
import { latestCode } from './helpers/browser.js';
import { bookingsOfSession } from './helpers/checkout.js';
import { tabTo, typeInTurn } from './helpers/checkout-browser.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { checkoutFrame, dialogOf, focusOf, openCheckout, openShop, waitForExits, waitForSessions, type DemoPage, type DemoWindow } from './helpers/demo-travel.js';
import { jsonOf } from './helpers/http.js';
import { fitsEveryWidth, WIDTHS } from './helpers/layout.js';
import { uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const IDLE_TIMEOUT_MS = 300;
const PROVIDERS = ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'] as const;
const BOOKING_PATH = /^\/checkout\/bookings\/([0-9a-f-]{36})$/;
/** A date of birth for each kind of passenger the checkout names in a fieldset's legend. */
const BORN_ON: Record<string, string> = { adult: '1986-03-14', child: '2018-06-02', 'infant on a lap': '2026-02-20' };

let running: RunningService;
let browser: Browser | undefined;
let secretKey: string;

test.before(async () => {
  // The default a newcomer runs: the embedded database, its idle connection dropped after 300 ms, so
  // that every step after a pause (a traveler typing) starts on a fresh connection (embedded-idle.test.ts).
  running = await startService({}, { embedded: true, databaseIdleTimeoutMs: IDLE_TIMEOUT_MS, rateLimitKeyPrefix: uniquePrefix() });
  // Background jobs too, as `npm start` runs them: the webhook deliveries to Demo Travel's receiver.
  await running.service.startBackgroundWork();
  browser = await launchChromium({ thirdPartyCookiesBlocked: true });
  // The shop's first visit made the agency's keys (and registered its webhook receiver); its backend's
  // secret key reads sessions as the agency.
  await fetch(`${running.config.demoTravel?.url}/`);
  secretKey = (JSON.parse(fs.readFileSync(`${running.config.dataDir}/demo-travel-credentials.json`, 'utf8')) as { secret_key: string }).secret_key;
});
test.after.always(async () => {
  await browser?.close();
  await running?.close();
});

/** The shop, recording the messages its page hears from the checkout's origin (the button's own listener is the page's). */
async function shopWith(handover: 'raw' | 'id'): Promise<DemoPage> {
  const shop = await openShop(browser as Browser, running, { standIn: false, path: `/?handover=${handover}` });
  await shop.page.evaluate((authOrigin) => {
    const win = globalThis as unknown as { heard: unknown[]; addEventListener(type: string, listener: (event: { origin: string; data: unknown }) => void): void };
    win.heard = [];
    win.addEventListener('message', (event) => event.origin === authOrigin && win.heard.push(event.data));
  }, shop.authOrigin);
  return shop;
}

const heard = (page: Page) => page.evaluate(() => (globalThis as unknown as { heard: Array<{ type: string }> }).heard);

interface Checkout {
  sessionId: string;
  frame: FrameLocator;
}

async function clickBuy(shop: DemoPage, provider: string): Promise<Checkout> {
  const { sessionId } = await openCheckout(shop, provider);
  return { sessionId, frame: shop.page.frameLocator(`#offer-${provider} checkout-button iframe`) };
}

/** The steps the checkout found its offer takes, as its page reads them (once its first step shows: priced where needed). */
async function checkoutSummary(shop: DemoPage, checkout: Checkout): Promise<{ steps: Record<string, boolean> }> {
  await checkout.frame.getByRole('heading', { name: 'Your flight' }).waitFor();
  const session = shop.sessions.find((candidate) => candidate.id === checkout.sessionId);
  return jsonOf(await fetch(`${running.config.authUrl}/checkout/${checkout.sessionId}/api/session`, { headers: { 'x-checkout-secret': session?.client_secret ?? '' } }));
}

/** Every step, with the mouse: what was chosen, and the review's total. */
async function bookWithMouse(t: ExecutionContext, shop: DemoPage, provider: string, checkout: Checkout, looks?: (step: string) => Promise<void>): Promise<{ total: string; currency: string; seats: number; bags: number }> {
  const { frame } = checkout;
  await frame.getByRole('heading', { name: 'Your flight' }).waitFor();
  await frame.getByRole('button', { name: 'Continue' }).click();
  const email = uniqueEmail(`button-${provider}`);
  await frame.getByLabel('E-mail address', { exact: true }).fill(email);
  await frame.getByRole('button', { name: 'Send code' }).click();
  await frame.getByRole('heading', { name: 'Enter your code' }).waitFor();
  await frame.getByLabel('Code', { exact: true }).fill(await latestCode(running.url, email));
  await frame.getByRole('button', { name: 'Sign in' }).click();

  await frame.getByRole('heading', { name: 'Passengers' }).waitFor();
  const passengers = await frame.locator('fieldset[id^="p"]').count();
  t.true(passengers > 0);
  for (let index = 0; index < passengers; index++) {
    const fieldset = frame.locator(`fieldset#p${index}`);
    const kind = /\((.+)\)$/.exec((await fieldset.locator('legend').textContent()) ?? '')?.[1] ?? '';
    t.truthy(BORN_ON[kind], `a passenger of a known kind: ${kind}`);
    await fieldset.getByLabel('First name', { exact: true }).fill(['Amelia', 'Jonah', 'Maya', 'Theo'][index] ?? 'Sam');
    await fieldset.getByLabel('Last name', { exact: true }).fill('Hart');
    await fieldset.getByLabel('Date of birth', { exact: true }).fill(BORN_ON[kind] as string);
    await fieldset.getByLabel('Gender', { exact: true }).selectOption(index % 2 === 0 ? 'female' : 'male');
    if (await fieldset.getByLabel('Passport number', { exact: true }).isVisible()) {
      await fieldset.getByLabel('Passport number', { exact: true }).fill(`X${index}234567`);
      await fieldset.getByLabel('Passport issued by', { exact: true }).fill('GB');
      await fieldset.getByLabel('Passport expiry date', { exact: true }).fill('2034-01-31');
    }
  }
  await frame.getByLabel('Phone number for the airline', { exact: true }).fill('+447700900123');
  await frame.getByRole('button', { name: 'Continue' }).click();

  let seats = 0;
  let bags = 0;
  for (let step = 0; step < 3; step++) {
    await frame.locator('#step-heading').waitFor();
    const title = await frame.locator('#step-heading').textContent();
    if (title === 'Seats') {
      // In each flight's group, a different seat for each passenger: the first free one, the second, …
      const groups = frame.locator('form fieldset');
      for (let group = 0; group < (await groups.count()); group++) {
        const selects = groups.nth(group).locator('select');
        for (let index = 0; index < (await selects.count()); index++) {
          const values = await selects.nth(index).locator('option').evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
          const seat = values.filter(Boolean)[index];
          if (seat) {
            await selects.nth(index).selectOption(seat);
            seats++;
          }
        }
      }
    } else if (title === 'Bags') {
      await frame.locator('#bag-0').selectOption('1');
      bags++;
    } else break;
    await looks?.(title.toLowerCase());
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('heading', { name: title, exact: true }).waitFor({ state: 'detached' });
  }

  await frame.getByRole('heading', { name: 'Payment' }).waitFor();
  await frame.getByLabel('A new card', { exact: true }).check();
  const card = frame.frameLocator('iframe[title="Card details"]');
  await card.locator('#number').fill('4242 4242 4242 4242');
  await card.locator('#expiry').fill('12/34');
  await card.locator('#cvc').fill('123');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('heading', { name: 'Review and pay' }).waitFor({ timeout: 30_000 });
  await looks?.('review');
  const [total, currency] = ((await frame.locator('#total').textContent()) ?? '').trim().split(' ') as [string, string];
  await frame.getByRole('button', { name: /^Pay / }).click();
  return { total, currency, seats, bags };
}

/** What the page, the agency's backend, the service and the processor say once the traveler paid. */
async function assertBooked(t: ExecutionContext, shop: DemoPage, provider: string, sessionId: string, review: { total: string; currency: string }): Promise<void> {
  const { page } = shop;
  const historyLength = await page.evaluate(() => (globalThis as unknown as DemoWindow).history.length);
  const [exit] = await waitForExits(page, 1);
  t.like(exit, { reason: 'booking_confirmed', sessionId, providerId: provider });
  await dialogOf(page, provider).waitFor({ state: 'detached' });
  t.is(await focusOf(page, provider), 'button', 'focus back on the button');

  const complete = (await heard(page)).filter((message) => message.type === 'SVC_BOOKING_COMPLETE');
  t.deepEqual(complete, [{ type: 'SVC_BOOKING_COMPLETE', bookingId: exit?.bookingId, airlineRef: exit?.airlineRef, providerId: provider }]);
  t.is(BOOKING_PATH.exec(new URL(page.url()).pathname)?.[1], exit?.bookingId, 'the history entry is the booking path');
  t.is(new URL(page.url()).searchParams.get('session'), sessionId);
  t.is(await page.evaluate(() => (globalThis as unknown as DemoWindow).history.length), historyLength, 'replaced, not pushed');

  const read = await jsonOf(await fetch(`${running.url}/v1/checkout/sessions/${sessionId}`, { headers: { 'x-api-key': secretKey } }));
  t.like(read, { status: 'complete', booking_id: exit?.bookingId, provider_id: provider, airline_pnr: exit?.airlineRef, total_amount: review.total, currency: review.currency });
  await page.waitForFunction(() => (globalThis as unknown as DemoWindow).demoTravel.confirmations.length === 1);
  t.is(await page.locator('#result-text').textContent(), `Booking confirmed by our backend. Airline booking reference: ${read.airline_pnr}.`);

  const bookings = await bookingsOfSession(running, sessionId);
  t.is(bookings.length, 1, 'one booking');
  t.like(bookings[0], { id: exit?.bookingId, status: 'confirmed', provider_id: provider });
  t.is(bookings[0].metadata?.iata_code, 'DT', 'the agency’s IATA code on the booking');
  t.is(BigInt((await intentRecord(running, bookings[0].payment_intent_id)).amount_received), toMinorUnits(review.total, review.currency), 'captured exactly the review’s total');
  t.deepEqual(shop.consoleErrors, []);
}

for (const handover of ['raw', 'id'] as const) {
  for (const provider of PROVIDERS) {
    test.serial(`${provider}, ${handover === 'raw' ? 'flightOffer' : 'flightOfferID'}: a new traveler books through the button on Demo Travel; the page hears it, the backend confirms it, the processor captured the review’s total`, async (t) => {
      if (!browser) return t.fail(CHROMIUM_MISSING);
      t.timeout(120_000);
      const shop = await shopWith(handover);
      const element = shop.page.locator(`#offer-${provider} checkout-button`);
      t.is(await element.getAttribute('flight-offer-id').then(Boolean), handover === 'id');
      const checkout = await clickBuy(shop, provider);
      const offerCreations = shop.sent.filter((request) => request.url === `/v1/flights/providers/${provider}/offers`);
      t.is(offerCreations.length, handover === 'raw' ? 1 : 0, handover === 'raw' ? 'the button created the offer' : 'the backend had created it');

      // The family fare (four passengers) is looked at: the shop with the checkout open, at each width.
      const looks =
        provider === 'provider_c' && handover === 'raw'
          ? async (step: string) => {
              if (step !== 'review' && step !== 'seats') return;
              for (const width of WIDTHS) {
                await shop.page.setViewportSize({ width, height: 900 });
                const inFrame = await (await checkoutFrame(shop, checkout.sessionId)).evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
                t.is(inFrame, 0, `nothing sticks out sideways inside the checkout at ${width} px`);
              }
              await fitsEveryWidth(t, shop.page, `demo-travel-checkout-${step}`);
              await shop.page.setViewportSize({ width: 1280, height: 900 });
            }
          : undefined;
      const { steps } = await checkoutSummary(shop, checkout);
      if (provider === 'provider_a') {
        const kept = await (await checkoutFrame(shop, checkout.sessionId)).evaluate('document.cookie = "probe=1; SameSite=None; Secure"; document.cookie');
        t.is(kept, '', 'third-party cookies are blocked: the checkout’s frame cannot keep one');
      }
      const review = await bookWithMouse(t, shop, provider, checkout, looks);
      if (steps.seats) t.true(review.seats > 0, 'a seat picked where seats are sold');
      if (steps.bags) t.is(review.bags, 1, 'a bag picked where bags are sold');
      await assertBooked(t, shop, provider, checkout.sessionId, review);
      const [booking] = await bookingsOfSession(running, checkout.sessionId);
      t.is((await running.service.db.knex('booking_seat_selections').where({ booking_id: booking.id })).length, review.seats, 'the seats picked were booked');
      if (provider === 'provider_a') {
        t.deepEqual(shop.cookieHeaders, [], 'no request to the service carried a cookie: it needs none');
        t.deepEqual(await shop.context.cookies([running.config.authUrl, running.url]), []);
      }
      await shop.context.close();
    });
  }
}

test.serial('by keyboard alone on Demo Travel: Tab to the button, Enter, then sign in, a passenger, a seat, a bag, a new card, review and pay', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  t.timeout(120_000);
  const provider = 'provider_b';
  t.true(running.service.db.embedded);
  await sleep(IDLE_TIMEOUT_MS * 3); // the service sat idle: its pool let the connection go
  const shop = await shopWith('id');
  const { page } = shop;
  const keys = page.keyboard;
  for (let press = 0; press < 40 && (await focusOf(page, provider)) !== 'button'; press++) await keys.press('Tab');
  t.is(await focusOf(page, provider), 'button', 'Tab reaches the button');
  await keys.press('Enter');
  await waitForSessions(shop, 1);
  const sessionId = shop.sessions[0]?.id as string;
  const frame = page.frameLocator(`#offer-${provider} checkout-button iframe`);
  await frame.getByRole('heading', { name: 'Your flight' }).waitFor();
  const checkout = await checkoutFrame(shop, sessionId);
  const inCheckout = () => checkout;
  const inVault = () => {
    const found = page.frames().find((candidate) => candidate.url().includes('/elements/card'));
    if (!found) throw new Error('no vault frame yet');
    return found;
  };
  for (let wait = 0; wait < 40 && (await focusOf(page, provider)) !== 'dialog: the checkout frame'; wait++) await page.waitForTimeout(50);
  t.is(await focusOf(page, provider), 'dialog: the checkout frame', 'once ready, focus is in the checkout');

  await tabTo(page, inCheckout, 'button.primary');
  await keys.press('Enter');
  await tabTo(page, inCheckout, '#email');
  const email = uniqueEmail('button-keyboard');
  await keys.type(email);
  await keys.press('Enter');
  await frame.getByRole('heading', { name: 'Enter your code' }).waitFor();
  await tabTo(page, inCheckout, '#code');
  await keys.type(await latestCode(running.url, email));
  await keys.press('Enter');

  await frame.getByRole('heading', { name: 'Passengers' }).waitFor();
  await tabTo(page, inCheckout, '#p0-first');
  await keys.type('Amelia');
  await keys.press('Tab');
  await keys.type('Hart');
  await tabTo(page, inCheckout, '#p0-born');
  await keys.type('03141986');
  await tabTo(page, inCheckout, '#p0-gender');
  await keys.type('Female');
  if (await frame.locator('#p0-passport').isVisible()) {
    await tabTo(page, inCheckout, '#p0-passport');
    await typeInTurn(page, ['533401372', 'GB', '05012034']);
  }
  await tabTo(page, inCheckout, '#phone');
  await keys.type('+447700900123');
  await keys.press('Enter');

  // Seats and bags: the first free seat and one bag, by the arrow keys on their lists.
  const chosen: string[] = [];
  for (let step = 0; step < 3; step++) {
    await frame.locator('#step-heading').waitFor();
    const title = await frame.locator('#step-heading').textContent();
    if (title !== 'Seats' && title !== 'Bags') break;
    const list = title === 'Seats' ? 'select[id^="seat-"]' : '#bag-0';
    await tabTo(page, inCheckout, list);
    await keys.press('ArrowDown');
    chosen.push(`${title}: ${await frame.locator(list).first().inputValue()}`);
    await tabTo(page, inCheckout, 'button.primary');
    await keys.press('Enter');
    await frame.getByRole('heading', { name: title, exact: true }).waitFor({ state: 'detached' });
  }
  t.deepEqual(chosen.map((line) => line.split(':')[0]), ['Seats', 'Bags'], 'provider_b sells seats and bags');
  t.true(chosen.every((line) => !line.endsWith(': ') && !line.endsWith(': 0')), `a seat and a bag chosen: ${chosen.join(', ')}`);

  await frame.getByRole('heading', { name: 'Payment' }).waitFor();
  await frame.frameLocator('iframe[title="Card details"]').locator('#number').waitFor();
  await tabTo(page, inVault, '#number');
  await typeInTurn(page, ['4242 4242 4242 4242', '12/34', '123']);
  await tabTo(page, inCheckout, '#save-card');
  await keys.press('Enter');

  await frame.getByRole('heading', { name: 'Review and pay' }).waitFor({ timeout: 30_000 });
  const [total, currency] = ((await frame.locator('#total').textContent()) ?? '').trim().split(' ') as [string, string];
  await tabTo(page, inCheckout, '#pay');
  await keys.press('Enter');
  await assertBooked(t, shop, provider, sessionId, { total, currency });
  const [booking] = await bookingsOfSession(running, sessionId);
  t.is((await running.service.db.knex('booking_seat_selections').where({ booking_id: booking.id })).length, 1, 'the seat chosen by keyboard was booked');
  await shop.context.close();
});

test.serial('Demo Travel’s events page lists what Travel Partner told its receiver of each sale, every delivery verified', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const demo = running.config.demoTravel?.url as string;
  const credentials = JSON.parse(fs.readFileSync(`${running.config.dataDir}/demo-travel-credentials.json`, 'utf8')) as { partner_id: string };
  const sold = await running.service.db.knex('checkout_sessions').where({ partner_id: credentials.partner_id, status: 'complete' }).select('id', 'booking_id');
  t.true(sold.length >= 1, 'the tests before sold through Demo Travel');
  const context = await browser.newContext();
  const page = await context.newPage();
  // Deliveries are jobs: each sale's two events arrive within moments of it.
  for (let attempt = 0; attempt < 50; attempt++) {
    await page.goto(`${demo}/events`);
    const text = (await page.locator('main').textContent()) ?? '';
    if (sold.every((session: { id: string; booking_id: string }) => text.includes(`checkout session ${session.id}: complete`) && text.includes(`booking ${session.booking_id}: confirmed`))) break;
    await sleep(200);
  }
  const text = (await page.locator('main').textContent()) ?? '';
  for (const session of sold as { id: string; booking_id: string }[]) {
    t.true(text.includes(`checkout session ${session.id}: complete`), `checkout.session.completed of ${session.id}`);
    t.true(text.includes(`booking ${session.booking_id}: confirmed`), `booking.confirmed of ${session.booking_id}`);
  }
  t.is(await page.locator('.event').count(), Math.min(50, sold.length * 2), 'each event once, however often it was delivered');
  t.is(await page.locator('.event .verified').count(), await page.locator('.event').count());
  await fitsEveryWidth(t, page, 'demo-travel-events');
  await context.close();

  // The receiver keeps only what is signed with its secret.
  const forged = await fetch(`${demo}/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': 'evt_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,Zm9yZ2Vk' },
    body: JSON.stringify({ type: 'booking.confirmed', timestamp: new Date().toISOString(), data: {} }),
  });
  t.is(forged.status, 400);
});
