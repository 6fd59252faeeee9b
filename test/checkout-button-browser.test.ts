/**
 * The checkout button in a real browser (headless Chromium) on the sandbox's demo travel agency, "Demo
 * Travel": another site than the service (`localhost` against the service's `127.0.0.1`, decisions §12).
 * The element upgrades; its props are checked before any request; with a raw offer it creates the offer,
 * then the session, with the page's publishable key, the agency's IATA code and the page's Origin; the
 * checkout opens in a modal, labelled dialog with focus inside; Escape and the close control close it,
 * focus goes back to the button and onExit says `search_again`; a re-open is a new session. Messages are
 * heard from the checkout frame's origin and window only: another frame of the same origin, a window of
 * another origin and malformed messages change nothing. SVC_BOOKING_COMPLETE replaces the page's history
 * entry with the booking path, and the agency's backend confirms the sale with GET
 * /v1/checkout/sessions/{id} before the page shows the PNR: a forged completion shows none. Refusals are
 * said in words (offer_unavailable through onExit too). At 375 px the dialog fills the screen.
 *
 * The hosted checkout page (`{AUTH_URL}/checkout/{id}`) is played by a stand-in for the tests of the
 * button's own rules: Playwright answers the frame's request with a blank page of the checkout's origin,
 * and the test posts the checkout's messages from inside that frame, as the page would; the last test
 * opens the real one. Booking through it, on every provider: checkout-button-e2e-browser.test.ts.
 */
import fs from 'node:fs';
import test from 'ava';
import type { Browser, Frame } from 'playwright-core';
import { book, booker, prepareBooking } from './helpers/bookings.js';
import { CHROMIUM_MISSING, clientCallback, launchChromium } from './helpers/chromium.js';
import { fitsEveryWidth } from './helpers/layout.js';
import { buttonOf, dialogOf, exits, focusOf, openCheckout, openShop as openDemoShop, pollFor, waitForExits, type DemoPage, type DemoWindow, type El, type Exit } from './helpers/demo-travel.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const BOOKING_PATH = /^\/checkout\/bookings\/([0-9a-f-]{36})$/;

let running: RunningService;
let browser: Browser | undefined;
let demoUrl: string;
let demoOrigin: string;
let apiOrigin: string;
let authOrigin: string;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  demoUrl = `${running.config.demoTravel?.url}/`;
  demoOrigin = new URL(demoUrl).origin;
  apiOrigin = new URL(running.config.baseUrl).origin;
  authOrigin = new URL(running.config.authUrl).origin;
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  await running?.close();
});

/** Posts `message` to the demo page from inside `frame`, as the hosted checkout does (to the page's exact origin). */
async function post(frame: Frame, message: unknown, target = demoOrigin): Promise<void> {
  await frame.evaluate(
    ({ message, target }) => (globalThis as unknown as { parent: { postMessage(data: unknown, origin: string): void } }).parent.postMessage(message, target),
    { message, target },
  );
}

/** The shop in a new browser context; `standIn`: the hosted checkout is played by a blank page of its origin. */
const openShop = (standIn: boolean): Promise<DemoPage> => openDemoShop(browser as Browser, running, { standIn });


