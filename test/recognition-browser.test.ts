/**
 * The recognition surface end to end in a real browser (headless Chromium) on the sandbox's demo airline,
 * another origin than the service (another port of 127.0.0.1: same site, decisions §11): signed out, the
 * chip is `anonymous`; its sign-in leads through our sign-in and consent pages back to the airline's page,
 * which is then `recognized`, gets a token and has its backend resolve it to the traveler's claims; a
 * replay of the token is 404 `unknown_token`; the chip's sign-out makes it `anonymous` again; a frame that
 * never boots reports `frame_timeout`. No console errors (a CSP violation would show there).
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { latestCode } from './helpers/browser.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { uniqueEmail } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const DEMO_CLIENT_ID = 'sandbox-demo-airline';

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
  t.regex(chipText ?? '', /Demo Air was told only that you are a returning traveler who allowed it/);

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

async function logShows(page: Page, text: string): Promise<boolean> {
  return ((await page.textContent('#log')) ?? '').includes(text);
}
