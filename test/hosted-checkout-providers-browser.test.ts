/**
 * The hosted checkout in Chromium for provider_a, provider_c, provider_d and provider_e (provider_b is in
 * hosted-checkout-browser.test.ts), each inside a partner's page on another site: every step its offer
 * takes (pricing again where the provider requires it, seats where it sells them, bags where it sells
 * them and the offer has some, passports where the offer asks), a new card in the vault's fields, and one
 * booking at the review's total, which the processor captured; the partner's page hears
 * SVC_BOOKING_COMPLETE with the booking and its PNR.
 */
import test from 'ava';
import type { Browser, BrowserContext } from 'playwright-core';
import { toMinorUnits } from '../core/money/money.js';
import { intentRecord } from './helpers/bookings.js';
import { bookingsOfSession, checkoutApi, checkoutPartner, openCheckout, type CheckoutPartner } from './helpers/checkout.js';
import { bookInFrame, checkoutFits, messagesOf, partnerPages, type PartnerPages } from './helpers/checkout-browser.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { jsonOf } from './helpers/http.js';
import { uniqueEmail } from './helpers/oauth.js';
import { freePort, startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let partner: CheckoutPartner;
let browser: Browser | undefined;
let context: BrowserContext;
let partnerSite: PartnerPages;
const pageErrors: string[] = [];

test.before(async () => {
  running = await startService();
  partner = await checkoutPartner(running);
  partnerSite = await partnerPages(await freePort(), new URL(running.config.authUrl).origin);
  browser = await launchChromium();
  if (!browser) return;
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  context.on('weberror', (error) => pageErrors.push(String(error.error())));
});
test.after.always(async () => {
  await browser?.close();
  partnerSite?.close();
  await running?.close();
});

/**
 * The steps each offer takes, as the checkout learns them on opening (it prices where the provider
 * requires it: provider_a says whether passports are needed, and which bags it sells, only once priced).
 */
const EXPECTED_STEPS: Record<string, { pricing: boolean; seats: boolean; bags: boolean; documents: boolean }> = {
  provider_a: { pricing: true, seats: true, bags: true, documents: true },
  provider_c: { pricing: true, seats: true, bags: false, documents: false },
  provider_d: { pricing: true, seats: false, bags: true, documents: true },
  provider_e: { pricing: true, seats: true, bags: true, documents: true },
};

for (const providerId of ['provider_a', 'provider_c', 'provider_d', 'provider_e']) {
  test.serial(`${providerId}: a new traveler books inside a partner’s page, every step the offer takes, at the review’s total`, async (t) => {
    if (!browser) return t.fail(CHROMIUM_MISSING);
    const checkout = await openCheckout(running, partner, providerId, partnerSite.origin);
    const summary = (await checkoutApi(running, checkout, 'session')).body;
    t.like(summary.steps, EXPECTED_STEPS[providerId]!);
    const page = await context.newPage();
    page.on('console', (message) => message.type() === 'error' && pageErrors.push(`${providerId}: ${message.text()}`));
    await page.goto(partnerSite.pageFor(checkout.url));
    const booked = await bookInFrame(t, running, page, checkout, {
      email: uniqueEmail(`checkout-${providerId}`),
      looks: async (step) => {
        if (step === 'offer' || step === 'review') await checkoutFits(t, page, checkout, `checkout-${providerId}-${step}`);
      },
    });
    t.is(booked.total, checkout.order.amount, 'the offer with the order’s seats and bags');
    const read = await jsonOf(await fetch(`${running.url}/v1/checkout/sessions/${checkout.id}`, { headers: { 'x-api-key': partner.apiKey } }));
    t.like(read, { status: 'complete', provider_id: providerId, airline_pnr: booked.pnr, total_amount: booked.total });
    const complete = (await messagesOf(page)).filter((message) => message.type === 'SVC_BOOKING_COMPLETE');
    t.deepEqual(complete, [{ type: 'SVC_BOOKING_COMPLETE', bookingId: read.booking_id, airlineRef: booked.pnr, providerId }]);
    const bookings = await bookingsOfSession(running, checkout.id);
    t.is(bookings.length, 1);
    t.like(bookings[0], { id: read.booking_id, status: 'confirmed', order_type: 'instant' });
    t.is(BigInt((await intentRecord(running, bookings[0].payment_intent_id)).amount_received), toMinorUnits(booked.total, checkout.order.currency), 'captured exactly the review’s total');
    t.is((await running.service.db.knex('booking_seat_selections').where({ booking_id: read.booking_id })).length, checkout.order.seats.length);
    await page.close();
  });
}

test.after('no script errors on the pages', (t) => {
  t.deepEqual(pageErrors.filter((error) => !/Failed to load resource/.test(error)), []);
});
