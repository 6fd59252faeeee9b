/**
 * The hosted checkout in Chromium (decisions §12, issue 24 item 3), provider_b, inside a partner's page on
 * another site (third-party cookies blocked, as Chromium's test profile does and as the flag asks): a new
 * traveler signs in with the e-mailed code, enters two passengers with passports, picks seats and a bag,
 * has a card declined and adds another in the vault's fields, reviews and books; the partner's page hears
 * SVC_CHECKOUT_READY and SVC_BOOKING_COMPLETE, the partner's backend reads the session complete, and the
 * processor captured exactly the review's total. No card number or security code ever reaches the
 * service's origin, its log or its database. A page of another origin cannot frame the checkout. Once by
 * keyboard alone. Each step fits at 1280 and 375 px.
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import test from 'ava';
import type { Browser, BrowserContext, Frame, Page, Request } from 'playwright-core';
import { createLogger } from '../core/logger.js';
import { toMinorUnits } from '../core/money/money.js';
import { intentRecord } from './helpers/bookings.js';
import { latestCode } from './helpers/browser.js';
import { bookingsOfSession, checkoutApi, checkoutPartner, openCheckout, type CheckoutPartner, type OpenedCheckout } from './helpers/checkout.js';
import { AMEX, bookInFrame, tabTo, typeInTurn, checkoutFits, checkoutFrame, checkoutFrameOf, DECLINED, messagesOf, partnerPages, VISA, vaultFrame, type PartnerPages } from './helpers/checkout-browser.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { jsonOf } from './helpers/http.js';
import { uniqueEmail } from './helpers/oauth.js';
import { freePort, startService, type RunningService } from './helpers/service.js';

/** Card numbers and the Amex security code (four digits standing alone: a three-digit one occurs by chance in ids). */
const SECRETS = [
  { name: 'Visa number', pattern: /4242\s?4242\s?4242\s?4242/ },
  { name: 'declined card number', pattern: /4000\s?0000\s?0000\s?0002/ },
  { name: 'Amex number', pattern: /3782\s?822463\s?10005/ },
  { name: 'Amex security code', pattern: /(?<![0-9A-Za-z-])7319(?![0-9A-Za-z-])/ },
];

let running: RunningService;
let partner: CheckoutPartner;
let browser: Browser | undefined;
let context: BrowserContext;
let partnerSite: PartnerPages;
let strangerSite: PartnerPages;
const logLines: string[] = [];
/** Every request the browser sent to the service's (and checkout's) origin, and to the vault's. */
const toService: string[] = [];
const toVault: string[] = [];
const pageErrors: string[] = [];
/** The traveler of the first test, who comes back. */
let returning = '';

test.before(async () => {
  const logger = createLogger(
    'trace',
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  running = await startService({}, { logger });
  partner = await checkoutPartner(running);
  partnerSite = await partnerPages(await freePort(), new URL(running.config.authUrl).origin);
  strangerSite = await partnerPages(await freePort(), new URL(running.config.authUrl).origin);
  browser = await launchChromium({ thirdPartyCookiesBlocked: true });
  if (!browser) return;
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  context.on('request', (request) => void record(request));
  context.on('weberror', (error) => pageErrors.push(String(error.error())));
});
test.after.always(async () => {
  await browser?.close();
  partnerSite?.close();
  strangerSite?.close();
  await running?.close();
});

async function record(request: Request): Promise<void> {
  const origin = new URL(request.url()).origin;
  const into = origin === new URL(running.config.authUrl).origin || origin === new URL(running.url).origin ? toService : origin === new URL(running.config.vault?.url ?? 'http://vault.invalid').origin ? toVault : undefined;
  if (!into) return;
  const headers = await request.allHeaders().catch(() => request.headers());
  into.push(JSON.stringify({ url: request.url(), method: request.method(), headers, body: request.postData() }));
}

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
  return page;
}

async function partnerSession(read: (checkout: OpenedCheckout) => Promise<void> = async () => undefined, path: Parameters<typeof openCheckout>[4] = 'normal'): Promise<OpenedCheckout> {
  const checkout = await openCheckout(running, partner, 'provider_b', partnerSite.origin, path);
  await read(checkout);
  return checkout;
}

