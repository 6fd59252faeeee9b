/**
 * The vault's expiry field in a real browser (headless Chromium) takes what people type: `12/30`, `1230`,
 * `12 / 30`, a pasted `12/2030`, and editing over the slash (`12/3`, two Backspaces, `/30`). Each is
 * typed key by key into the vault's frame on the demo page and saved, and the saved card's expiry is
 * read back from the database. What cannot be an expiry (`13/30`, a past month) is refused in words,
 * tied to the field. With SHOTS_DIR set, it also takes screenshots of the field (empty, filled, error)
 * at 1280 and 375 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { latestCode } from './helpers/browser.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { uniqueEmail } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let browser: Browser | undefined;
let context: BrowserContext;
let page: Page;
let userId = '';
const pageErrors: string[] = [];

test.before(async () => {
  running = await startService();
  browser = await launchChromium();
  if (!browser) return;
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: running.url });
  page = await context.newPage();
  page.on('console', (message) => message.type() === 'error' && pageErrors.push(message.text()));
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const email = uniqueEmail('expiry');
  await page.goto(`${running.url}/demo/cards`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await latestCode(running.url, email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${running.url}/demo/cards`);
  await page.locator('card-capture').getByText('You have no saved cards yet').waitFor();
  userId = (await running.service.db.knex('users').where({ email }).first()).id as string;
});
test.after.always(async () => {
  await browser?.close();
  await running?.close();
});

const component = () => page.locator('card-capture');
const vaultFrame = (): FrameLocator => page.frameLocator('card-capture iframe');

async function openForm(): Promise<FrameLocator> {
  // A form left open (by a test that failed half-way) is closed first.
  const cancel = component().getByRole('button', { name: 'Cancel' });
  if (await cancel.isVisible()) await cancel.click();
  await component().getByRole('button', { name: 'Add a card' }).click();
  const frame = vaultFrame();
  await frame.locator('#number').waitFor();
  return frame;
}

async function saveAndRead(frame: FrameLocator, number: string, cvc: string, last4: string) {
  await frame.locator('#number').fill(number);
  await frame.locator('#cvc').fill(cvc);
  await component().getByRole('button', { name: 'Save card' }).click();
  await component().getByText(new RegExp(`ending in ${last4}, expires`)).waitFor();
  return running.service.db.knex('payment_methods').where({ user_id: userId, last4 }).first();
}

/** Pastes `text` into the focused field with the keyboard, as a traveler would (a real paste event). */
async function paste(frame: FrameLocator, text: string): Promise<void> {
  await page.evaluate((value) => (globalThis as unknown as { navigator: { clipboard: { writeText(text: string): Promise<void> } } }).navigator.clipboard.writeText(value), text);
  await frame.locator('#expiry').focus();
  await page.keyboard.press('ControlOrMeta+V');
}

const FORMS: { name: string; last4: string; number: string; cvc: string; enter: (frame: FrameLocator) => Promise<void> }[] = [
  { name: '12/30 typed with its slash', last4: '4242', number: '4242 4242 4242 4242', cvc: '123', enter: (frame) => frame.locator('#expiry').pressSequentially('12/30', { delay: 30 }) },
  { name: '1230 typed without a slash', last4: '4444', number: '5555 5555 5555 4444', cvc: '123', enter: (frame) => frame.locator('#expiry').pressSequentially('1230', { delay: 30 }) },
  { name: '12 / 30 typed with spaces', last4: '1117', number: '6011 1111 1111 1117', cvc: '123', enter: (frame) => frame.locator('#expiry').pressSequentially('12 / 30', { delay: 30 }) },
  { name: '12/2030 pasted', last4: '0005', number: '3782 822463 10005', cvc: '4321', enter: (frame) => paste(frame, '12/2030') },
  {
    name: '12/3, two Backspaces over the slash, then /30',
    last4: '0002',
    number: '4000 0000 0000 0002',
    cvc: '123',
    enter: async (frame) => {
      const expiry = frame.locator('#expiry');
      await expiry.pressSequentially('12/3', { delay: 30 });
      await expiry.press('Backspace');
      await expiry.press('Backspace');
      await expiry.pressSequentially('/30', { delay: 30 });
    },
  },
];