test('the element upgrades; a raw offer is created, then the session, with the publishable key, the IATA code and the page’s Origin; the dialog is modal, labelled, focused; Escape and Close end it with search_again and focus back on the button; a re-open is a new session', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const shop = await openShop(true);
  const { page } = shop;
  t.is(new URL(page.url()).hostname, 'localhost', 'the demo is another site than the service (127.0.0.1)');
  t.is(new URL(running.config.baseUrl).hostname, '127.0.0.1');
  t.true(await page.evaluate(() => typeof (globalThis as unknown as DemoWindow).customElements.get('checkout-button') === 'function'), 'the element is defined');
  // The button is in the page's DOM, with the page's class (className), so the page's stylesheet styles it.
  const button = buttonOf(page, 'provider_a');
  t.is(await button.getAttribute('class'), 'buy');
  t.is(await button.getAttribute('aria-haspopup'), 'dialog');
  t.is(await page.getByRole('button', { name: 'Book this flight (London → Paris, return)' }).count(), 1, 'the element’s content is the label');
  const publishableKey = (await page.locator('#offer-provider_a checkout-button').getAttribute('api-key')) as string;
  t.regex(publishableKey, /^pk_test_/);
  t.deepEqual(shop.sent, [], 'nothing is sent before a click');

  const first = await openCheckout(shop, 'provider_a');
  const [createOffer, createSession] = shop.sent;
  t.is(shop.sent.length, 2);
  t.like(createOffer, { method: 'POST', url: '/v1/flights/providers/provider_a/offers' });
  t.like(createSession, { method: 'POST', url: '/v1/checkout/sessions' });
  for (const request of shop.sent) {
    t.is(request.headers['x-api-key'], publishableKey, 'the page’s publishable key');
    t.is(request.headers['x-customer-id'], 'DT', 'the agency’s IATA code');
    t.is(request.headers['origin'], demoOrigin, 'the page’s Origin');
    t.is(request.headers['cookie'], undefined, 'no cookie: the key is the credential');
  }
  t.like(createOffer?.body, { type: 'flight-offer' }, 'the provider’s own offer, as the page had it');
  const offerId = shop.offers[0]?.offer_id;
  t.deepEqual(createSession?.body, { provider_id: 'provider_a', offer_id: offerId, is_prod: false });
  const row = await running.service.db.knex('checkout_sessions').where({ id: first.sessionId }).first();
  t.like(row, { origin: demoOrigin, customer_id: 'DT', provider_id: 'provider_a', offer_id: offerId, status: 'open' });

  // The dialog: modal, named by its heading, the checkout framed from the session's url, focus inside.
  const dialog = await page.evaluate(() => {
    const host = (globalThis as unknown as DemoWindow).document.querySelector('#offer-provider_a checkout-button') as El;
    const element = host.shadowRoot?.querySelector('dialog') as El;
    const title = host.shadowRoot?.querySelector(`#${element.getAttribute('aria-labelledby')}`);
    return { modal: element.matches(':modal'), title: title?.textContent, src: (host.shadowRoot?.querySelector('iframe') as El).src };
  });
  t.true(dialog.modal);
  t.is(dialog.title, 'Checkout');
  t.is(dialog.src, String(shop.sessions[0]?.url), 'the frame is the session’s url, the client secret in its fragment');
  t.is(new URL(dialog.src).origin, authOrigin);
  t.is(new URL(dialog.src).hash, `#${shop.sessions[0]?.client_secret}`);
  t.is(await focusOf(page, 'provider_a'), 'dialog: Close');
  t.true(await page.getByRole('button', { name: 'Close the checkout' }).isVisible(), 'a visible close control');

  await page.keyboard.press('Escape');
  await dialogOf(page, 'provider_a').waitFor({ state: 'detached' });
  t.deepEqual(await waitForExits(page, 1), [{ reason: 'search_again', sessionId: first.sessionId }]);
  t.is(await focusOf(page, 'provider_a'), 'button', 'focus is back on the button');
  t.is(page.frames().length, 1, 'the checkout frame is gone');

  // Again: a new session (the old one may be used or expired), the offer already made reused.
  const second = await openCheckout(shop, 'provider_a');
  t.not(second.sessionId, first.sessionId);
  t.deepEqual(
    shop.sent.map((request) => request.url),
    ['/v1/flights/providers/provider_a/offers', '/v1/checkout/sessions', '/v1/checkout/sessions'],
  );
  await page.getByRole('button', { name: 'Close the checkout' }).click();
  await dialogOf(page, 'provider_a').waitFor({ state: 'detached' });
  t.deepEqual(await waitForExits(page, 2), [
    { reason: 'search_again', sessionId: first.sessionId },
    { reason: 'search_again', sessionId: second.sessionId },
  ]);
  t.is(await focusOf(page, 'provider_a'), 'button');
  // The first frame's listener went with it: a third checkout hears its own frame once.
  const third = await openCheckout(shop, 'provider_a');
  await post(third.frame, { type: 'SVC_CHECKOUT_CLOSE_REQUESTED' });
  await dialogOf(page, 'provider_a').waitFor({ state: 'detached' });
  await page.waitForTimeout(200);
  t.is((await exits(page)).length, 3, 'one onExit per checkout');
  t.deepEqual(shop.consoleErrors, [], 'no console errors (a CSP violation would show there)');
  await shop.context.close();
});