test.serial('a new traveler books provider_b’s offer inside a partner’s page: passports, seats, a bag, a declined card then another, one booking at the review’s total', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession();
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  returning = uniqueEmail('checkout-b');
  const booked = await bookInFrame(t, running, page, checkout, {
    email: returning,
    savePassengers: true,
    cards: [DECLINED, VISA],
    looks: (step) => checkoutFits(t, page, checkout, `checkout-provider-b-${step}`),
  });
  t.regex(booked.pnr, /^[A-Z0-9]{6}$/);

  const messages = await messagesOf(page);
  t.deepEqual(messages[0], { type: 'SVC_CHECKOUT_READY' });
  const complete = messages.filter((message) => message.type === 'SVC_BOOKING_COMPLETE');
  t.is(complete.length, 1);
  // Each pay request is framed by SVC_CHECKOUT_BUSY true then false (the declined card's, then the booking's).
  const busy = messages.filter((message) => message.type === 'SVC_CHECKOUT_BUSY');
  t.deepEqual(busy, [
    { type: 'SVC_CHECKOUT_BUSY', busy: true },
    { type: 'SVC_CHECKOUT_BUSY', busy: false },
    { type: 'SVC_CHECKOUT_BUSY', busy: true },
    { type: 'SVC_CHECKOUT_BUSY', busy: false },
  ]);
  t.true(
    messages.findLastIndex((message) => message.type === 'SVC_CHECKOUT_BUSY') < messages.findIndex((message) => message.type === 'SVC_BOOKING_COMPLETE'),
    'no longer busy once the booking is complete',
  );
  // Framed, the checkout's own Close control is hidden: the dialog around it has one.
  t.is(await checkoutFrame(page).locator('#close').count(), 1);
  t.false(await checkoutFrame(page).locator('#close').isVisible(), 'no Close control inside the frame');
  const read = await jsonOf(await fetch(`${running.url}/v1/checkout/sessions/${checkout.id}`, { headers: { 'x-api-key': partner.apiKey } }));
  t.like(read, { status: 'complete', airline_pnr: booked.pnr, total_amount: booked.total });
  t.deepEqual(complete[0], { type: 'SVC_BOOKING_COMPLETE', bookingId: read.booking_id, airlineRef: booked.pnr, providerId: 'provider_b' });

  const bookings = await bookingsOfSession(running, checkout.id);
  t.deepEqual(bookings.map((booking) => booking.status), ['failed', 'confirmed'], 'the declined card’s attempt, then the booking');
  const confirmed = bookings[1];
  t.is(BigInt((await intentRecord(running, confirmed.payment_intent_id)).amount_received), toMinorUnits(booked.total, 'GBP'), 'the processor captured the review’s total');
  t.is(booked.total, checkout.order.amount, 'the offer, two seats and a bag');
  t.is((await running.service.db.knex('booking_seat_selections').where({ booking_id: confirmed.id })).length, checkout.order.seats.length);
  t.deepEqual(JSON.parse(JSON.stringify(confirmed.services)), checkout.order.services);

  // A reload shows the booking again (the secret is in the URL fragment; no cookie, no sign-in needed).
  await checkoutFrameOf(page, checkout).evaluate('location.reload()');
  await checkoutFrame(page).getByRole('heading', { name: 'Your flight is booked' }).waitFor();
  t.is((await checkoutFrame(page).locator('#pnr').textContent())?.trim(), booked.pnr);
  t.is((await bookingsOfSession(running, checkout.id)).length, 2, 'nothing booked again');
  await page.close();
});

/** axe-core's script: injected into the checkout's frame in a context that bypasses the page's CSP (it runs our script only). */
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: number;
}

/** axe-core's violations in the checkout's frame as it stands (the vault's nested frame, not ours, left out). */
async function axeViolations(frame: Frame): Promise<AxeViolation[]> {
  if (!(await frame.evaluate('typeof window.axe !== "undefined"'))) await frame.addScriptTag({ path: AXE_SCRIPT });
  return frame.evaluate(
    'axe.run(document, { iframes: false }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))',
  ) as Promise<AxeViolation[]>;
}

