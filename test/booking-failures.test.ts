/**
 * Bookings that fail, over REST (decisions §3 and §4): each failure answers its status and code, the
 * booking is kept as `failed` (no trip), and no money is held for it: an authorization the saga made is
 * voided (the processor's intent `canceled`), a declined card leaves none, and no provider order is left.
 * Failures the provider says at pricing, and an offer past its expiry, stop before anything is stored.
 * A repeat of a failed request's key answers the same error, without a second authorization.
 */
import test from 'ava';
import type { OrderRequest } from '../core/flights/flight-provider.js';
import { toMinorUnits } from '../core/money/money.js';
import { MAGIC_FLIGHT_NUMBERS } from '../providers/flights/provider-a/magic-values.js';
import { providerANative } from './booking-contract/provider-a.js';
import { assertFailed, bookingByKey, intentsOf, orderOf } from './helpers/booking-records.js';
import { BOOKING_CASES, book, booker, bookingBody, prepareBooking, type Booker } from './helpers/bookings.js';
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

/** Posts a provider-native offer as the traveler's partner: our offer id. */
async function createOffer(who: Booker, providerId: string, raw: unknown): Promise<string> {
  const created = await fetch(`${running.url}/v1/flights/providers/${providerId}/offers`, {
    method: 'POST',
    headers: { 'x-api-key': who.partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(raw),
  });
  const body = await jsonOf(created);
  if (created.status !== 201) throw new Error(`no offer: ${created.status} ${JSON.stringify(body)}`);
  return body.offer_id as string;
}

/** Books and answers the status and body. */
async function attempt(who: Booker, providerId: string, body: Json): Promise<{ status: number; answer: Json }> {
  const response = await book(running, who, providerId, body);
  return { status: response.status, answer: await jsonOf(response) };
}

test('sold out after the authorization (provider_b): 422 offer_no_longer_available; the authorization is voided; a repeat of the key answers the same, without charging again', async (t) => {
  const { body, order } = await prepareBooking(running, ada, 'provider_b', 'soldOut');
  const first = await attempt(ada, 'provider_b', body);
  t.is(first.status, 422, JSON.stringify(first.answer));
  t.like(first.answer, { status_code: 422, code: 'offer_no_longer_available', details: 'provider_b: sold out or withdrawn' });

  const booking = await assertFailed(t, running, ada, body.idempotency_key, 'offer_no_longer_available');
  const [intent, ...others] = await intentsOf(running, booking.id);
  t.is(others.length, 0);
  t.like(intent, { status: 'canceled', amount_received: 0 });
  t.is(BigInt(intent?.amount ?? 0), toMinorUnits(order.amount, order.currency), 'the total was authorized, then released');
  t.is(await orderOf(running, 'provider_b', booking.id), undefined, 'no order was placed');

  const repeat = await attempt(ada, 'provider_b', body);
  t.is(repeat.status, 422);
  // Each answer quotes its own request's id; the rest is the recorded failure.
  const { request_id: firstRequest, ...recorded } = first.answer;
  const { request_id: repeatRequest, ...repeated } = repeat.answer;
  t.deepEqual(repeated, recorded, 'the repeat answers the recorded failure');
  t.not(repeatRequest, firstRequest);
  t.is((await intentsOf(running, booking.id)).length, 1, 'the repeat authorized nothing');
  const other = await attempt(ada, 'provider_b', { ...body, currency: 'EUR' });
  t.is(other.status, 409);
  t.is(other.answer.code, 'idempotency_conflict');
});

test('sold out said at pricing (provider_a): 422 offer_no_longer_available before anything is stored or authorized', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_a', 'soldOut');
  const { status, answer } = await attempt(ada, 'provider_a', body);
  t.is(status, 422, JSON.stringify(answer));
  t.like(answer, { code: 'offer_no_longer_available', details: 'provider_a: sold out or withdrawn' });
  t.is(await bookingByKey(running, ada.userId, body.idempotency_key), undefined);
});

for (const providerId of ['provider_a', 'provider_c', 'provider_d', 'provider_e']) {
  test(`invalid passenger (${providerId}): 422 invalid_passenger with details; the authorization is voided, no order`, async (t) => {
    const { body } = await prepareBooking(running, ada, providerId, 'invalidPassenger');
    const { status, answer } = await attempt(ada, providerId, body);
    t.is(status, 422, JSON.stringify(answer));
    t.is(answer.code, 'invalid_passenger');
    t.regex(answer.details ?? '', new RegExp(`^${providerId}: `));
    const booking = await assertFailed(t, running, ada, body.idempotency_key, 'invalid_passenger');
    t.deepEqual(
      (await intentsOf(running, booking.id)).map((intent) => intent.status),
      ['canceled'],
    );
    t.is(await orderOf(running, providerId, booking.id), undefined);
  });
}