test('props are checked before any request: without apiKey, with a secret key, with both offer props, the button says what is wrong and sends nothing', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const shop = await openShop(true);
  const { page } = shop;
  const said = async (props: Record<string, unknown>): Promise<{ error: string; dialogs: number }> =>
    page.evaluate((values) => {
      const doc = (globalThis as unknown as DemoWindow).document;
      const element = doc.createElement('checkout-button');
      element.id = 'probe';
      Object.assign(element, values);
      doc.querySelector('main')?.append(element);
      element.querySelector('button')?.click();
      const error = element.shadowRoot?.querySelector('.error') as El;
      const result = { error: error.hidden ? '' : (error.textContent ?? ''), dialogs: element.shadowRoot?.querySelector('dialog') ? 1 : 0 };
      (element as unknown as { remove(): void }).remove();
      return result;
    }, props);
  const base = { iataCode: 'DT', providerID: 'provider_b', flightOfferID: '00000000-0000-4000-8000-000000000000' };
  const missingKey = await said(base);
  t.regex(missingKey.error, /apiKey is required/);
  t.is(missingKey.dialogs, 0);
  t.regex((await said({ ...base, apiKey: 'tpk_0123456789ab_secretsecretsecretsecretsecretsecretsecret12' })).error, /must be a publishable key .* Never put a secret key in a web page/);
  t.regex((await said({ ...base, apiKey: 'pk_test_x', flightOffer: { id: 'off_1' } })).error, /exactly one of flightOffer .* and flightOfferID/);
  t.regex((await said({ ...base, apiKey: 'pk_test_x', iataCode: 'british' })).error, /iataCode is required: 2 or 3 upper-case letters or digits/);
  t.regex((await said({ ...base, apiKey: 'pk_test_x', providerID: 'provider_z' })).error, /providerID must be one of provider_a, provider_b, provider_c, provider_d, provider_e/);
  t.regex((await said({ ...base, apiKey: 'pk_test_x', bookingPath: 'https://elsewhere.example/x' })).error, /bookingPath must be a path on this page’s own origin/);
  await page.waitForTimeout(200);
  t.deepEqual(shop.sent, [], 'no request went out');
  t.is(shop.consoleErrors.length, 6, 'each problem is logged for the developer');
  t.regex(shop.consoleErrors[0] ?? '', /checkout-button: invalid_props: .*apiKey is required/);
  await shop.context.close();
});