test.serial('axe-core finds no serious or critical accessibility problem at any step of provider_b’s checkout', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  // A context of its own: the page's CSP (rightly) refuses axe's script; the other tests keep the CSP.
  const scanning = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 }, bypassCSP: true });
  try {
    const checkout = await partnerSession();
    const page = await scanning.newPage();
    page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
    await page.goto(partnerSite.pageFor(checkout.url));
    const steps: string[] = [];
    await bookInFrame(t, running, page, checkout, {
      email: uniqueEmail('checkout-axe'),
      cards: [DECLINED, VISA],
      looks: async (step) => {
        steps.push(step);
        const violations = await axeViolations(checkoutFrameOf(page, checkout));
        const grave = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
        const other = violations.filter((violation) => !grave.includes(violation));
        if (other.length) t.log(`${step}: ${JSON.stringify(other)}`);
        t.deepEqual(grave, [], `${step}: no serious or critical violation`);
      },
    });
    t.deepEqual(steps, ['offer', 'sign-in', 'code', 'passengers', 'seats', 'bags', 'card', 'review', 'done']);
  } finally {
    await scanning.close();
  }
});

test.serial('a returning traveler is offered their saved passengers and cards first, and books with them', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession();
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  const frame = checkoutFrame(page);
  await frame.getByRole('heading', { name: 'Your flight' }).waitFor();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByLabel('E-mail address', { exact: true }).fill(returning);
  await frame.getByRole('button', { name: 'Send code' }).click();
  await frame.getByText('a 8-digit code').waitFor();
  await frame.getByLabel('Code', { exact: true }).fill(await latestCode(running.url, returning));
  await frame.getByRole('button', { name: 'Sign in' }).click();

  await frame.getByRole('heading', { name: 'Passengers' }).waitFor();
  const [ada, charles] = checkout.order.passengers;
  t.true(await frame.getByLabel(`${ada!.firstName} ${ada!.lastName}, born ${ada!.bornOn}, passport ending`).first().isChecked(), 'the first saved traveler for the first passenger');
  t.true(await frame.locator('fieldset#p1').getByLabel(`${charles!.firstName} ${charles!.lastName}, born`).isChecked(), 'the second for the second');
  t.false(await frame.getByLabel('Passport number', { exact: true }).first().isVisible(), 'their saved passports need no typing');
  await frame.getByLabel('Phone number for the airline', { exact: true }).fill('+442080160508');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('heading', { name: 'Seats' }).waitFor();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('heading', { name: 'Bags' }).waitFor();
  await frame.getByRole('button', { name: 'Continue' }).click();

  await frame.getByRole('heading', { name: 'Payment' }).waitFor();
  t.true(await frame.getByLabel('Visa ending in 0002, expires 12/34', { exact: true }).isChecked(), 'the default card first');
  t.true(await frame.getByLabel('Visa ending in 4242, expires 12/34', { exact: true }).isVisible());
  t.false(await frame.getByLabel('A new card', { exact: true }).isChecked());
  await frame.getByLabel('Visa ending in 4242, expires 12/34', { exact: true }).check();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('heading', { name: 'Review and pay' }).waitFor();
  t.is(await frame.locator('#total').textContent(), `${checkout.order.offer.total_amount} GBP`, 'no seats or bags this time');
  await frame.getByRole('button', { name: /^Pay / }).click();
  await frame.getByRole('heading', { name: 'Your flight is booked' }).waitFor({ timeout: 60_000 });
  const [booking] = await bookingsOfSession(running, checkout.id);
  t.like(booking, { status: 'confirmed', card_last4: '4242' });
  const passengers = await running.service.db.knex('booking_passengers').where({ booking_id: booking.id }).orderBy('position');
  t.deepEqual(
    passengers.map((passenger: { first_name: string; last_name: string }) => `${passenger.first_name} ${passenger.last_name}`),
    [`${ada!.firstName} ${ada!.lastName}`, `${charles!.firstName} ${charles!.lastName}`],
    'the saved travelers fly',
  );
  await page.close();
});

