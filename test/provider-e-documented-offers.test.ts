/**
 * provider_e's documented bookable offers, exactly as the README's Sandboxes section tells a partner to
 * book one: fetch it from the sandbox with `GET /v3.0/flights/offers/{id}` (key in `X-API-Key`), unwrap
 * `data.offer`, hand it to createProviderOffer, and book it over REST with a saved card. Each id here is
 * one the README names; renaming a fixture breaks this test before it breaks the README.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { departuresOf } from '../core/flights/departure-window.js';
import { asPartner } from './helpers/cards.js';
import { book, booker, type Booker } from './helpers/bookings.js';
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

/** The ids the README documents, with what each is. */
const DOCUMENTED = [
  { id: 'hKFzrWJhMTE3LWxoci1qZmuhZKgyMDI2MDYwMaFjo0dCUKFmqE9MTk5DMFMx', what: 'LHR–JFK BA117', currency: 'GBP', total: '512.46', passengers: 1 },
  { id: 'hKFzrGVrNzYtY2RnLWR4YqFkqDIwMjYwNjE1oWOjRVVSoWaoVExYU0ZGUjE', what: 'CDG–DXB EK76, a family', currency: 'EUR', total: '1523.58', passengers: 3 },
  { id: 'hKFzrWt1Njc1LWt3aS1keGKhZKgyMDI2MDYxMKFjo0tXRKFmplZMT1dLVw', what: 'KWI–DXB KU675', currency: 'KWD', total: '62.450', passengers: 1 },
];

/** Birthdays that keep each type on any day the tests run: years before today. */
const bornYearsAgo = (years: number) => new Date(Date.now() - years * 365.25 * 86_400_000).toISOString().slice(0, 10);
const BORN = { adult: '1986-04-12', child: bornYearsAgo(8), infant_without_seat: bornYearsAgo(0.75) } as Record<string, string>;

for (const documented of DOCUMENTED) {
  test(`provider_e: the documented offer ${documented.what} is fetched as the README says, created and booked over REST → 201 confirmed`, async (t) => {
    // curl -s -H 'x-api-key: liteapi_test_me' .../sandbox/flights/provider_e/v3.0/flights/offers/<id> | jq .data.offer
    const fetched = await fetch(`${running.config.sandboxUrl}/flights/provider_e/v3.0/flights/offers/${documented.id}`, { headers: { 'x-api-key': 'liteapi_test_me' } });
    t.is(fetched.status, 200, `the sandbox serves ${documented.id}`);
    const raw = (await jsonOf(fetched)).data.offer;
    t.is(raw.offerId, documented.id);

    const created = await fetch(`${running.url}/v1/flights/providers/provider_e/offers`, {
      method: 'POST',
      headers: { 'x-api-key': ada.partner.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(raw),
    });
    const createdBody = await jsonOf(created);
    t.is(created.status, 201, JSON.stringify(createdBody));
    const offerId = createdBody.offer_id as string;

    const offer = await jsonOf(await asPartner(running, ada, `/v1/flights/providers/provider_e/offers/${offerId}`));
    t.like(offer, { total_currency: documented.currency, total_amount: documented.total });
    t.is(offer.passengers.length, documented.passengers);

    const body = {
      offer_id: offerId,
      passengers: offer.passengers.map((passenger: Json, index: number) => ({
        provider_passenger_id: passenger.id,
        first_name: ['Ada', 'Byron', 'Allegra'][index],
        last_name: 'Lovelace',
        born_on: BORN[passenger.type],
        gender: index === 1 ? 'male' : 'female',
        identity_documents: [{ type: 'passport', unique_identifier: `53340123${index}`, issuing_country_code: 'GB', expires_on: '2031-04-30' }],
      })),
      contact_info: { email: 'ada@example.com', phone_number: '+447700900123', first_name: 'Ada', last_name: 'Lovelace' },
      payment_method_id: ada.cardId,
      currency: documented.currency,
      user_id: 'me',
      idempotency_key: `documented-${randomUUID()}`,
    };
    const booked = await book(running, ada, 'provider_e', body);
    const answer = await jsonOf(booked);
    t.is(booked.status, 201, JSON.stringify(answer));
    t.is(answer.status, 'confirmed');
    t.like(answer.booking, { status: 'confirmed', provider_id: 'provider_e', flight_offer_id: offerId, currency: documented.currency, total_amount: Number(documented.total) });
    t.regex(answer.booking.airline_pnr, /^[A-Z0-9]{6}$/);
    t.true((departuresOf(offer)[0]?.at.getTime() ?? 0) > Date.now(), 'the booked offer departs after now');
  });
}