test('only the checkout frame is heard: another frame of its origin, a window of another origin and malformed messages change nothing; SVC_CHECKOUT_BUSY makes closing ask first', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const shop = await openShop(true);
  const { page } = shop;
  const { sessionId, frame } = await openCheckout(shop, 'provider_b');
  const bookingId = '3c9e1f7a-5b2d-4e8c-9a1f-7d6b5c4e3a21';
  const complete = { type: 'SVC_BOOKING_COMPLETE', bookingId, airlineRef: 'FORGED', providerId: 'provider_b' };

  // A second frame of the checkout's own origin: the right origin, another window.
  await page.evaluate((src) => {
    const doc = (globalThis as unknown as DemoWindow).document;
    const intruder = doc.createElement('iframe');
    intruder.src = src;
    intruder.title = 'Intruder';
    doc.body.append(intruder);
  }, `${authOrigin}/checkout/intruder`);
  const intruder = await pollFor(page, () => page.frames().find((candidate) => candidate.url().endsWith('/checkout/intruder')), () => 'the intruding frame did not load');
  await post(intruder, complete);
  await post(intruder, { type: 'SVC_CHECKOUT_CLOSE_REQUESTED' });
  // A window of another origin (a popup this page opened) posting to the page.
  const stranger = await clientCallback();
  const [popup] = await Promise.all([shop.context.waitForEvent('page'), page.evaluate((url) => void (globalThis as unknown as DemoWindow).open(url), stranger.url)]);
  await popup.waitForLoadState();
  await popup.evaluate((message) => (globalThis as unknown as { opener: { postMessage(data: unknown, origin: string): void } }).opener.postMessage(message, '*'), complete);
  // The page itself (its origin, its window).
  await page.evaluate((message) => (globalThis as unknown as { postMessage(data: unknown, origin: string): void }).postMessage(message, '*'), complete);
  // The checkout frame, but malformed: no booking id, another provider, a bad reason, an unknown type, not an object.
  for (const malformed of [
    { type: 'SVC_BOOKING_COMPLETE', airlineRef: 'X', providerId: 'provider_b' },
    { ...complete, bookingId: '../../elsewhere' },
    { ...complete, providerId: 'provider_a' },
    { ...complete, airlineRef: { pnr: 'X' } },
    { type: 'SVC_BOOKING_FAILED', reason: 'because' },
    { type: 'SVC_CHECKOUT_BUSY', busy: 'yes' },
    { type: 'SVC_SOMETHING_ELSE' },
    'SVC_BOOKING_COMPLETE',
    null,
  ]) {
    await post(frame, malformed);
  }
  await post(frame, { type: 'SVC_CHECKOUT_READY' });
  await page.waitForFunction(() => {
    const host = (globalThis as unknown as DemoWindow).document.querySelector('#offer-provider_b checkout-button') as El;
    return (host.shadowRoot?.querySelector('.note') as El).hidden;
  });
  await page.waitForTimeout(300);
  t.true(await dialogOf(page, 'provider_b').isVisible(), 'the checkout is still open');
  t.deepEqual(await exits(page), []);
  t.is(new URL(page.url()).pathname, '/', 'the history entry is untouched');
  t.is(await focusOf(page, 'provider_b'), 'dialog: the checkout frame', 'once ready, focus is in the checkout’s frame');
  await popup.close();
  stranger.close();

  // The booking is being placed: Escape and the close control ask first; "Keep waiting" keeps it open.
  await post(frame, { type: 'SVC_CHECKOUT_BUSY', busy: true });
  await page.waitForTimeout(100);
  await page.getByRole('button', { name: 'Close the checkout' }).focus();
  await page.keyboard.press('Escape');
  const question = page.getByRole('alertdialog', { name: 'Your booking is being placed' });
  await question.waitFor();
  t.is(await focusOf(page, 'provider_b'), 'dialog: Keep waiting');
  await page.getByRole('button', { name: 'Keep waiting' }).click();
  await question.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Close the checkout' }).click();
  await question.waitFor();
  await page.getByRole('button', { name: 'Keep waiting' }).click();
  await question.waitFor({ state: 'hidden' });
  // Close or Escape pressed inside the frame asks the same.
  await post(frame, { type: 'SVC_CHECKOUT_CLOSE_REQUESTED' });
  await question.waitFor();
  await page.getByRole('button', { name: 'Keep waiting' }).click();
  t.true(await dialogOf(page, 'provider_b').isVisible());
  t.deepEqual(await exits(page), []);
  // Done placing it: closing no longer asks.
  await post(frame, { type: 'SVC_CHECKOUT_BUSY', busy: false });
  await page.waitForTimeout(100);
  await page.getByRole('button', { name: 'Close the checkout' }).click();
  await dialogOf(page, 'provider_b').waitFor({ state: 'detached' });
  t.deepEqual(await waitForExits(page, 1), [{ reason: 'search_again', sessionId }]);
  t.deepEqual(shop.consoleErrors, []);
  await shop.context.close();
});

test('SVC_BOOKING_FAILED ends the checkout: offer_unavailable and session_expired → offer_unavailable, search_again → search_again', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const shop = await openShop(true);
  const { page } = shop;
  const cases: Array<[string, string]> = [
    ['offer_unavailable', 'offer_unavailable'],
    ['session_expired', 'offer_unavailable'],
    ['search_again', 'search_again'],
  ];
  const expected: Exit[] = [];
  for (const [reason, exit] of cases) {
    const { sessionId, frame } = await openCheckout(shop, 'provider_e');
    await post(frame, { type: 'SVC_BOOKING_FAILED', reason });
    await dialogOf(page, 'provider_e').waitFor({ state: 'detached' });
    expected.push({ reason: exit, sessionId });
    t.deepEqual(await waitForExits(page, expected.length), expected, reason);
  }
  t.is(new URL(page.url()).pathname, '/');
  await shop.context.close();
});

