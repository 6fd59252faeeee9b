/**
 * The hosted pages in a real browser (headless Chromium, driven by playwright-core): sign in with the
 * e-mailed code, untick one permission, Allow, and land on the client's redirect with a code that
 * exchanges for a token without the unticked scope. Also proves the pages' security headers let the
 * browser follow the redirects after a form post (form-action).
 */
import test from 'ava';
import http from 'node:http';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { latestCode } from './helpers/browser.js';
import { oauth, registerPublicClient, startAuthorization, uniqueEmail } from './helpers/oauth.js';
import { startService, type RunningService } from './helpers/service.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let running: RunningService;
let browser: Browser;
let callback: http.Server;
let callbackUrl: string;

test.before(async () => {
  running = await startService();
  callback = http.createServer((_request, response) => response.end('<!doctype html><title>Client</title><p>Back at the client.</p>'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Closed network: no background traffic; running as root in CI needs --no-sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
test.after.always(async () => {
  await browser?.close();
  callback?.closeAllConnections();
  callback?.close();
  await running?.close();
});

test('sign in, consent with one box unticked, land on the redirect with a code', async (t) => {
  if (!fs.existsSync(CHROMIUM)) return t.fail(`Chromium is not installed at ${CHROMIUM} (.ci/run installs Debian's chromium)`);
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
  t.true(await page.getByRole('checkbox', { name: /payments\.read/ }).isChecked());
  await page.getByRole('checkbox', { name: /payments\.read/ }).uncheck();
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/consent.png`, fullPage: true });
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
