/**
 * The card-capture component in a real browser (headless Chromium): a traveler signs in through the
 * hosted pages on the way to the demo page, types test cards into the vault's frame and saves them, edits
 * an expiry (saved once, after the debounce), sets another card as default, deletes one, and hears in
 * words why a legacy card keeps no name. Card numbers and security codes never reach the service: not in
 * any request to its origin, not in its log, not in its database. The page hears of each action without
 * card data. A partner page on another port, listed in COMPONENT_ORIGINS, embeds the component with the
 * traveler's cookie; a page not listed is refused.
 */
import http from 'node:http';
import { Writable } from 'node:stream';
import test from 'ava';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { createLogger } from '../core/logger.js';
import { latestCode } from './helpers/browser.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { uniqueEmail } from './helpers/oauth.js';
import { freePort, startService, type RunningService } from './helpers/service.js';

const VISA = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
/**
 * The security code checked for everywhere is the American Express card's, four digits (7319), matched
 * as a whole value only: not inside a longer run of letters, digits or dashes. A three-digit code, or a
 * match anywhere, would also be found by chance inside UUIDs, hex ids and timestamps, and make the test
 * flaky; four digits standing alone do not occur in what the service writes.
 */
const AMEX = { number: '3782 822463 10005', expiry: '11/33', cvc: '7319' };
const SECRETS = [
  { name: 'Visa number', pattern: /4242\s?4242\s?4242\s?4242/ },
  { name: 'Amex number', pattern: /3782\s?822463\s?10005/ },
  { name: 'Amex security code', pattern: /(?<![0-9A-Za-z-])7319(?![0-9A-Za-z-])/ },
];

let running: RunningService;
let browser: Browser | undefined;
let context: BrowserContext;
let page: Page;
const logLines: string[] = [];
/** Every request the browser sent to the service's own origin. */
const toService: string[] = [];
/** And to the vault's: where the card does go (which shows the recording sees card data when there is some). */
const toVault: string[] = [];
const pageErrors: string[] = [];
const partnerPort = await freePort();
const strangerPort = await freePort();
const partnerServers: http.Server[] = [];
let travelerEmail = '';

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
  running = await startService({ COMPONENT_ORIGINS: `http://127.0.0.1:${partnerPort}` }, { logger });
  for (const port of [partnerPort, strangerPort]) partnerServers.push(await partnerPage(port));
  browser = await launchChromium();
  if (!browser) return;
  context = await browser.newContext();
  page = await context.newPage();
  page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
  context.on('request', (request) => void recordIfOurs(request));
});
test.after.always(async () => {
  await browser?.close();
  for (const server of partnerServers) {
    server.closeAllConnections();
    server.close();
  }
  await running?.close();
});

async function recordIfOurs(request: Request): Promise<void> {
  const origin = new URL(request.url()).origin;
  const into = origin === running.url ? toService : origin === new URL(running.config.vault?.url ?? 'http://vault.invalid').origin ? toVault : undefined;
  if (!into) return;
  const headers = await request.allHeaders().catch(() => request.headers());
  into.push(JSON.stringify({ url: request.url(), method: request.method(), headers, body: request.postData() }));
}

