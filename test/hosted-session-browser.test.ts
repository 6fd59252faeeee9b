/**
 * The first-party session of the hosted pages, in a real browser (headless Chromium): a traveler who is
 * not signed in reaches the Connected apps page through the sign-in pages; a browser holding one
 * traveler's session signs another one in (`prompt=login`, or "Not you?" on the consent page) and the
 * code is the new traveler's; the Connected apps page signs out.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { latestCode } from './helpers/browser.js';
import { CHROMIUM_MISSING, clientCallback, launchChromium } from './helpers/chromium.js';
import { oauth, registerPublicClient, startAuthorization, uniqueEmail, userIdOf } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let browser: Browser | undefined;
let callback: Awaited<ReturnType<typeof clientCallback>>;
let callbackUrl: string;

test.before(async () => {
  running = await startService();
  callback = await clientCallback();
  callbackUrl = callback.url;
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  callback?.close();
  await running?.close();
});

/** A fresh browser profile (no cookies), collecting console errors (CSP violations show there). */
async function freshPage(chromium: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await chromium.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { page, errors };
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill(await latestCode(running.url, email));
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Runs an authorization of `agent` in `page` as far as the client's redirect; returns the code's traveler. */
async function authorizeIn(page: Page, agent: oauth.Configuration, steps: (page: Page) => Promise<void>, extra: Record<string, string> = {}): Promise<string> {
  const authorization = await startAuthorization(agent, callbackUrl, 'profile.read', extra);
  await page.goto(authorization.url.href);
  await steps(page);
  await page.waitForURL((url) => url.href.startsWith(callbackUrl));
  const tokens = await oauth.authorizationCodeGrant(agent, new URL(page.url()), { pkceCodeVerifier: authorization.verifier, expectedState: authorization.state });
  return userIdOf(tokens.access_token);
}

const allow = (page: Page) => page.getByRole('button', { name: 'Allow' }).click();

test.serial('a traveler who is not signed in reaches the Connected apps page through the sign-in pages', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const { page, errors } = await freshPage(browser);
  const email = uniqueEmail('apps');
  await page.goto(`${running.url}/account/apps`);
  await signIn(page, email);
  await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
  t.is(new URL(page.url()).pathname, '/account/apps');
  t.true((await page.textContent('main'))?.includes(email));
  t.deepEqual(errors, []);
  await page.context().close();
});

test.serial('prompt=login in a browser holding another traveler’s session signs the new traveler in, and the code is theirs', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const { page, errors } = await freshPage(browser);
  const agent = await registerPublicClient(running, callbackUrl);
  const [ada, bob] = [uniqueEmail('ada'), uniqueEmail('bob')];
  const adaId = await authorizeIn(page, agent, async () => {
    await signIn(page, ada);
    await allow(page);
  });

  // The same browser, a new authorization that asks for a fresh sign-in: Bob signs in.
  const bobId = await authorizeIn(
    page,
    agent,
    async () => {
      await signIn(page, bob);
      await page.getByRole('heading', { name: 'Allow access' }).waitFor();
      t.true((await page.textContent('main'))?.includes(bob), 'the consent page names who is signed in');
      await allow(page);
    },
    { prompt: 'login' },
  );
  t.not(bobId, adaId);
  t.is((await running.service.db.knex('users').where({ id: bobId }).first()).email, bob);
  const adaGrant = await running.service.db.knex('oidc_models').where({ kind: 'Grant', account_id: adaId, client_id: agent.clientMetadata().client_id }).first();
  t.truthy(adaGrant, 'ending Ada’s browser session kept her consent for the app');

  // The browser's session is Bob's now: the next authorization needs no sign-in and is Bob's too.
  const again = await authorizeIn(page, agent, async () => undefined);
  t.is(again, bobId);
  t.deepEqual(errors, []);
  await page.context().close();
});

test.serial('“Not you?” on the consent page signs another traveler in; the Connected apps page signs out', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const { page, errors } = await freshPage(browser);
  const agent = await registerPublicClient(running, callbackUrl);
  const other = await registerPublicClient(running, callbackUrl);
  const [ada, bob] = [uniqueEmail('ada'), uniqueEmail('bob')];
  await authorizeIn(page, agent, async () => {
    await signIn(page, ada);
    await allow(page);
  });

  // Another app asks: the consent page says Ada is signed in; Bob says it is not him.
  const bobId = await authorizeIn(page, other, async () => {
    await page.getByRole('heading', { name: 'Allow access' }).waitFor();
    t.true((await page.textContent('main'))?.includes(ada));
    await page.getByRole('link', { name: /Not you\?/ }).click();
    await signIn(page, bob);
    await page.getByRole('heading', { name: 'Allow access' }).waitFor();
    t.true((await page.textContent('main'))?.includes(bob));
    await allow(page);
  });
  t.is((await running.service.db.knex('users').where({ id: bobId }).first()).email, bob);

  await page.goto(`${running.url}/account/apps`);
  t.true((await page.textContent('main'))?.includes(bob));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Signed out' }).waitFor();
  // Signed out: the Connected apps page asks for a sign-in again, and the next authorization does too.
  await page.goto(`${running.url}/account/apps`);
  await page.getByLabel('Email').waitFor();
  const authorization = await startAuthorization(agent, callbackUrl, 'profile.read');
  await page.goto(authorization.url.href);
  await page.getByLabel('Email').waitFor();
  t.deepEqual(errors, []);
  await page.context().close();
});

test.serial('the consent page signs out too: the next authorization asks who is signing in', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const { page, errors } = await freshPage(browser);
  const agent = await registerPublicClient(running, callbackUrl);
  const other = await registerPublicClient(running, callbackUrl);
  await authorizeIn(page, agent, async () => {
    await signIn(page, uniqueEmail('ada'));
    await allow(page);
  });
  const authorization = await startAuthorization(other, callbackUrl, 'profile.read');
  await page.goto(authorization.url.href);
  await page.getByRole('heading', { name: 'Allow access' }).waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Signed out' }).waitFor();
  const again = await startAuthorization(agent, callbackUrl, 'profile.read');
  await page.goto(again.url.href);
  await page.getByLabel('Email').waitFor();
  t.deepEqual(errors, []);
  await page.context().close();
});
