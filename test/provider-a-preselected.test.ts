/**
 * provider_a's offers with paid extras already chosen (issue 23, item 3): a chargeable checked bag and a
 * chargeable seat on the traveler's fare details, listed under `price.additionalServices` and included in
 * `grandTotal`. The normalized total, the pricing answer and the amount the order pays agree on what such an
 * offer costs, so a booking of it succeeds with one capture of that amount, and no price loop.
 */
import test from 'ava';
import { departuresOf } from '../core/flights/departure-window.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../core/money/money.js';
import { ProviderAAdapter } from '../providers/flights/provider-a/adapter.js';
import { bookingCase, providerANative } from './booking-contract/provider-a.js';
import { sandboxUrl } from './booking-contract/case.js';
import { asPartner } from './helpers/cards.js';
import { book, booker, bookingBody, intentRecord, sandboxOrder, type Booker } from './helpers/bookings.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let ada: Booker;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
});
test.after.always(async () => {
  await running?.close();
});

type Detail = { segmentId: string; additionalServices?: Record<string, unknown> };
type Native = Record<string, unknown> & {
  price: { currency: string; total: string; grandTotal: string; additionalServices?: { amount: string; type: string }[] };
  travelerPricings: { travelerId: string; fareDetailsBySegment: Detail[] }[];
};

/** The BASIC London–Paris return (as the sandbox serves it today) with one chargeable bag and one chargeable seat already chosen, priced in. */
async function preselected(): Promise<{ native: Native; seatPrice: string }> {
  const native = providerANative('lhr-cdg-return-gbp') as Native;
  const adapter = new ProviderAAdapter({
    baseUrl: sandboxUrl(running, 'provider_a'),
    token: 'amadeus_test_preselected',
    capabilities: running.service.providers.capabilities('provider_a'),
    clock: { now: () => new Date() },
  });
  const [map] = await adapter.seatMaps(native, 'preselected');
  const seat = Object.values(map?.seat_map ?? {}).find((item) => item.is_available && map?.pricing[item.seat_number]);
  if (!map || !seat) throw new Error('no chargeable seat on the first segment');
  const currency = native.price.currency;
  const seatPrice = toDecimalString(map.pricing[seat.seat_number]?.amount ?? 0, currency);
  const traveler = native.travelerPricings[0] as Native['travelerPricings'][number];
  for (const detail of traveler.fareDetailsBySegment) {
    detail.additionalServices = { chargeableCheckedBags: { quantity: 1 }, ...(detail.segmentId === map.segment_id ? { chargeableSeatNumber: seat.seat_number } : {}) };
  }
  native.price.additionalServices = [
    { amount: '25.00', type: 'CHECKED_BAGS' },
    { amount: seatPrice, type: 'SEATS' },
  ];
  native.price.grandTotal = fromMinorUnits(toMinorUnits(native.price.total, currency) + toMinorUnits('25.00', currency) + toMinorUnits(seatPrice, currency), currency);
  return { native, seatPrice };
}

test('an offer with a chargeable bag and seat already chosen costs its grandTotal: offer, pricing, order and capture agree', async (t) => {
  const { native } = await preselected();
  const total = native.price.grandTotal;
  t.not(total, native.price.total, 'the extras are in grandTotal, not in total');

  const created = await fetch(`${running.url}/v1/flights/providers/provider_a/offers`, {
    method: 'POST',
    headers: { 'x-api-key': ada.partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(native),
  });
  const createdBody = await jsonOf(created);
  t.is(created.status, 201, JSON.stringify(createdBody));
  const offerId = createdBody.offer_id as string;
  const offer = await jsonOf(await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${encodeURIComponent(offerId)}`, { headers: { 'x-api-key': ada.partner.apiKey } }));
  t.is(offer.total_amount, total, 'the normalized total is what the traveler pays, the chosen extras included');
  t.is(offer.tax_amount, '44.40', 'the paid extras are not tax');

  const pricing = await asPartner(running, ada, `/v1/flights/providers/provider_a/offers/${encodeURIComponent(offerId)}/pricing`, { body: {} });
  const priced = await jsonOf(pricing);
  t.is(pricing.status, 200, JSON.stringify(priced));
  t.is(priced.price_changed, false, JSON.stringify(priced));
  t.is(priced.offer.total_amount, total, 'pricing answers the same total');

  const order = await bookingCase.request(running, 'nonRefundable', 'unused', 'instant');
  const body: Json = bookingBody(offerId, { ...order, seats: [], services: [], currency: native.price.currency }, ada);
  const booked = await book(running, ada, 'provider_a', body);
  const answer = await jsonOf(booked);
  t.is(booked.status, 201, JSON.stringify(answer));
  t.is(answer.status, 'confirmed');
  const [departure] = departuresOf(offer);
  t.true((departure?.at.getTime() ?? 0) > Date.now(), `the booked flight departs ahead, at ${departure?.local}`);
  t.is(answer.booking.total_amount, Number(total), 'the booking charges the offer’s total');

  const intent = await intentRecord(running, answer.booking.payment_intent_id);
  t.like(intent, { status: 'succeeded' });
  t.is(BigInt(intent.amount_received), toMinorUnits(total, native.price.currency), 'one capture of exactly the total');
  const stored = await sandboxOrder(running, 'provider_a', answer.booking.provider_order_id);
  const document = typeof stored.document === 'string' ? JSON.parse(stored.document) : stored.document;
  t.is(document.flightOffers[0].price.grandTotal, total, 'the order was paid the same amount');
  t.deepEqual(document.formOfPayments[0].other.amount, total);
});

test('pricing states the chosen extras at its own prices: a grandTotal that leaves them out is corrected once, then books', async (t) => {
  const { native } = await preselected();
  const total = native.price.grandTotal;
  // The extras chosen on the fare details, but neither listed nor in grandTotal.
  delete native.price.additionalServices;
  native.price.grandTotal = native.price.total;

  const created = await fetch(`${running.url}/v1/flights/providers/provider_a/offers`, {
    method: 'POST',
    headers: { 'x-api-key': ada.partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(native),
  });
  const offerId = (await jsonOf(created)).offer_id as string;
  const pricing = await asPartner(running, ada, `/v1/flights/providers/provider_a/offers/${encodeURIComponent(offerId)}/pricing`, { body: {} });
  const priced = await jsonOf(pricing);
  t.is(pricing.status, 200, JSON.stringify(priced));
  t.like(priced, { price_changed: true, previous_total_amount: native.price.total });
  t.is(priced.offer.total_amount, total, 'pricing includes the chosen extras');

  const order = await bookingCase.request(running, 'nonRefundable', 'unused', 'instant');
  const booked = await book(running, ada, 'provider_a', bookingBody(offerId, { ...order, seats: [], services: [], currency: native.price.currency }, ada));
  const answer = await jsonOf(booked);
  t.is(booked.status, 201, JSON.stringify(answer));
  t.is(answer.booking.total_amount, Number(total));
  const intent = await intentRecord(running, answer.booking.payment_intent_id);
  t.is(BigInt(intent.amount_received), toMinorUnits(total, native.price.currency));
});