for (const providerId of ['provider_b', 'provider_d']) {
  test(`provider 5xx at the order (${providerId}): 502 provider_unavailable; the authorization is voided, no order`, async (t) => {
    const { body } = await prepareBooking(running, ada, providerId, 'providerError');
    const { status, answer } = await attempt(ada, providerId, body);
    t.is(status, 502, JSON.stringify(answer));
    t.like(answer, { status_code: 502, code: 'provider_unavailable' });
    t.notRegex(JSON.stringify(answer), /Internal server error|stack/i);
    const booking = await assertFailed(t, running, ada, body.idempotency_key, 'provider_unavailable');
    t.deepEqual(
      (await intentsOf(running, booking.id)).map((intent) => intent.status),
      ['canceled'],
    );
    t.is(await orderOf(running, providerId, booking.id), undefined);
  });
}

test('provider 5xx at pricing (provider_a): 502 provider_unavailable before anything is stored', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_a', 'providerError');
  const { status, answer } = await attempt(ada, 'provider_a', body);
  t.is(status, 502, JSON.stringify(answer));
  t.is(answer.code, 'provider_unavailable');
  t.is(await bookingByKey(running, ada.userId, body.idempotency_key), undefined);
});

// provider_e is among the shortest booking_timeout_seconds (30 s): the one test here that waits it out.
test('provider timeout (provider_e, after its booking_timeout_seconds): 504 provider_timeout; the authorization is voided, no order', async (t) => {
  t.timeout(90_000);
  const timeout = running.service.providers.capabilities('provider_e').booking_timeout_seconds;
  const { body } = await prepareBooking(running, ada, 'provider_e', 'slow');
  const started = Date.now();
  const { status, answer } = await attempt(ada, 'provider_e', body);
  t.is(status, 504, JSON.stringify(answer));
  t.like(answer, { status_code: 504, code: 'provider_timeout' });
  t.true(Date.now() - started >= timeout * 1000 - 500, 'it waited the provider’s booking timeout');
  const booking = await assertFailed(t, running, ada, body.idempotency_key, 'provider_timeout');
  t.deepEqual(
    (await intentsOf(running, booking.id)).map((intent) => intent.status),
    ['canceled'],
  );
  t.is(await orderOf(running, 'provider_e', booking.id), undefined, 'the provider dropped the call it was too slow for');
});

for (const [number, reason] of [
  ['4000000000000002', 'generic_decline'],
  ['4000000000009995', 'insufficient_funds'],
] as const) {
  test(`a card the bank refuses (${reason}): 402 card_declined with details ${reason}; nothing authorized, no order`, async (t) => {
    const declined = await booker(running, ada.partner, { number });
    const { body } = await prepareBooking(running, declined, 'provider_b', 'nonRefundable');
    const { status, answer } = await attempt(declined, 'provider_b', body);
    t.is(status, 402, JSON.stringify(answer));
    t.like(answer, { status_code: 402, code: 'card_declined', details: reason });
    const booking = await assertFailed(t, running, declined, body.idempotency_key, 'card_declined');
    t.is(booking.payment_intent_id, null, 'no authorization to void');
    const intents = await intentsOf(running, booking.id);
    t.deepEqual(
      intents.map((intent) => intent.status),
      ['requires_payment_method'],
      'the processor kept the refused attempt, holding nothing',
    );
    t.is(intents[0]?.amount_capturable, 0);
    t.is(await orderOf(running, 'provider_b', booking.id), undefined);
  });
}

test('an offer past its expiry (provider_c): 410 offer_expired before anything is stored or authorized', async (t) => {
  const order = await BOOKING_CASES.provider_c?.request(running, 'nonRefundable', 'unused', 'instant') as OrderRequest;
  // The provider's offer, as a partner holds it, lives two seconds more.
  const raw = { ...order.raw, OfferExpirationTimeLimitDateTime: new Date(Date.now() + 2000).toISOString() };
  const offerId = await createOffer(ada, 'provider_c', raw);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const body = bookingBody(offerId, order, ada);
  const { status, answer } = await attempt(ada, 'provider_c', body);
  t.is(status, 410, JSON.stringify(answer));
  t.like(answer, { status_code: 410, code: 'offer_expired' });
  t.is(await bookingByKey(running, ada.userId, body.idempotency_key), undefined);
});

test('an offer the provider says expired at pricing (provider_a’s magic flight): 410 offer_expired, nothing stored', async (t) => {
  const order = await BOOKING_CASES.provider_a?.request(running, 'soldOut', 'unused', 'instant') as OrderRequest;
  const offerId = await createOffer(ada, 'provider_a', providerANative('cdg-dxb-family-eur', MAGIC_FLIGHT_NUMBERS.expired));
  const body = bookingBody(offerId, order, ada);
  const { status, answer } = await attempt(ada, 'provider_a', body);
  t.is(status, 410, JSON.stringify(answer));
  t.is(answer.code, 'offer_expired');
  t.is(await bookingByKey(running, ada.userId, body.idempotency_key), undefined);
});
