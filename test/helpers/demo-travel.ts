/**
 * Demo Travel (demo/travel/) in Chromium, as the checkout button's tests drive it: the shop in a browser
 * context of its own, the requests its page sends to the service's API and the sessions and offers it
 * made, the checkout dialog and frame of each offer's button, and what its onExit reported.
 */
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import type { RunningService } from './service.js';

// ---- What the functions run in the page see (this project compiles without the DOM types) --------------

export interface El {
  shadowRoot: Root | null;
  textContent: string | null;
  hidden: boolean;
  open: boolean;
  src: string;
  contentWindow: unknown;
  className: string;
  dataset: Record<string, string>;
  querySelector(selector: string): El | null;
  matches(selector: string): boolean;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  append(...nodes: unknown[]): void;
  click(): void;
  addEventListener(type: string, listener: (event: { detail: unknown }) => void): void;
  [prop: string]: unknown;
}
export interface Root {
  activeElement: El | null;
  querySelector(selector: string): El | null;
}
export interface Exit {
  reason: string;
  sessionId?: string;
  bookingId?: string;
  airlineRef?: string | null;
  providerId?: string;
}
export interface DemoWindow {
  document: { activeElement: El | null; querySelector(selector: string): El | null; createElement(tag: string): El; body: El };
  demoTravel: { exits: Exit[]; errors: Array<{ code: string; message: string }>; confirmations: Array<{ status: number; session: Record<string, unknown> }> };
  history: { length: number };
  location: { pathname: string; search: string };
  innerWidth: number;
  innerHeight: number;
  customElements: { get(name: string): unknown };
  open(url: string): unknown;
}

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface DemoPage {
  context: BrowserContext;
  page: Page;
  /** The hosted checkout's origin (the service's AUTH_URL). */
  authOrigin: string;
  /** Requests the page sent to the service's API (not to the checkout frame). */
  sent: Sent[];
  /** Checkout sessions the API opened for the page. */
  sessions: Array<{ id: string; url: string; client_secret: string }>;
  /** Offers the button created (createProviderOffer's answers). */
  offers: Array<{ offer_id: string }>;
  consoleErrors: string[];
  /** Requests of any frame to the service's origins that carried a cookie. */
  cookieHeaders: string[];
}

/**
 * Demo Travel's shop in a new browser context of `browser`, at `path` (`/?handover=id`, say); `standIn`:
 * the hosted checkout is played by a blank page of its origin.
 */
export async function openShop(browser: Browser, running: RunningService, options: { standIn: boolean; path?: string }): Promise<DemoPage> {
  const demoUrl = `${running.config.demoTravel?.url}${options.path ?? '/'}`;
  const apiOrigin = new URL(running.config.baseUrl).origin;
  const authOrigin = new URL(running.config.authUrl).origin;
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  if (options.standIn) {
    await context.route(
      (url) => url.origin === authOrigin && url.pathname.startsWith('/checkout/'),
      (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><html lang="en"><title>Checkout stand-in</title><p>The hosted checkout stands here.</p></html>' }),
    );
  }
  const page = await context.newPage();
  const shop: DemoPage = { context, page, authOrigin, sent: [], sessions: [], offers: [], consoleErrors: [], cookieHeaders: [] };
  // Any frame's requests to the service (the page's, the checkout's): none should carry a cookie.
  context.on('request', (request) => {
    const origin = new URL(request.url()).origin;
    if (origin !== apiOrigin && origin !== authOrigin) return;
    void request.allHeaders().then((headers) => headers.cookie && shop.cookieHeaders.push(`${request.url()}: ${headers.cookie}`));
  });
  page.on('console', (message) => message.type() === 'error' && shop.consoleErrors.push(`${message.text()} ${message.location().url}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== apiOrigin || !url.pathname.startsWith('/v1/') || request.method() === 'OPTIONS') return;
    void request.allHeaders().then((headers) => shop.sent.push({ method: request.method(), url: url.pathname, headers, body: request.postDataJSON() as unknown }));
  });
  page.on('response', (response) => {
    if (response.request().method() !== 'POST' || response.status() !== 201) return;
    const path = new URL(response.url()).pathname;
    if (path === '/v1/checkout/sessions') void response.json().then((body: DemoPage['sessions'][number]) => shop.sessions.push(body));
    else if (path.endsWith('/offers')) void response.json().then((body: DemoPage['offers'][number]) => shop.offers.push(body));
  });
  await page.goto(demoUrl);
  await page.waitForFunction(() => (globalThis as unknown as DemoWindow).document.body.dataset.ready === 'true');
  return shop;
}

export const buttonOf = (page: Page, provider: string) => page.locator(`#offer-${provider} checkout-button > button`);
export const dialogOf = (page: Page, provider: string) => page.locator(`#offer-${provider} checkout-button dialog`);
export const exits = (page: Page) => page.evaluate(() => (globalThis as unknown as DemoWindow).demoTravel.exits);

/**
 * Polls `found` until it gives a value. The bound is generous: under the whole suite's load on two cores a
 * page can take several seconds to create its session or load its frame, and a test fails by ava's own
 * timeout anyway; what is asserted is that it happens, not how fast.
 */
export async function pollFor<T>(page: Page, found: () => T | undefined, failure: () => string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(failure());
    await page.waitForTimeout(50);
  }
}

/** The checkout frame of `sessionId`, once loaded. */
export async function checkoutFrame(shop: DemoPage, sessionId: string): Promise<Frame> {
  const framePrefix = `${shop.authOrigin}/checkout/${sessionId}`;
  return pollFor(shop.page, () => shop.page.frames().find((candidate) => candidate.url().startsWith(framePrefix)), () => `no checkout frame for session ${sessionId}`);
}

export async function waitForSessions(shop: DemoPage, count: number): Promise<void> {
  await pollFor(shop.page, () => (shop.sessions.length >= count ? true : undefined), () => `expected ${count} checkout sessions, saw ${shop.sessions.length}`);
}

/** Opens the checkout of `provider` and waits for its dialog and frame. */
export async function openCheckout(shop: DemoPage, provider: string): Promise<{ sessionId: string; frame: Frame }> {
  const before = shop.sessions.length;
  await buttonOf(shop.page, provider).click();
  await waitForSessions(shop, before + 1);
  await dialogOf(shop.page, provider).waitFor({ state: 'visible' });
  const sessionId = (shop.sessions[before] as { id: string }).id;
  return { sessionId, frame: await checkoutFrame(shop, sessionId) };
}

export async function waitForExits(page: Page, count: number): Promise<Exit[]> {
  await page.waitForFunction((expected) => (globalThis as unknown as DemoWindow).demoTravel.exits.length >= expected, count, { timeout: 30_000 });
  return exits(page);
}

/** Where focus is: the light-DOM button of `provider`'s element, or what inside its shadow root. */
export async function focusOf(page: Page, provider: string): Promise<string> {
  return page.evaluate((id) => {
    const doc = (globalThis as unknown as DemoWindow).document;
    const host = doc.querySelector(`#offer-${id} checkout-button`) as El;
    const active = doc.activeElement;
    if (active === host.querySelector('button')) return 'button';
    if (active !== host) return `elsewhere: ${String(active?.['tagName'])}`;
    const inner = host.shadowRoot?.activeElement;
    if (!inner) return 'host';
    return inner['tagName'] === 'IFRAME' ? 'dialog: the checkout frame' : `dialog: ${inner.textContent ?? ''}`;
  }, provider);
}