test.serial('a price that moved at the airline is shown old and new, and books only once the traveler accepts it', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession(undefined, 'priceChangedAtBooking');
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  const plain = { ...checkout, order: { ...checkout.order, seats: [], services: [] } };
  await bookInFrame(t, running, page, plain, { email: uniqueEmail('price'), stopAtPay: true });
  const frame = checkoutFrame(page);
  const notice = frame.getByRole('alert').filter({ hasText: 'The price has changed' });
  await notice.waitFor();
  t.regex((await notice.textContent()) ?? '', /512\.46 GBP.*550\.89 GBP/);
  t.true(await frame.getByRole('button', { name: /^Pay / }).isDisabled(), 'no paying before the new price is accepted');
  await checkoutFits(t, page, checkout, 'checkout-provider-b-price-changed');
  await frame.getByRole('button', { name: 'Accept the new price' }).click();
  await frame.getByRole('button', { name: 'Pay 550.89 GBP' }).click();
  await frame.getByRole('heading', { name: 'Your flight is booked' }).waitFor({ timeout: 60_000 });
  const booking = (await bookingsOfSession(running, checkout.id)).find((row) => row.status === 'confirmed');
  t.is(BigInt((await intentRecord(running, booking.payment_intent_id)).amount_received), 55089n);
  await page.close();
});

test.serial('a double click on Pay, then a reload of the partner’s page while it books: one booking, and the reloaded checkout shows it', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession();
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  await bookInFrame(t, running, page, checkout, {
    email: uniqueEmail('checkout-reload'),
    stopAtPay: true,
    pay: async (button) => {
      await button.dblclick();
      // The reload comes once the service has begun booking (its pay lease taken): sooner, on a loaded
      // machine, the reload aborted the request before its body had arrived, and nothing was booked.
      for (let wait = 0; wait < 100; wait++) {
        const row = await running.service.db.knex('checkout_sessions').where({ id: checkout.id }).first();
        if (row.booking_attempt > 0 || row.status !== 'open') break;
        await page.waitForTimeout(50);
      }
      await page.reload();
    },
  });
  // The reloaded checkout reads its session: booked (at once, or once the booking in flight completes).
  const frame = checkoutFrame(page);
  for (let attempt = 0; attempt < 20 && !(await frame.getByRole('heading', { name: 'Your flight is booked' }).isVisible()); attempt++) {
    await page.waitForTimeout(500);
    if (attempt % 4 === 3) await page.reload();
  }
  if (!(await frame.getByRole('heading', { name: 'Your flight is booked' }).isVisible())) {
    // What the service holds when the page does not show the booking yet: for a failure's report.
    t.log('session', JSON.stringify(await running.service.db.knex('checkout_sessions').where({ id: checkout.id }).first()));
    t.log('bookings', JSON.stringify((await bookingsOfSession(running, checkout.id)).map((row) => [row.id, row.status, row.lease_expires_at, row.updated_at])));
    t.log('warnings', logLines.filter((line) => /"level":(40|50|60)/.test(line)).slice(-10).join('\n'));
    t.log('frame', (await frame.locator('main').textContent())?.slice(0, 500));
  }
  await frame.getByRole('heading', { name: 'Your flight is booked' }).waitFor();
  const bookings = await bookingsOfSession(running, checkout.id);
  t.is(bookings.length, 1, 'one booking whatever the clicks and reloads');
  const read = await jsonOf(await fetch(`${running.url}/v1/checkout/sessions/${checkout.id}`, { headers: { 'x-api-key': partner.apiKey } }));
  t.like(read, { status: 'complete', booking_id: bookings[0].id });
  t.is((await frame.locator('#pnr').textContent())?.trim(), read.airline_pnr);
  t.is((await intentRecord(running, bookings[0].payment_intent_id)).status, 'succeeded', 'one charge, captured');
  await page.close();
});

