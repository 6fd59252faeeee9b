/**
 * The hosted checkout in Chromium, as a traveler goes through it inside a partner's page: the partner's
 * page (on another site than the service) frames the session's URL and records the messages it gets; the
 * traveler fills each step from a booking-contract order (passengers with their passports where the offer
 * asks, the order's seats and bags), types a card into the vault's fields nested in the checkout, reviews
 * and pays.
 */
import http from 'node:http';
import type { ExecutionContext } from 'ava';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { latestCode } from './browser.js';
import { checkoutApi, type OpenedCheckout } from './checkout.js';
import { fitsEveryWidth, WIDTHS } from './layout.js';
import type { RunningService } from './service.js';

export interface PartnerPages {
  /** `http://localhost:<port>`: another site than the service's 127.0.0.1. */
  origin: string;
  /** The partner's page framing `url`, recording the messages of `messagesFrom`. */
  pageFor(url: string): string;
  close(): void;
}

/** A partner's web server: `/?src=<checkout url>` frames the checkout and keeps its messages in `window.checkoutMessages`. */
export async function partnerPages(port: number, messagesFrom: string): Promise<PartnerPages> {
  const server = http.createServer((request, response) => {
    const src = new URL(request.url ?? '/', 'http://localhost').searchParams.get('src') ?? '';
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Partner Air</title>
<style>body{margin:0}iframe{display:block;width:100%;height:100vh;border:0}</style>
<script>
window.checkoutMessages = [];
window.addEventListener('message', (event) => {
  if (event.origin === ${JSON.stringify(messagesFrom)}) window.checkoutMessages.push(event.data);
});
</script></head>
<body><iframe id="checkout" title="Checkout" src="${escapeAttribute(src)}"></iframe></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://localhost:${port}`;
  return {
    origin,
    pageFor: (url) => `${origin}/?src=${encodeURIComponent(url)}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface Card {
  number: string;
  expiry: string;
  cvc: string;
}

export const VISA: Card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
export const DECLINED: Card = { number: '4000 0000 0000 0002', expiry: '12/34', cvc: '123' };
export const AMEX: Card = { number: '3782 822463 10005', expiry: '11/33', cvc: '7319' };

export const checkoutFrame = (page: Page): FrameLocator => page.frameLocator('iframe#checkout');
export const vaultFrame = (page: Page): FrameLocator => checkoutFrame(page).frameLocator('iframe[title="Card details"]');

/** The messages the partner's page received from the checkout. */
export async function messagesOf(page: Page): Promise<{ type: string; [key: string]: unknown }[]> {
  return page.evaluate('window.checkoutMessages') as Promise<{ type: string }[]>;
}

/** The checkout's own frame (a Frame, for evaluating in it). */
export function checkoutFrameOf(page: Page, checkout: Pick<OpenedCheckout, 'id'>): Frame {
  const frame = page.frames().find((candidate) => candidate.url().includes(`/checkout/${checkout.id}`));
  if (!frame) throw new Error('the checkout frame is not there');
  return frame;
}

/**
 * At each width, nothing sticks out sideways inside the checkout's frame, nor on the page around it;
 * with SHOTS_DIR set, a screenshot of each width.
 */
export async function checkoutFits(t: ExecutionContext, page: Page, checkout: Pick<OpenedCheckout, 'id'>, name: string): Promise<void> {
  const height = page.viewportSize()?.height ?? 900;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height });
    const overflow = (await checkoutFrameOf(page, checkout).evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    t.is(overflow, 0, `${name}: nothing sticks out sideways inside the checkout at ${width} px`);
  }
  await fitsEveryWidth(t, page, name);
  await page.setViewportSize({ width: WIDTHS[0], height });
}

export interface Booked {
  total: string;
  pnr: string;
}

/**
 * Goes through every step of the checkout in the partner's page, as the order says: signs `email` in,
 * enters the passengers (with passports where asked), picks the order's seats and bags, adds `cards` in
 * the vault's fields (the first ones declined: the checkout asks for another), reviews and pays.
 */
export async function bookInFrame(
  t: ExecutionContext,
  running: RunningService,
  page: Page,
  checkout: OpenedCheckout,
  options: { email: string; cards?: Card[]; looks?: (step: string) => Promise<void>; /** Stop once Pay is pressed (an outcome other than a booking is expected). */ stopAtPay?: boolean; /** How Pay is pressed (a click by default). */ pay?: (button: Locator) => Promise<void>; /** Tick "save this traveler" for each new passenger. */ savePassengers?: boolean },
): Promise<Booked> {
  const frame = checkoutFrame(page);
  const looks = options.looks ?? (async () => undefined);
  const summary = (await checkoutApi(running, checkout, 'session')).body;
  await frame.getByRole('heading', { name: 'Your flight' }).waitFor();
  await looks('offer');
  await frame.getByRole('button', { name: 'Continue' }).click();

  await frame.getByLabel('E-mail address', { exact: true }).waitFor();
  await looks('sign-in');
  await frame.getByLabel('E-mail address', { exact: true }).fill(options.email);
  await frame.getByRole('button', { name: 'Send code' }).click();
  await frame.getByRole('heading', { name: 'Enter your code' }).waitFor();
  await looks('code');
  await frame.getByLabel('Code', { exact: true }).fill(await latestCode(running.url, options.email));
  await frame.getByRole('button', { name: 'Sign in' }).click();

  await frame.getByRole('heading', { name: 'Passengers' }).waitFor();
  for (const [index, passenger] of checkout.order.passengers.entries()) {
    const fieldset = frame.locator(`fieldset#p${index}`);
    await fieldset.getByLabel('First name', { exact: true }).fill(passenger.firstName);
    await fieldset.getByLabel('Last name', { exact: true }).fill(passenger.lastName);
    await fieldset.getByLabel('Date of birth', { exact: true }).fill(passenger.bornOn);
    await fieldset.getByLabel('Gender', { exact: true }).selectOption(passenger.gender ?? 'female');
    const document = passenger.identityDocuments[0] ?? { uniqueIdentifier: `P${index}4455667`, issuingCountryCode: 'GB', expiresOn: '2034-01-31' };
    if (summary.steps.documents) {
      await fieldset.getByLabel('Passport number', { exact: true }).fill(document.uniqueIdentifier);
      await fieldset.getByLabel('Passport issued by', { exact: true }).fill(document.issuingCountryCode);
      await fieldset.getByLabel('Passport expiry date', { exact: true }).fill(document.expiresOn);
    } else {
      t.false(await fieldset.getByLabel('Passport number', { exact: true }).isVisible(), 'no passport where the offer needs none');
    }
    if (options.savePassengers) await fieldset.getByLabel('Save this traveler to my account for next time', { exact: true }).check();
  }
  await frame.getByLabel('Phone number for the airline', { exact: true }).fill('+442080160508');
  await looks('passengers');
  await frame.getByRole('button', { name: 'Continue' }).click();

  if (summary.steps.seats) {
    await frame.getByRole('heading', { name: 'Seats' }).waitFor();
    for (const seat of checkout.order.seats) {
      const index = checkout.order.passengers.findIndex((passenger) => passenger.providerPassengerId === seat.providerPassengerId);
      await frame.locator(`#${`seat-${seat.segmentId}-${index}`.replace(/[^A-Za-z0-9_-]/g, '_')}`).selectOption(seat.seatNumber);
    }
    await looks('seats');
    await frame.getByRole('button', { name: 'Continue' }).click();
  }
  if (summary.steps.bags) {
    await frame.getByRole('heading', { name: 'Bags' }).waitFor();
    for (const service of checkout.order.services) {
      const index = (summary.offer.bags as { id: string }[]).findIndex((bag) => bag.id === service.id);
      await frame.locator(`#bag-${index}`).selectOption(String(service.quantity));
    }
    await looks('bags');
    await frame.getByRole('button', { name: 'Continue' }).click();
  }

  const cards = options.cards ?? [VISA];
  let total = '';
  for (const [index, card] of cards.entries()) {
    await frame.getByRole('heading', { name: 'Payment' }).waitFor();
    if (index > 0) await frame.getByRole('alert').filter({ hasText: 'declined' }).waitFor();
    await frame.getByLabel('A new card', { exact: true }).check();
    const fields = vaultFrame(page);
    await fields.locator('#number').fill(card.number);
    await fields.locator('#expiry').fill(card.expiry);
    await fields.locator('#cvc').fill(card.cvc);
    if (index === 0) await looks('card');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('heading', { name: 'Review and pay' }).waitFor();
    total = ((await frame.locator('#total').textContent()) ?? '').split(' ')[0] as string;
    if (index === 0) await looks('review');
    const payButton = frame.getByRole('button', { name: /^Pay / });
    await (options.pay ? options.pay(payButton) : payButton.click());
  }
  if (options.stopAtPay) return { total, pnr: '' };
  await frame.getByRole('heading', { name: 'Your flight is booked' }).waitFor({ timeout: 60_000 });
  await looks('done');
  return { total, pnr: ((await frame.locator('#pnr').textContent()) ?? '').trim() };
}

/** Presses Tab until `selector` has the focus in `frame` (the checkout's, or the vault's inside it). */
export async function tabTo(page: Page, frameOf: () => Frame, selector: string, most = 60): Promise<void> {
  for (let press = 0; press < most; press++) {
    // A string: this project's TypeScript has no DOM library.
    const there = await frameOf()
      .evaluate(`document.hasFocus() && Boolean(document.activeElement?.matches(${JSON.stringify(selector)}))`)
      .catch(() => false);
    if (there) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Types each value into the field that has the focus, then Tab to the next: a run of fields by keyboard. */
export async function typeInTurn(page: Page, values: string[]): Promise<void> {
  for (const [index, value] of values.entries()) {
    if (index > 0) await page.keyboard.press('Tab');
    await page.keyboard.type(value);
  }
}