test('SVC_BOOKING_COMPLETE replaces the history entry with the booking path; the agency’s backend confirms with GET /v1/checkout/sessions/{id}: a forged completion shows no PNR, a real one does', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  t.timeout(120_000);
  const shop = await openShop(true);
  const { page } = shop;
  const historyLength = await page.evaluate(() => (globalThis as unknown as DemoWindow).history.length);

  // Forged: the frame says booked, the session is still open. The page asks its backend, which says no.
  const forged = await openCheckout(shop, 'provider_b');
  const forgedBooking = '3c9e1f7a-5b2d-4e8c-9a1f-7d6b5c4e3a21';
  await post(forged.frame, { type: 'SVC_BOOKING_COMPLETE', bookingId: forgedBooking, airlineRef: 'FORGED', providerId: 'provider_b' });
  await dialogOf(page, 'provider_b').waitFor({ state: 'detached' });
  t.deepEqual(await waitForExits(page, 1), [{ reason: 'booking_confirmed', sessionId: forged.sessionId, bookingId: forgedBooking, airlineRef: 'FORGED', providerId: 'provider_b' }]);
  t.is(new URL(page.url()).pathname, `/checkout/bookings/${forgedBooking}`);
  t.is(new URL(page.url()).searchParams.get('session'), forged.sessionId);
  t.is(await page.evaluate(() => (globalThis as unknown as DemoWindow).history.length), historyLength, 'replaced, not pushed');
  await page.waitForFunction(() => (globalThis as unknown as DemoWindow).demoTravel.confirmations.length === 1);
  t.like((await page.evaluate(() => (globalThis as unknown as DemoWindow).demoTravel.confirmations))[0], { status: 200, session: { status: 'open', booking_id: null } });
  t.regex((await page.locator('#result-text').textContent()) ?? '', /could not confirm/);
  t.false(((await page.locator('main').textContent()) ?? '').includes('FORGED'), 'the browser’s word shows no PNR');

  // Real: a booking that completed the session (the hosted checkout's part, done here through the service).
  const shopper = await booker(running);
  const { body } = await prepareBooking(running, shopper, 'provider_b');
  const booked = await book(running, shopper, 'provider_b', body);
  const booking = ((await booked.json()) as { booking: { id: string; airline_pnr: string; total_amount: number; currency: string } }).booking;
  t.is(booked.status, 201);
  const real = await openCheckout(shop, 'provider_b');
  await running.service.checkoutSessions.complete(real.sessionId, { booking_id: booking.id, airline_pnr: booking.airline_pnr, total_amount: String(booking.total_amount), currency: booking.currency });
  await post(real.frame, { type: 'SVC_BOOKING_COMPLETE', bookingId: booking.id, airlineRef: booking.airline_pnr, providerId: 'provider_b' });
  await dialogOf(page, 'provider_b').waitFor({ state: 'detached' });
  t.like((await waitForExits(page, 2))[1], { reason: 'booking_confirmed', bookingId: booking.id });
  t.regex(new URL(page.url()).pathname, BOOKING_PATH);
  await page.waitForFunction(() => (globalThis as unknown as DemoWindow).demoTravel.confirmations.length === 2);
  t.is(await page.locator('#result-text').textContent(), `Booking confirmed by our backend. Airline booking reference: ${booking.airline_pnr}.`);
  // The booking path itself, loaded again: the backend's page says the same.
  await page.reload();
  t.is(await page.locator('#pnr').textContent(), booking.airline_pnr);
  t.is(await page.locator('h1').textContent(), 'Booking confirmed');
  t.deepEqual(shop.consoleErrors, []);
  await shop.context.close();
});