for (const form of FORMS) {
  test.serial(`the expiry ${form.name} shows as 12/30 and saves December 2030`, async (t) => {
    if (!browser) return t.fail(CHROMIUM_MISSING);
    const frame = await openForm();
    await form.enter(frame);
    t.is(await frame.locator('#expiry').inputValue(), '12/30');
    const row = await saveAndRead(frame, form.number, form.cvc, form.last4);
    t.truthy(row, 'the card was saved');
    t.is(row?.exp_month, 12);
    t.is(row?.exp_year, 2030);
    t.deepEqual(pageErrors, []);
  });
}

test.serial('backspace right after the slash put in for the traveler does not trap the caret', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const frame = await openForm();
  const expiry = frame.locator('#expiry');
  await expiry.pressSequentially('12', { delay: 30 });
  t.is(await expiry.inputValue(), '12/');
  await expiry.press('Backspace');
  t.not(await expiry.inputValue(), '12/', 'the slash goes');
  await expiry.press('Backspace');
  await expiry.press('Backspace');
  t.is(await expiry.inputValue(), '');
  await component().getByRole('button', { name: 'Cancel' }).click();
});

function lastMonth(): { month: number; year: number } {
  const now = new Date();
  return now.getMonth() === 0 ? { month: 12, year: now.getFullYear() - 1 } : { month: now.getMonth(), year: now.getFullYear() };
}

test.serial('what cannot be an expiry is refused in words tied to the field, and nothing is saved', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const before = await running.service.db.knex('payment_methods').where({ user_id: userId }).count({ n: '*' }).first();
  const past = lastMonth();
  const pastText = `${String(past.month).padStart(2, '0')}${String(past.year % 100).padStart(2, '0')}`;
  const cases = [
    { typed: '1330', message: /month.*01.*12/i },
    { typed: pastText, message: /expired/i },
  ];
  const frame = await openForm();
  for (const { typed, message } of cases) {
    const expiry = frame.locator('#expiry');
    await expiry.fill('');
    await frame.locator('#number').fill('4242 4242 4242 4242');
    await expiry.pressSequentially(typed, { delay: 30 });
    await frame.locator('#cvc').fill('123');
    await component().getByRole('button', { name: 'Save card' }).click();
    await t.notThrowsAsync(frame.locator('#expiry[aria-invalid="true"]').waitFor({ timeout: 5000 }), typed);
    const describedBy = (await expiry.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(/\s+/).find((id) => id.endsWith('error')) ?? '';
    const error = (await frame.locator(`#${errorId}`).textContent()) ?? '';
    t.regex(error, message, typed);
    // The field's accessible description carries the message.
    t.regex(await expiry.evaluate((input) => input.getAttribute('aria-describedby') ?? ''), /expiry-error/);
  }
  const after = await running.service.db.knex('payment_methods').where({ user_id: userId }).count({ n: '*' }).first();
  t.is(Number(after?.n), Number(before?.n));
  t.deepEqual(pageErrors, []);
  await component().getByRole('button', { name: 'Cancel' }).click();
});

test.serial('the field is labelled, numeric, autocompleted as cc-exp', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const frame = await openForm();
  const expiry = frame.getByLabel(/Expiry date/);
  t.is(await expiry.getAttribute('autocomplete'), 'cc-exp');
  t.is(await expiry.getAttribute('inputmode'), 'numeric');
  t.regex((await expiry.getAttribute('aria-describedby')) ?? '', /expiry-error/);
  await component().getByRole('button', { name: 'Cancel' }).click();
});

const SHOTS = process.env.SHOTS_DIR;
(SHOTS ? test.serial : test.serial.skip)('screenshots of the card field: empty, filled, error, at 1280 and 375 px', async (t) => {
  if (!browser || !SHOTS) return t.fail(CHROMIUM_MISSING);
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 375]) {
    // Tall enough that the vault's frame (another process) is painted where the screenshot is taken.
    await page.setViewportSize({ width, height: 2400 });
    const frame = await openForm();
    const shot = (name: string) => component().locator('iframe').screenshot({ path: path.join(SHOTS, `card-field-${width}-${name}.png`) });
    await shot('empty');
    await frame.locator('#number').fill('4242 4242 4242 4242');
    await frame.locator('#expiry').pressSequentially('12 / 30', { delay: 20 });
    await frame.locator('#cvc').fill('123');
    await shot('filled');
    await frame.locator('#expiry').fill('');
    await frame.locator('#expiry').pressSequentially('1330', { delay: 20 });
    await component().getByRole('button', { name: 'Save card' }).click();
    await frame.locator('#expiry[aria-invalid="true"]').waitFor();
    await shot('error');
    await component().getByRole('button', { name: 'Cancel' }).click();
  }
  t.pass();
});
