/**
 * The recognition surface end to end in a real browser (headless Chromium) on the sandbox's demo airline,
 * another origin than the service (another port of 127.0.0.1: same site, decisions §11): signed out, the
 * chip is `anonymous`; its sign-in leads through our sign-in and consent pages back to the airline's page,
 * which is then `recognized`, gets a token and has its backend resolve it to the traveler's claims; a
 * replay of the token is 404 `unknown_token`; the chip's sign-out makes it `anonymous` again; a frame that
 * never boots reports `frame_timeout`. No console errors (a CSP violation would show there). At 1280 and
 * 375 px, anonymous and recognized, the chip's content fits its iframe and the chip covers none of the
 * page's text (screenshots in SHOTS_DIR when it is set, to look at).
 */
import fs from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { latestCode } from './helpers/browser.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const DEMO_CLIENT_ID = 'sandbox-demo-airline';
const SHOTS_DIR = process.env.SHOTS_DIR;
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

let running: RunningService;
let browser: Browser | undefined;
let demoUrl: string;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  demoUrl = `${running.config.demoAirline?.url}/`;
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  await running?.close();
});

/** The demo page's window, as the functions run in it see it (this project compiles without the DOM types). */
interface DemoWindow {
  document: { getElementById(id: string): { textContent: string | null } | null };
  demoAirline: { lastToken?: string; lastResolve?: Resolved; resolve(token: string): Promise<Resolved> };
}
interface Resolved {
  status: number;
  body: Record<string, unknown>;
}

async function stateIs(page: Page, state: string): Promise<void> {
  // Functions, not strings: the page's CSP forbids eval.
  await page.waitForFunction((expected) => (globalThis as unknown as DemoWindow).document.getElementById('state')?.textContent === expected, state, { timeout: 15_000 });
}

test('signed out → anonymous; sign in and consent → recognized, token resolved by the airline’s backend; replay 404; sign-out → anonymous', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  t.timeout(90_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  // The backend's 404s (a replay) show as failed loads of /api/recognize: their statuses are checked below.
  page.on('console', (message) => message.type() === 'error' && !message.location().url.endsWith('/api/recognize') && errors.push(`${message.text()} ${message.location().url}`));

  await page.goto(demoUrl);
  await stateIs(page, 'anonymous');
  t.is(new URL(page.url()).origin, new URL(demoUrl).origin);
  await chipFitsAndCoversNothing(t, page, 'anonymous');

  const email = uniqueEmail('recognition');
  await page.frameLocator('travel-partner-recognition iframe').getByRole('button', { name: 'Sign in with Travel Partner' }).click();
  await page.waitForURL((url) => url.origin === new URL(running.config.authUrl).origin);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await latestCode(running.url, email));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Allow access' }).waitFor();
  const userId = ((await running.service.db.knex('users').where({ email }).first('id')) as { id: string }).id;
  await running.service.db.knex('users').where({ id: userId }).update({ first_name: 'Amelia', last_name: 'Hart' });
  await page.getByRole('button', { name: 'Allow' }).click();

  await page.waitForURL((url) => url.href.startsWith(demoUrl));
  await stateIs(page, 'recognized');
  const landed = new URL(page.url());
  t.is(landed.searchParams.get('code'), null, 'the component took the code out of the URL');
  t.is(landed.searchParams.get('state'), null);
  const chipText = await page.frameLocator('travel-partner-recognition iframe').locator('body').textContent();
  t.regex(chipText ?? '', /Recognized by Travel Partner as Amelia/);
  // What resolve discloses for the scopes granted below (profile, preferences, loyalty), nothing less.
  t.regex(
    chipText ?? '',
    /Demo Air receives from us: your name, e-mail and phone number; your travel preferences \(seat, bags, meals, assistance needs\) and your language, region and currency; the loyalty memberships it linked to you\./,
  );
  t.false((chipText ?? '').includes('only that you'));
  await chipFitsAndCoversNothing(t, page, 'recognized');

  await page.waitForFunction(() => (globalThis as unknown as DemoWindow).demoAirline.lastToken !== undefined);
  const token = (await page.evaluate(() => (globalThis as unknown as DemoWindow).demoAirline.lastToken)) as string;
  t.regex(token, /^[A-Za-z0-9_-]{22}$/);
  const row = await running.service.db.knex('recognition_tokens').where({ user_id: userId, client_id: DEMO_CLIENT_ID }).orderBy('created_at', 'desc').first();
  t.truthy(row, 'a token for the traveler and the demo airline was minted');
  t.true(await logShows(page, 'token:'), 'onToken fired');
  // What the airline's backend answered (POST /v1/identity/resolve, Basic credentials): checked below.
  await page.waitForFunction(() => (globalThis as unknown as DemoWindow).demoAirline.lastResolve !== undefined);
  const resolved = (await page.evaluate(() => (globalThis as unknown as DemoWindow).demoAirline.lastResolve)) as Resolved;
  const welcome = await page.textContent('#welcome');

  await page.frameLocator('travel-partner-recognition iframe').getByRole('button', { name: 'Not you? Sign out' }).click();
  await stateIs(page, 'anonymous');
  t.is(await page.textContent('#welcome'), 'Welcome to Demo Air');
  const frameState = await page.frameLocator('travel-partner-recognition iframe').locator('body').getAttribute('data-state');
  t.is(frameState, 'anonymous');
  t.deepEqual(errors, [], 'no console errors');

  // What the backend resolved while the chip was recognized, then a replay of the same token.
  const replay = await page.evaluate((used) => (globalThis as unknown as DemoWindow).demoAirline.resolve(used), token);
  t.is(replay.status, 404);
  t.is(replay.body.error, 'unknown_token', JSON.stringify(replay));
  t.is(resolved.status, 200, JSON.stringify(resolved));
  t.like(resolved.body, { status: 'active', profile: { first_name: 'Amelia', last_name: 'Hart', email } });
  // What the chip's sign-in asked for and the consent page granted; nothing set yet, nothing linked yet.
  t.deepEqual(resolved.body.granted_scopes, ['profile.read', 'preferences.read', 'loyalty.read']);
  t.is(resolved.body.preferences, undefined);
  t.is(resolved.body.loyalty, undefined);
  t.regex(String(resolved.body.guid), /^[0-9a-f-]{36}$/);
  t.false(JSON.stringify(resolved.body).includes(userId), 'no user id');
  t.is(welcome, 'Welcome back, Amelia');
  await context.close();
});