test.serial('the checkout keeps no cookie and needs none: third-party cookies are blocked in its frame, and the service sets none', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession();
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  await checkoutFrame(page).getByRole('heading', { name: 'Your flight' }).waitFor();
  const kept = await checkoutFrameOf(page, checkout).evaluate('document.cookie = "probe=1; SameSite=None; Secure"; document.cookie');
  t.is(kept, '', 'the frame cannot keep a cookie: third-party cookies are blocked');
  const ours = toService.map((line) => JSON.parse(line) as { headers: Record<string, string> });
  t.true(ours.length > 0);
  t.true(ours.every((request) => !request.headers.cookie), 'no request to the service carried a cookie');
  t.deepEqual(await context.cookies(running.config.authUrl), [], 'and the service set none');
  await page.close();
});

test.serial('a page of another origin than the session’s cannot frame the checkout, and hears nothing from it', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession();
  const page = await newPage();
  await page.goto(strangerSite.pageFor(checkout.url));
  await page.waitForTimeout(1500);
  t.deepEqual(await messagesOf(page), []);
  const framed = page.frames().find((frame) => frame !== page.mainFrame());
  const text = framed ? await framed.evaluate('document.body ? document.body.innerText : ""').catch(() => '') : '';
  t.false(String(text).includes('Travel Partner checkout'), 'the checkout did not render in the stranger’s page');
  t.false(toService.some((line) => line.includes(`/checkout/${checkout.id}/api/`)), 'its script never ran: no call of its API');
  t.true(toService.some((line) => line.includes(`/checkout/${checkout.id}"`)), 'though the browser did ask for the page');
  await page.close();
});

test.serial('by keyboard alone: sign in, a passenger, a new card in the vault’s fields (an Amex), review and pay', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  // The London–New York fare: one adult, a passport needed, seats and a bag on sale (left for later here).
  const checkout = await partnerSession(undefined, 'nonRefundable');
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  const frame = checkoutFrame(page);
  await frame.getByRole('heading', { name: 'Your flight' }).waitFor();
  const inCheckout = () => checkoutFrameOf(page, checkout);
  const inVault = () => {
    const found = page.frames().find((candidate) => candidate.url().includes('/elements/card'));
    if (!found) throw new Error('no vault frame yet');
    return found;
  };
  const keys = page.keyboard;

  await tabTo(page, inCheckout, 'button.primary');
  await keys.press('Enter');
  await tabTo(page, inCheckout, '#email');
  const email = uniqueEmail('keyboard');
  await keys.type(email);
  await keys.press('Enter');
  await frame.getByRole('heading', { name: 'Enter your code' }).waitFor();
  t.true(await inCheckout().evaluate('document.activeElement?.id === "step-heading"'), 'each step’s heading takes the focus');
  await tabTo(page, inCheckout, '#code');
  await keys.type(await latestCode(running.url, email));
  await keys.press('Enter');

  await frame.getByRole('heading', { name: 'Passengers' }).waitFor();
  const passenger = checkout.order.passengers[0]!;
  await tabTo(page, inCheckout, '#p0-first');
  await keys.type(passenger.firstName);
  await keys.press('Tab');
  await keys.type(passenger.lastName);
  await tabTo(page, inCheckout, '#p0-born');
  const [year, month, day] = passenger.bornOn.split('-');
  await keys.type(`${month}${day}${year}`);
  await tabTo(page, inCheckout, '#p0-gender');
  await keys.type(passenger.gender === 'male' ? 'Male' : 'Female');
  await tabTo(page, inCheckout, '#p0-passport');
  await typeInTurn(page, ['533401372', 'GB', '05012034']);
  await tabTo(page, inCheckout, '#phone');
  await keys.type('+447700900123');
  await keys.press('Enter');

  await frame.getByRole('heading', { name: 'Seats' }).waitFor();
  await tabTo(page, inCheckout, 'button.primary');
  await keys.press('Enter');
  await frame.getByRole('heading', { name: 'Bags' }).waitFor();
  await tabTo(page, inCheckout, 'button.primary');
  await keys.press('Enter');

  await frame.getByRole('heading', { name: 'Payment' }).waitFor();
  await vaultFrame(page).locator('#number').waitFor();
  await tabTo(page, inVault, '#number');
  await typeInTurn(page, [AMEX.number, AMEX.expiry, AMEX.cvc]);
  await tabTo(page, inCheckout, '#save-card');
  await keys.press('Enter');

  await frame.getByRole('heading', { name: 'Review and pay' }).waitFor();
  const total = ((await frame.locator('#total').textContent()) ?? '').split(' ')[0] as string;
  await tabTo(page, inCheckout, '#pay');
  await keys.press('Enter');
  await frame.getByRole('heading', { name: 'Your flight is booked' }).waitFor({ timeout: 60_000 });

  const read = await jsonOf(await fetch(`${running.url}/v1/checkout/sessions/${checkout.id}`, { headers: { 'x-api-key': partner.apiKey } }));
  t.like(read, { status: 'complete', total_amount: total });
  const [booking] = await bookingsOfSession(running, checkout.id);
  t.like(booking, { status: 'confirmed', card_brand: 'amex', card_last4: '0005' });
  // Escape inside the frame asks the partner's page to close it.
  await keys.press('Escape');
  await page.waitForFunction('window.checkoutMessages.some((message) => message.type === "SVC_CHECKOUT_CLOSE_REQUESTED")');
  t.pass();
  await page.close();
});

