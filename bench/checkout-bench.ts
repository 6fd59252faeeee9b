/**
 * The checkout benchmark (issue 24): what the hosted checkout costs a partner's page.
 *
 * - Weight: the checkout page's HTML, script and style as the service sends them, and gzipped (as a
 *   proxy or CDN in front of it would send them), beside the checkout button's script, which the
 *   partner's page loads first.
 * - Time from the button's click to the checkout's first step shown ("Your flight"), in Chromium on Demo
 *   Travel: with `flightOfferID` (one call: the session), and with `flightOffer` (two: the offer, then
 *   the session; provider_a also prices the offer before its first step). The baseline, measured in the
 *   same run: the same checkout opened as a page of its own (its session already made), from navigation to
 *   the first step. Each click opens a new session, in a new browser context (nothing cached), as a
 *   traveler's first visit does; then once more on the same page (the button's script and the
 *   checkout's assets cached).
 *
 * BENCH_CHECKOUT_CLICKS (default 10) per row. Chromium as the tests find it (CHROMIUM_PATH).
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM } from '../test/helpers/chromium.js';
import { startService, type RunningService } from '../test/helpers/service.js';
import { record, say } from './figures.js';
import { percentile } from './load.js';
import { median } from './servers.js';
import { freshDatabase } from './fresh-database.js';

const clicks = Number(process.env.BENCH_CHECKOUT_CLICKS ?? 10);

interface Asset {
  name: string;
  bytes: number;
  gzipped: number;
}

export async function runCheckoutBench(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    say(`\nCheckout benchmark skipped: no Chromium at ${CHROMIUM} (CHROMIUM_PATH overrides).`);
    return;
  }
  const started = performance.now();
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : undefined;
  const running = await startService({}, database ? { database } : { embedded: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const demoUrl = `${running.config.demoTravel?.url}/`;
    // The agency's keys are made on the shop's first visit.
    await fetch(demoUrl);
    const keys = JSON.parse(fs.readFileSync(`${running.config.dataDir}/demo-travel-credentials.json`, 'utf8')) as { secret_key: string; origin: string };

    say('');
    say(`Checkout (${database ? 'PostgreSQL of DATABASE_URL' : 'the embedded database'}), Chromium ${browser.version()}.`);
    const weights = await pageWeight(running, keys);
    say('| asset | bytes sent | gzipped |');
    say('|---|---|---|');
    for (const asset of weights) say(`| ${asset.name} | ${asset.bytes} | ${asset.gzipped} |`);
    const page = weights.filter((asset) => asset.name.startsWith('checkout page'));
    say(`| checkout page in all (HTML + script + style) | ${sum(page, 'bytes')} | ${sum(page, 'gzipped')} |`);
    record('checkout page weight, gzipped (HTML + script + style)', sum(page, 'gzipped'), 'bytes');

    say('');
    say(`Click to the checkout's first step shown, ${clicks} clicks per row, each in a new browser context (cold), then again on the same page (warm):`);
    say('| path | cold p50 ms | cold p90 ms | warm p50 ms |');
    say('|---|---|---|---|');
    const baseline = await timesOf(() => directOpen(browser, running, keys));
    say(row('baseline: the checkout opened as a page of its own (session made before)', baseline));
    record('checkout opened as a page of its own, cold p50', median(baseline.cold), 'ms');
    for (const [provider, handover] of [
      ['provider_b', 'id'],
      ['provider_a', 'raw'],
    ] as const) {
      const times = await timesOf((warm) => clickToFirstStep(browser, `${demoUrl}?handover=${handover}`, provider, warm));
      const name = `button, ${handover === 'id' ? 'flightOfferID' : 'flightOffer'} (${provider})`;
      say(row(name, times));
      record(`checkout click to first step, ${name}, cold p50`, median(times.cold), 'ms');
    }
    say(`(checkout benchmark: ${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
  } finally {
    await browser.close();
    await running.close();
    await database?.drop();
  }
}

const sum = (assets: Asset[], key: 'bytes' | 'gzipped') => assets.reduce((total, asset) => total + asset[key], 0);

function row(name: string, times: { cold: number[]; warm: number[] }): string {
  return `| ${name} | ${median(times.cold).toFixed(0)} | ${percentile(times.cold, 90).toFixed(0)} | ${median(times.warm).toFixed(0)} |`;
}

async function timesOf(open: (warm: boolean) => Promise<{ cold: number; warm: number }>): Promise<{ cold: number[]; warm: number[] }> {
  await open(false); // warm-up: the service's first request of each kind
  const cold: number[] = [];
  const warm: number[] = [];
  for (let click = 0; click < clicks; click++) {
    const times = await open(true);
    cold.push(times.cold);
    warm.push(times.warm);
  }
  return { cold, warm };
}

/** A checkout session of Demo Travel's provider_b offer, made with its secret key for its origin. */
async function checkoutSession(running: RunningService, keys: { secret_key: string; origin: string }): Promise<{ url: string }> {
  const native = await fetch(`${running.url}/sandbox/flights/provider_b/air/offers/off_0000AuPyAJY1KPrmYbBxIm`, { headers: { authorization: 'Bearer duffel_test_bench', 'duffel-version': 'v2' } });
  const headers = { 'x-api-key': keys.secret_key, 'content-type': 'application/json' };
  const offer = await fetch(`${running.url}/v1/flights/providers/provider_b/offers`, { method: 'POST', headers, body: JSON.stringify(((await native.json()) as { data: unknown }).data) });
  const { offer_id } = (await offer.json()) as { offer_id: string };
  const session = await fetch(`${running.url}/v1/checkout/sessions`, { method: 'POST', headers: { ...headers, 'x-customer-id': 'DT' }, body: JSON.stringify({ provider_id: 'provider_b', offer_id, origin: keys.origin }) });
  if (session.status !== 201) throw new Error(`no checkout session: ${session.status} ${await session.text()}`);
  return (await session.json()) as { url: string };
}