/** A partner's page on another port of the same host (same site, so the Lax session cookie goes along). */
async function partnerPage(port: number): Promise<http.Server> {
  const server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><title>Partner</title>
<script type="module" src="${running.url}/components/card-capture.js"></script>
<h1>Checkout</h1><card-capture user-id="me"></card-capture>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const component = () => page.locator('card-capture');
const vaultFrame = () => page.frameLocator('card-capture iframe');

async function addCard(card: { number: string; expiry: string; cvc: string }, listed: string): Promise<void> {
  await component().getByRole('button', { name: 'Add a card' }).click();
  const frame = vaultFrame();
  await frame.locator('#number').fill(card.number);
  await frame.locator('#expiry').fill(card.expiry);
  await frame.locator('#cvc').fill(card.cvc);
  // Enabled once the frame says it is ready: click() waits for that.
  await component().getByRole('button', { name: 'Save card' }).click();
  await component().getByText(listed).waitFor();
}

interface Reported {
  action: string;
  properties: Record<string, unknown>;
}

const reported = () => page.evaluate(() => (globalThis as unknown as { cardCaptureEvents: Reported[] }).cardCaptureEvents);

test.serial('a traveler signs in on the way to the demo page and saves two cards through the vault’s frame', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const email = uniqueEmail('cards');
  travelerEmail = email;
  await page.goto(`${running.url}/demo/cards`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await latestCode(running.url, email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${running.url}/demo/cards`);
  await component().getByText('You have no saved cards yet').waitFor();

  await addCard(VISA, 'Visa ending in 4242, expires 12/34');
  await addCard(AMEX, 'American Express ending in 0005, expires 11/33');
  const userId = (await running.service.db.knex('users').where({ email }).first()).id as string;
  const rows = await running.service.db.knex('payment_methods').where({ user_id: userId }).orderBy('created_at');
  t.deepEqual(
    rows.map((row) => [row.brand, row.last4, row.is_default]),
    [
      ['visa', '4242', true],
      ['amex', '0005', false],
    ],
  );
  // The card saved last is the selected one, and the page can read it.
  t.is(await component().evaluate((element) => (element as unknown as { selectedPaymentMethodId: string }).selectedPaymentMethodId), rows[1].id);
  t.is(await page.locator('#selected').textContent(), rows[1].id);
  t.deepEqual(pageErrors, []);
});

test.serial('an expiry typed key by key is saved once, 1200 ms after the last keystroke', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  await component().getByText('Visa ending in 4242').click();
  const puts: { at: number; body: unknown }[] = [];
  const listener = (request: Request) => {
    if (request.method() === 'PUT') puts.push({ at: Date.now(), body: request.postDataJSON() });
  };
  page.on('request', listener);
  const expiry = component().getByLabel('Expiry date (MM/YY)');
  // The time of the last keystroke, as the page saw it (Date.now is the same clock here and there).
  await expiry.evaluate((input) => input.addEventListener('input', () => ((globalThis as unknown as { lastKey: number }).lastKey = Date.now())));
  await expiry.fill('');
  await expiry.pressSequentially('01/31', { delay: 150 });
  await component().getByText('Saved', { exact: true }).waitFor();
  await page.waitForTimeout(1500);
  page.off('request', listener);
  const lastKey = await page.evaluate(() => (globalThis as unknown as { lastKey: number }).lastKey);
  t.is(puts.length, 1, 'one save for all the keystrokes');
  t.deepEqual(puts[0]?.body, { expMonth: 1, expYear: 2031 });
  t.true((puts[0]?.at ?? 0) - lastKey >= 1200, `saved ${(puts[0]?.at ?? 0) - lastKey} ms after the last keystroke`);
  await component().getByText('Visa ending in 4242, expires 01/31').waitFor();
});

test.serial('another card becomes the default, and a card is deleted', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  await component().getByText('American Express ending in 0005').click();
  await component().getByRole('button', { name: 'Set as default' }).click();
  await component().getByText('This card is now your default.').waitFor();
  const amexLabel = component().locator('label.card', { hasText: 'American Express' });
  t.is(await amexLabel.locator('.badge').textContent(), 'Default');
  t.is(await component().locator('label.card', { hasText: 'Visa' }).locator('.badge').count(), 0);

  await component().getByText('Visa ending in 4242').click();
  await component().getByRole('button', { name: 'Delete card' }).click();
  await component().getByRole('button', { name: 'Yes, delete it' }).click();
  await component().getByText('The card was deleted.').waitFor();
  t.is(await component().locator('label.card').count(), 1);
  // The default card is chosen again on its own.
  t.true(await amexLabel.locator('input').isChecked());
  t.deepEqual(pageErrors, []);
});

test.serial('the page hears of every action, with counts, booleans and field names only', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const events = await reported();
  const actions = events.map((event) => event.action);
  for (const action of ['added', 'selected', 'edited', 'set_default', 'deleted', 'autoselected']) t.true(actions.includes(action), action);
  t.deepEqual(events.find((event) => event.action === 'edited')?.properties, { fields: ['expMonth', 'expYear'] });
  t.like(events.find((event) => event.action === 'deleted')?.properties, { cardCount: 1, wasDefault: false });
  const ids = (await running.service.db.knex('payment_methods').select('id')).map((row) => row.id as string);
  for (const event of events) {
    for (const [key, value] of Object.entries(event.properties)) {
      const harmless = typeof value === 'number' || typeof value === 'boolean' || (Array.isArray(value) && value.every((field) => ['expMonth', 'expYear', 'cardholderName', 'zip', 'isDefault'].includes(field)));
      t.true(harmless, `${event.action}.${key} = ${JSON.stringify(value)}`);
    }
    const text = JSON.stringify(event);
    for (const data of ['4242', '0005', 'visa', 'amex', '2031', '2033', ...ids]) t.false(text.toLowerCase().includes(data), `${event.action} carries ${data}`);
  }
});

test.serial('neither card number nor security code reached the service: requests, log, database', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  t.true(toService.length > 10, 'the requests to the service were recorded');
  t.true(logLines.length > 10, 'the service’s log was captured');
  for (const secret of SECRETS) t.truthy(toVault.find((text) => secret.pattern.test(text)), `${secret.name} went to the vault`);
  const knex = running.service.db.knex;
  const tables = (await knex('pg_tables').where({ schemaname: 'public' }).select('tablename')).map((row) => row.tablename as string);
  t.true(tables.includes('payment_methods'));
  const dump: string[] = [];
  for (const table of tables) dump.push(`${table}: ${JSON.stringify(await knex(table).select('*'))}`);
  for (const [where, texts] of [['requests to the service', toService], ['service log', logLines], ['database', dump]] as const) {
    for (const secret of SECRETS) {
      const found = texts.find((text) => secret.pattern.test(text));
      t.is(found, undefined, `${secret.name} in the ${where}`);
    }
  }
});

test.serial('a partner page of a listed origin lists the traveler’s cards; a page not listed is refused', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const partner = await context.newPage();
  await partner.goto(`http://127.0.0.1:${partnerPort}/`);
  await partner.locator('card-capture').getByText('American Express ending in 0005, expires 11/33').waitFor();
  t.true(await partner.locator('card-capture').getByRole('radio').first().isChecked());

  const stranger = await context.newPage();
  await stranger.goto(`http://127.0.0.1:${strangerPort}/`);
  const alert = stranger.locator('card-capture').getByRole('alert');
  await alert.waitFor();
  t.regex((await alert.textContent()) ?? '', /We couldn't load your saved cards/);
  t.is(await stranger.locator('card-capture').getByRole('radio').count(), 0);
  await partner.close();
  await stranger.close();
});

test.serial('a name on a legacy card is refused in words, and its name and ZIP fields are then turned off', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  await running.service.paymentMethods.importLegacy({ user: travelerEmail, brand: 'mastercard', last4: '4444', expMonth: 6, expYear: 2032 });
  await page.reload();
  await component().getByText('Mastercard ending in 4444').click();
  await component().getByLabel('Name on card').fill('Ada Lovelace');
  const alert = component().getByRole('alert');
  await alert.waitFor();
  t.regex((await alert.textContent()) ?? '', /saved before names and billing ZIP codes were kept.*add the card again/);
  t.true(await component().getByLabel('Name on card').isDisabled());
  t.true(await component().getByLabel('Billing ZIP code').isDisabled());
  // The expiry of a legacy card still changes.
  const expiry = component().getByLabel('Expiry date (MM/YY)');
  await expiry.fill('07/32');
  await component().getByText('Saved', { exact: true }).waitFor();
  await component().getByText('Mastercard ending in 4444, expires 07/32').waitFor();
  const events = await reported();
  t.deepEqual(events.at(-1), { action: 'edited', properties: { fields: ['expMonth'] } });
});