test('refusals are said beside the button: an offer that cannot be sold is offer_unavailable through onExit too; another refusal opens no dialog', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const shop = await openShop(true);
  const { page } = shop;
  const expired = (await (
    await fetch(`${running.config.sandboxUrl}/flights/provider_b/air/offers/off_0000SANDBOXEXPIRED`, { headers: { authorization: 'Bearer duffel_test_me', 'duffel-version': 'v2' } })
  ).json()) as { data: unknown };
  const publishableKey = (await page.locator('#offer-provider_a checkout-button').getAttribute('api-key')) as string;
  const attempt = (props: Record<string, unknown>) =>
    page.evaluate(async (values) => {
      const win = globalThis as unknown as DemoWindow;
      const element = win.document.createElement('checkout-button');
      const exits: Exit[] = [];
      const errors: unknown[] = [];
      Object.assign(element, values);
      // The `exit` event carries what onExit gets (a function defined in here would not survive the transfer).
      element.addEventListener('exit', (event) => exits.push(event.detail as Exit));
      element.addEventListener('checkout-button-error', (event) => errors.push(event.detail));
      win.document.querySelector('main')?.append(element);
      element.querySelector('button')?.click();
      const error = element.shadowRoot?.querySelector('.error') as El;
      for (let wait = 0; wait < 200 && error.hidden; wait++) await new Promise((resolve) => setTimeout(resolve, 25));
      return { exits, errors, error: error.textContent, dialogs: element.shadowRoot?.querySelector('dialog') ? 1 : 0 };
    }, props);
  const common = { apiKey: publishableKey, iataCode: 'DT' };

  const gone = await attempt({ ...common, providerID: 'provider_b', flightOffer: expired.data });
  t.deepEqual(gone.exits, [{ reason: 'offer_unavailable' }]);
  t.deepEqual(gone.errors, [{ code: 'offer_expired', message: 'This offer is no longer available: it sold out or expired. Search again for another flight.' }]);
  t.is(gone.dialogs, 0);

  const unknown = await attempt({ ...common, providerID: 'provider_b', flightOfferID: '00000000-0000-4000-8000-000000000000' });
  t.deepEqual(unknown.exits, []);
  t.regex(unknown.error ?? '', /^The checkout could not open: There is no offer 00000000-0000-4000-8000-000000000000 of provider_b/);
  t.is(unknown.dialogs, 0);

  const offerId = (await page.locator('#offer-provider_b checkout-button').getAttribute('flight-offer-id')) as string;
  const production = await attempt({ ...common, providerID: 'provider_b', flightOfferID: offerId, isProd: true });
  t.deepEqual(production.exits, []);
  t.regex(production.error ?? '', /is_prod is true, but this is the sandbox/);

  const otherSite = await attempt({ apiKey: 'pk_test_0123456789ab_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', iataCode: 'DT', providerID: 'provider_b', flightOfferID: offerId });
  // A refused key gets no CORS headers (publishable-cors.ts): to the page it is no answer at all.
  t.regex(otherSite.error ?? '', /^The checkout could not open: the booking service did not answer, or does not accept this page\./);
  t.deepEqual(otherSite.exits, []);
  t.true(shop.consoleErrors.some((line) => line.includes('check that apiKey is a publishable key of this service listing this page')));
  await shop.context.close();
});

test('the shop fits 1280 and 375 px; under 600 px the checkout dialog fills the screen, wider it is a centred box', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const shop = await openShop(true);
  const { page } = shop;
  await fitsEveryWidth(t, page, 'demo-travel-shop');
  const box = async () =>
    page.evaluate(() => {
      const win = globalThis as unknown as DemoWindow;
      const host = win.document.querySelector('#offer-provider_c checkout-button') as El;
      const rect = (host.shadowRoot?.querySelector('dialog') as El).getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, viewport: { width: win.innerWidth, height: win.innerHeight } };
    });
  await page.setViewportSize({ width: 375, height: 812 });
  await openCheckout(shop, 'provider_c');
  const narrow = await box();
  t.deepEqual({ x: narrow.x, y: narrow.y, width: narrow.width, height: narrow.height }, { x: 0, y: 0, ...narrow.viewport });
  // With the dialog open, nothing sticks out sideways either (screenshots in SHOTS_DIR when set).
  await fitsEveryWidth(t, page, 'demo-travel-checkout-open');
  await page.setViewportSize({ width: 1280, height: 900 });
  const wide = await box();
  t.true(wide.width < 1280 && wide.width >= 700, `a box (${wide.width} px)`);
  t.true(Math.abs(wide.x - (1280 - wide.width) / 2) <= 1, 'centred');
  await shop.context.close();
});

