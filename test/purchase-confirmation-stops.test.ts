/**
 * The purchase confirmation page shows a connecting flight's stops (issue 23, item 8): provider_d's
 * LHR–JFK through Dublin (EI153 then EI105) reads LHR → DUB → JFK, each flight on its own line with its
 * airports and local times, and the change at Dublin; from the summary stored with the confirmation. In
 * Chromium it fits a 375 px screen without scrolling sideways. With SHOTS_DIR set, it also saves
 * the page at 1280 and 375 px.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { confirmationPage } from '../authz/pages/confirm-page.js';
import { saveCardInBrowser } from './helpers/cards.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { fitsEveryWidth } from './helpers/layout.js';
import type { Json } from './helpers/http.js';
import { callTool as call, CONTACT, openConfirmation, passenger, signInOnConfirmationPage, toolAgent, type ToolAgent } from './helpers/purchases.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let browser: Browser | undefined;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  await running?.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** A local time as the page writes it: 2026-06-01 06:35. */
const local = (value: string) => value.slice(0, 16).replace('T', ' ');

/** An agent asks to book provider_d's LHR–JFK through Dublin: the confirmation it is answered, and the offer's segments. */
async function askConnecting(): Promise<{ ada: ToolAgent; asked: Json; segments: Json[] }> {
  const ada = await toolAgent(running);
  await saveCardInBrowser(running, ada.browser, {}, true);
  const search = await call(ada.client, 'search_flights', { origin: 'LHR', destination: 'JFK', departure_date: inDays(30), currency: 'GBP' });
  const flights = (result: Json) => result.slices[0].segments.map((segment: Json) => `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}`).join('+');
  const connecting = search.ok.offers.find((result: Json) => flights(result) === 'EI153+EI105');
  if (!connecting) throw new Error(`no EI153+EI105 among ${search.ok.offers.map(flights).join(', ')}`);
  const created = await call(ada.client, 'create_offer', { search_id: search.ok.search_id, result_id: connecting.id });
  const offer = created.ok.offer;
  const asked = await call(ada.client, 'create_booking', {
    provider_id: 'provider_d',
    offer_id: created.ok.offer_id,
    passengers: [passenger(offer.passengers[0].id, 'Ada', 0)],
    contact: CONTACT,
    idempotency_key: `stops-${crypto.randomUUID()}`,
  });
  if (asked.error?.code !== 'confirmation_required') throw new Error(`not asked to confirm: ${JSON.stringify(asked)}`);
  return { ada, asked: asked.error, segments: offer.slices[0].segments };
}

test('a connection is shown: LHR → DUB → JFK, each flight with its airports and local times, and the change at DUB', async (t) => {
  const { ada, asked, segments } = await askConnecting();
  const [first, second] = segments;
  const page = await openConfirmation(ada.browser, asked.confirmation_url);
  t.is(page.status, 200);
  for (const shown of [
    'LHR → DUB → JFK',
    '1 stop, at DUB',
    `EI 153, LHR ${local(first.departing_at)} → DUB ${local(first.arriving_at)}`,
    `EI 105, DUB ${local(second.departing_at)} → JFK ${local(second.arriving_at)}`,
    // EI153 lands at 07:55, EI105 leaves at 11:00 (both Dublin time).
    'Change at DUB: 3 h 5 min',
  ]) {
    t.true(page.html.includes(shown), `the page shows “${shown}”`);
  }
  t.false(page.html.includes('<strong>LHR → JFK</strong>'), 'the trip is not shown as if it were direct');

  const stored = await running.service.db.knex('purchase_confirmations').where({ id: asked.confirmation_id }).first();
  t.deepEqual(
    stored.summary.slices[0].segments.map((segment: Json) => [segment.origin, segment.destination, segment.flight]),
    [
      ['LHR', 'DUB', 'EI 153'],
      ['DUB', 'JFK', 'EI 105'],
    ],
    'the segments are stored with the confirmation: the page shows what was confirmed, not the offer as it is now',
  );
  await ada.client.close();
});

test('in Chromium the stops read in order and the page fits 1280 and 375 px without sideways scrolling', async (t) => {
  if (!browser) return t.fail(CHROMIUM_MISSING);
  const { ada, asked } = await askConnecting();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(asked.confirmation_url);
  await signInOnConfirmationPage(page, running.url, ada.email);
  const flights = page.getByRole('region', { name: 'Flights' });
  t.regex((await flights.textContent()) ?? '', /LHR → DUB → JFK[\s\S]*EI 153, LHR[\s\S]*Change at DUB[\s\S]*EI 105, DUB/);
  await fitsEveryWidth(t, page, 'confirmation-stops');
  t.deepEqual(errors, []);
  await context.close();
  await ada.client.close();
});

test('a confirmation stored before segments were kept still shows its slice, its times and its flights', (t) => {
  const slice = { origin: 'LHR', destination: 'JFK', departingAt: '2026-06-01T06:35:00', arrivingAt: '2026-06-01T13:10:00', flights: ['EI 153', 'EI 105'] };
  const { status, body } = confirmationPage({
    view: {
      id: 'c1',
      status: 'pending',
      expiresAt: '2026-06-01T00:15:00.000Z',
      expired: false,
      clientId: 'agent',
      clientName: 'Test agent',
      summary: {
        providerId: 'provider_d',
        offerId: 'o1',
        slices: [slice],
        passengers: [{ name: 'Ada Lovelace', type: 'adult', bornOn: '1985-12-10' }],
        seats: [],
        services: [],
        card: { brand: 'visa', last4: '4242' },
        total: { currency: 'GBP', base_amount: '403.86', tax_amount: null, services_amount: '0.00', seats_amount: '0.00', total_amount: '403.86' },
      },
    },
    email: 'ada@example.com',
    decision: { confirmAction: '/confirm/c1/confirm', declineAction: '/confirm/c1/decline', csrfToken: 'x' },
    signOut: { action: '/sign-out', csrfToken: 'x' },
  });
  t.is(status, 200);
  t.true(body.includes('<strong>LHR → JFK</strong>, 2026-06-01 06:35 → 2026-06-01 13:10'));
  t.true(body.includes('EI 153, EI 105; local times'));
});