test('a frame that never boots reports frame_timeout after readyTimeoutMs, and the state stays none', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const page = await browser.newPage();
  await page.goto(`${demoUrl}?frame=broken&ready_timeout_ms=500`);
  await page.waitForFunction(() => (globalThis as unknown as DemoWindow).document.getElementById('log')?.textContent?.includes('frame_timeout'), undefined, { timeout: 10_000 });
  t.is(await page.textContent('#state'), 'none');
  t.true(await logShows(page, 'error: frame_timeout'));
  await page.close();
});

test('the demo airline page is served on its own origin, and the landing page links to it', async (t) => {
  const response = await fetch(demoUrl);
  t.is(response.status, 200);
  const csp = response.headers.get('content-security-policy') ?? '';
  t.regex(csp, new RegExp(`frame-src 'self' ${new URL(running.config.authUrl).origin}`));
  t.not(new URL(demoUrl).origin, new URL(running.url).origin);
  const landing = await (await fetch(`${running.url}/`, { headers: { accept: 'text/html' } })).text();
  t.true(landing.includes(`href="${demoUrl}"`), 'the landing page links to Demo Air');
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** The frame's document, as the functions run in it see it. */
interface FrameWindow {
  document: {
    documentElement: { scrollWidth: number; scrollHeight: number };
    querySelectorAll(selectors: string): Iterable<{ getBoundingClientRect(): { top: number; left: number; right: number; bottom: number } }>;
  };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * At each width: the chip's content (the frame document's scroll size) is no larger than its iframe's box,
 * and the iframe's box does not meet the page's main text; a screenshot of each for a person to look at.
 */
async function chipFitsAndCoversNothing(t: ExecutionContext, page: Page, state: string): Promise<void> {
  if (SHOTS_DIR) fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const iframe = page.locator('travel-partner-recognition iframe');
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    const measure = async () => {
      const frame = await (await iframe.elementHandle())?.contentFrame();
      // The document's scroll size, and the box around everything in it: content pushed out above or
      // centred past the edges does not show in scroll sizes.
      const content = await frame?.evaluate(() => {
        const { document } = globalThis as unknown as FrameWindow;
        const root = document.documentElement;
        const boxes = [...document.querySelectorAll('body, body *')].map((element) => element.getBoundingClientRect());
        return {
          width: Math.ceil(Math.max(root.scrollWidth, ...boxes.map((box) => box.right))),
          height: Math.ceil(Math.max(root.scrollHeight, ...boxes.map((box) => box.bottom))),
          top: Math.floor(Math.min(...boxes.map((box) => box.top))),
          left: Math.floor(Math.min(...boxes.map((box) => box.left))),
        };
      });
      const pageWidth = await page.evaluate(() => (globalThis as unknown as FrameWindow).document.documentElement.scrollWidth);
      return { chip: await iframe.boundingBox(), main: await page.locator('main').boundingBox(), content, pageWidth };
    };
    // The frame posts its height after layout, and the page makes room once the chip has its size.
    let seen = await measure();
    for (let tries = 0; tries < 40; tries++) {
      await page.waitForTimeout(50);
      const next = await measure();
      const same = JSON.stringify(next) === JSON.stringify(seen);
      seen = next;
      if (same && tries > 2) break;
    }
    const { chip, main, content, pageWidth } = seen;
    const where = `${state} at ${viewport.width}px: ${JSON.stringify(seen)}`;
    if (!chip || !main || !content) {
      t.fail(`nothing to measure, ${where}`);
      continue;
    }
    t.true(content.height <= Math.round(chip.height), `the chip's content is not taller than its frame, ${where}`);
    t.true(content.width <= Math.round(chip.width), `the chip's content is not wider than its frame, ${where}`);
    t.true(content.top >= 0 && content.left >= 0, `nothing of the chip is pushed out above or left of its frame, ${where}`);
    t.true(chip.x >= 0 && chip.x + chip.width <= viewport.width, `the chip is within the page's width, ${where}`);
    t.false(overlaps(chip, main), `the chip covers none of the main text, ${where}`);
    t.true(pageWidth <= viewport.width && main.x + main.width <= viewport.width, `the page's room for the chip does not push its text off the screen, ${where}`);
    if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/demo-air-${state}-${viewport.width}.png` });
  }
  await page.setViewportSize(WIDTHS[0]);
}

async function logShows(page: Page, text: string): Promise<boolean> {
  return ((await page.textContent('#log')) ?? '').includes(text);
}