test.serial('a flight sold out at the airline ends the checkout in place, and the partner’s page hears offer_unavailable', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession();
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  const soldOut = { ...checkout, order: { ...checkout.order, seats: [], services: [], passengers: checkout.order.passengers.map((passenger, index) => (index === 0 ? { ...passenger, lastName: 'SOLDOUT' } : passenger)) } };
  const frame = checkoutFrame(page);
  await bookInFrame(t, running, page, soldOut, { email: uniqueEmail('soldout'), stopAtPay: true });
  await frame.getByRole('heading', { name: 'This flight is no longer available' }).waitFor();
  await page.waitForFunction('window.checkoutMessages.some((message) => message.type === "SVC_BOOKING_FAILED")');
  t.like((await messagesOf(page)).find((message) => message.type === 'SVC_BOOKING_FAILED'), { reason: 'offer_unavailable' });
  t.deepEqual(
    (await messagesOf(page)).filter((message) => message.type === 'SVC_CHECKOUT_BUSY').map((message) => message.busy),
    [true, false],
    'busy while the failed pay request ran, then not',
  );
  t.is((await checkoutApi(running, checkout, 'session')).body.session.status, 'failed');
  await page.close();
});

test.serial('an expired checkout says so, and the partner’s page hears session_expired', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const checkout = await partnerSession();
  await running.service.db.knex('checkout_sessions').where({ id: checkout.id }).update({ expires_at: new Date(Date.now() - 1000) });
  const page = await newPage();
  await page.goto(partnerSite.pageFor(checkout.url));
  await checkoutFrame(page).getByRole('heading', { name: 'This checkout has expired' }).waitFor();
  await page.waitForFunction('window.checkoutMessages.some((message) => message.type === "SVC_BOOKING_FAILED")');
  t.deepEqual(await messagesOf(page), [{ type: 'SVC_CHECKOUT_READY' }, { type: 'SVC_BOOKING_FAILED', reason: 'session_expired' }]);
  await page.close();
});

test.serial('card numbers and security codes never reach the service: not its requests, its log or its database', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  t.true(toService.length > 20, 'the recording saw the checkout’s requests');
  t.true(
    toVault.some((line) => SECRETS[0]!.pattern.test(line.replace(/\s/g, ''))),
    'the recording does see card data where it goes: the vault',
  );
  for (const secret of SECRETS) {
    t.false(toService.some((line) => secret.pattern.test(line)), `${secret.name} in a request to the service`);
    t.false(logLines.some((line) => secret.pattern.test(line)), `${secret.name} in the service's log`);
  }
  const tables: { table_name: string }[] = (
    await running.service.db.knex.raw("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")
  ).rows;
  for (const { table_name: table } of tables) {
    const dump = JSON.stringify((await running.service.db.knex.raw('SELECT row_to_json(t)::text AS row FROM ?? t', [table])).rows);
    for (const secret of SECRETS) t.false(secret.pattern.test(dump), `${secret.name} in table ${table}`);
  }
});

test.after('no script errors on the pages', (t) => {
  t.deepEqual(
    pageErrors.filter((error) => !/Failed to load resource|frame-ancestors|Refused to frame/.test(error)),
    [],
  );
});