async function pageWeight(running: RunningService, keys: { secret_key: string; origin: string }): Promise<Asset[]> {
  const { url } = await checkoutSession(running, keys);
  const pageUrl = url.split('#')[0] as string;
  const html = await (await fetch(pageUrl)).text();
  const assets: Asset[] = [measure('checkout page: HTML', html)];
  for (const [, src] of html.matchAll(/<script[^>]* src="([^"]+)"/g)) assets.push(measure(`checkout page: script ${src}`, await (await fetch(new URL(src as string, pageUrl))).text()));
  for (const [, href] of html.matchAll(/<link[^>]* rel="stylesheet"[^>]* href="([^"]+)"/g)) assets.push(measure(`checkout page: style ${href}`, await (await fetch(new URL(href as string, pageUrl))).text()));
  assets.push(measure('the button: /components/checkout-button.js', await (await fetch(`${running.url}/components/checkout-button.js`)).text()));
  return assets;
}

function measure(name: string, text: string): Asset {
  const bytes = Buffer.from(text);
  return { name, bytes: bytes.length, gzipped: gzipSync(bytes).length };
}

/** The first step shown: the checkout's "Your flight" heading, in `page`'s frame or as the page. */
const firstStep = (page: Page, frame?: string) => (frame ? page.frameLocator(frame) : page).getByRole('heading', { name: 'Your flight' }).waitFor({ timeout: 30_000 });

async function directOpen(browser: Browser, running: RunningService, keys: { secret_key: string; origin: string }): Promise<{ cold: number; warm: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const timed = async () => {
    const { url } = await checkoutSession(running, keys);
    const start = Date.now();
    await page.goto(url, { waitUntil: 'commit' });
    await firstStep(page);
    return Date.now() - start;
  };
  const cold = await timed();
  const warm = await timed();
  await context.close();
  return { cold, warm };
}

async function clickToFirstStep(browser: Browser, shopUrl: string, provider: string, warmToo: boolean): Promise<{ cold: number; warm: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(shopUrl);
  await page.waitForFunction('document.body.dataset.ready === "true"');
  const frame = `#offer-${provider} checkout-button iframe`;
  const timed = async () => {
    const start = Date.now();
    await page.locator(`#offer-${provider} checkout-button > button`).click();
    await firstStep(page, frame);
    return Date.now() - start;
  };
  const cold = await timed();
  let warm = NaN;
  if (warmToo) {
    await page.getByRole('button', { name: 'Close the checkout' }).click();
    await page.locator(frame).waitFor({ state: 'detached' });
    warm = await timed();
  }
  await context.close();
  return { cold, warm };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runCheckoutBench();