test('the demo travel agency is served on its own site with a strict CSP, its keys kept in DATA_DIR; the landing page links to it; the button’s script is served to any page', async (t) => {
  const page = await fetch(demoUrl);
  t.is(page.status, 200);
  const csp = page.headers.get('content-security-policy') ?? '';
  t.true(csp.includes(`script-src 'self' ${apiOrigin}`));
  t.true(csp.includes(`frame-src ${authOrigin}`));
  t.true(csp.includes(`connect-src 'self' ${apiOrigin}`));
  t.false(csp.includes('unsafe-inline'));
  const html = await page.text();
  t.is(html.match(/<checkout-button /g)?.length, 5, 'an offer of each provider');
  t.is(html.match(/flight-offer-id="/g)?.length, 2, 'two by id (provider_b, provider_d), three raw');
  const credentials = JSON.parse(fs.readFileSync(`${running.config.dataDir}/demo-travel-credentials.json`, 'utf8')) as { secret_key: string; publishable_key: string; origin: string };
  t.is((fs.statSync(`${running.config.dataDir}/demo-travel-credentials.json`).mode & 0o777).toString(8), '600');
  t.is(credentials.origin, demoOrigin);
  t.true(html.includes(credentials.publishable_key));
  t.false(html.includes(credentials.secret_key), 'the secret key stays on the backend');
  // The publishable key is refused where the backend's secret key works.
  const sessionRead = await fetch(`${running.url}/v1/checkout/sessions/00000000-0000-4000-8000-000000000000`, { headers: { 'x-api-key': credentials.publishable_key, origin: demoOrigin } });
  t.is(((await sessionRead.json()) as { code: string }).code, 'publishable_key_not_allowed');

  const landing = await (await fetch(`${running.url}/`)).text();
  t.true(landing.includes(`href="${demoUrl}"`), 'linked from the landing page');
  t.regex(landing, /Sell flights with the checkout button/);

  const script = await fetch(`${running.url}/components/checkout-button.js`, { headers: { origin: 'https://stranger.example' } });
  t.is(script.status, 200);
  t.is(script.headers.get('content-type'), 'application/javascript; charset=utf-8');
  t.is(script.headers.get('access-control-allow-origin'), '*');
  t.is(script.headers.get('cross-origin-resource-policy'), 'cross-origin');
  t.regex(script.headers.get('cache-control') ?? '', /max-age=300/);
  t.regex(await script.text(), /customElements\.define\('checkout-button'/);
});

test('with the hosted checkout: once it is ready focus is in it, and Escape pressed there closes the dialog with search_again, focus back on the button', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const shop = await openShop(false);
  const { page } = shop;
  const { sessionId } = await openCheckout(shop, 'provider_e');
  await page.frameLocator('#offer-provider_e checkout-button iframe').getByRole('heading', { name: 'Your flight' }).waitFor();
  await page.waitForFunction(() => {
    const host = (globalThis as unknown as DemoWindow).document.querySelector('#offer-provider_e checkout-button') as El;
    return (host.shadowRoot?.querySelector('.note') as El).hidden;
  });
  t.is(await focusOf(page, 'provider_e'), 'dialog: the checkout frame');
  await page.keyboard.press('Escape');
  await dialogOf(page, 'provider_e').waitFor({ state: 'detached' });
  t.deepEqual(await waitForExits(page, 1), [{ reason: 'search_again', sessionId }]);
  t.is(await focusOf(page, 'provider_e'), 'button');
  t.deepEqual(shop.consoleErrors, []);
  await shop.context.close();
});
