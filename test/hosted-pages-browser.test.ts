/**
 * The hosted pages in a real browser (headless Chromium, driven by playwright-core): sign in with the
 * e-mailed code, untick one permission, Allow, and land on the client's redirect with a code that
 * exchanges for a token without the unticked scope. Also proves the pages' security headers let the
 * browser follow the redirects after a form post (form-action).
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { latestCode } from './helpers/browser.js';
import { CHROMIUM_MISSING, clientCallback, launchChromium } from './helpers/chromium.js';
import { fitsEveryWidth, SHOTS_DIR } from './helpers/layout.js';
import { oauth, registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';
import { SCOPES } from '../core/scopes.js';

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

test('sign in, consent with one box unticked, land on the redirect with a code', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const agent = await registerPublicClient(running, callbackUrl);
  const authorization = await startAuthorization(agent, callbackUrl, 'profile.read passengers.read payments.read');
  const email = uniqueEmail('chromium');
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));

  await page.goto(authorization.url.href);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByLabel('Code').fill(await latestCode(running.url, email));
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByRole('heading', { name: 'Allow access' }).waitFor();
  t.true(await page.getByRole('checkbox', { name: SCOPES['payments.read'], exact: true }).isChecked());
  await page.getByRole('checkbox', { name: SCOPES['payments.read'], exact: true }).uncheck();
  await fitsEveryWidth(t, page, 'consent');
  await page.getByRole('button', { name: 'Allow' }).click();

  await page.waitForURL((url) => url.href.startsWith(callbackUrl));
  const landed = new URL(page.url());
  t.truthy(landed.searchParams.get('code'));
  t.is(landed.searchParams.get('state'), authorization.state);
  t.deepEqual(errors, [], 'no console errors (CSP violations would show here)');

  const tokens = await oauth.authorizationCodeGrant(agent, landed, { pkceCodeVerifier: authorization.verifier, expectedState: authorization.state });
  t.deepEqual(new Set(tokens.scope?.split(' ')), new Set(['profile.read', 'passengers.read']));
  await page.close();
});

/** WCAG 2 relative luminance of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
    const channel = Number(part) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`${colorScheme} scheme: error and notice text meet WCAG AA contrast; the code input says it is invalid and why`, async (t) => {
    if (!browser) return t.fail(CHROMIUM_MISSING);
    const agent = await registerPublicClient(running, callbackUrl);
    const authorization = await startAuthorization(agent, callbackUrl, 'profile.read');
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(authorization.url.href);
    await page.getByLabel('Email').fill(uniqueEmail(colorScheme));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Code').fill('00000000'.slice(0, Number(await page.getByLabel('Code').getAttribute('maxlength'))));
    await page.getByRole('button', { name: 'Continue' }).click();

    const error = page.locator('p.error');
    await error.waitFor();
    const code = page.getByLabel('Code');
    t.is(await code.getAttribute('aria-invalid'), 'true');
    t.is(await code.getAttribute('aria-describedby'), await error.getAttribute('id'));
    // The notice's colour, read from the same stylesheet on a paragraph of that class. (The script is a
    // string: it runs in the page, whose DOM types this project does not compile against.)
    const colours = (await page.evaluate(`(() => {
      document.querySelector('main').insertAdjacentHTML('beforeend', '<p class="notice" id="probe">We sent you a new code.</p>');
      return {
        background: getComputedStyle(document.body).backgroundColor,
        error: getComputedStyle(document.querySelector('p.error')).color,
        notice: getComputedStyle(document.querySelector('#probe')).color,
      };
    })()`)) as { background: string; error: string; notice: string };
    t.true(contrast(colours.error, colours.background) >= 4.5, `error ${colours.error} on ${colours.background}: ${contrast(colours.error, colours.background).toFixed(2)}`);
    t.true(contrast(colours.notice, colours.background) >= 4.5, `notice ${colours.notice} on ${colours.background}: ${contrast(colours.notice, colours.background).toFixed(2)}`);
    if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/code-error-${colorScheme}.png`, fullPage: true });
    await context.close();
  });
}
