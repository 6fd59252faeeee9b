/**
 * The booking tools over /v1/mcp (create_booking, get_booking), as a self-registered agent calls them
 * with a token for the endpoint: from search_flights on provider_d, and from an offer a partner made over
 * REST (provider_b, with a seat from get_seat_map and a bag from get_bags), which the agent's traveler
 * claims. The booking is the traveler's: another traveler's agent reaches neither the offer nor the
 * booking. What the agent leaves out is the traveler's own: the default card, the saved passengers the
 * partner matched to the offer, the profile's contact; what is missing is refused, saying what to send.
 * Each tool needs its scope; provider refusals come back as tool errors with their code. Every purchase
 * waits for the traveler's confirmation on the hosted page (purchase-confirmations.test.ts tests that
 * step in depth): here the traveler's browser confirms and the agent calls again with confirmation_id.
 */
import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { toMinorUnits } from '../core/money/money.js';
import { MAGIC_OFFERS } from '../providers/flights/provider-b/sandbox-catalogue.js';
import { REFUNDABLE_OFFER } from './booking-contract/provider-b.js';
import { TestBrowser } from './helpers/browser.js';
import { intentRecord, sandboxOrder } from './helpers/bookings.js';
import { asPartner, cardTraveler, MASTERCARD, saveCard, saveCardInBrowser } from './helpers/cards.js';
import { jsonOf, type Json } from './helpers/http.js';
import { bookConfirmed, callTool, partnerOffer as sharedPartnerOffer } from './helpers/purchases.js';
import { authorize, clientFor, createPartnerClient, oauth, PARTNER_REDIRECT, registerPublicClient, uniqueEmail, userIdOf, type PartnerClient } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const SCOPES = 'bookings.read bookings.write payments.read payments.write';

let running: RunningService;
let partner: PartnerClient;
const endpoint = () => `${running.url}/v1/mcp`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  partner = await createPartnerClient(running, 'Booking Tools Air');
});
test.after.always(async () => {
  await running?.close();
});

interface Agent {
  client: Client;
  userId: string;
  browser: TestBrowser;
}

/** A traveler's agent with a token for the endpoint: self-registered, or the partner's client for `email`. */
async function agent(options: { scope?: string; partnerClient?: PartnerClient; email?: string } = {}): Promise<Agent> {
  const config = options.partnerClient ? await clientFor(running, options.partnerClient.clientId, oauth.ClientSecretBasic(options.partnerClient.clientSecret)) : await registerPublicClient(running);
  const browser = new TestBrowser(new URL(running.config.authUrl).origin);
  const { tokens } = await authorize(running, config, {
    redirectUri: options.partnerClient ? PARTNER_REDIRECT : 'http://localhost:53682/callback',
    scope: options.scope ?? SCOPES,
    browser,
    traveler: { email: options.email ?? uniqueEmail('booking-agent') },
    extra: { resource: endpoint() },
  });
  const client = new Client({ name: 'booking-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint()), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
  return { client, userId: userIdOf(tokens.access_token), browser };
}

const call = callTool;

const partnerOffer = (nativeId?: string) => sharedPartnerOffer(running, partner.apiKey, nativeId);

const CONTACT = { email: 'ada@example.com', phone_number: '+447700900123', first_name: 'Ada', last_name: 'Lovelace' };
const PASSPORT = (number: string) => [{ type: 'passport', unique_identifier: number, issuing_country_code: 'GB', expires_on: '2034-06-30' }];
const passenger = (id: string, first: string, index: number) => ({
  provider_passenger_id: id,
  first_name: first,
  last_name: 'Lovelace',
  born_on: '1985-12-10',
  gender: 'female',
  identity_documents: PASSPORT(`P55500${index}1`),
});

const ownerOf = async (offerId: string) => (await running.service.db.knex('offers').where({ id: offerId }).first('user_id')).user_id as string | null;

test('a self-registered agent books from search_flights on provider_d, then from a partner’s provider_b offer it claims, with a seat and a bag; another traveler’s agent reaches neither', async (t) => {
  const ada = await agent();
  const defaultCard = await saveCardInBrowser(running, ada.browser, {}, true);
  const otherCard = await saveCardInBrowser(running, ada.browser, { number: MASTERCARD }, false);

  // 1. provider_d: search, offer, book with the default card.
  const search = await call(ada.client, 'search_flights', { origin: 'LHR', destination: 'CDG', departure_date: inDays(21), currency: 'GBP' });
  const created = await call(ada.client, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[0].id });
  const dOffer = created.ok.offer_id;
  const key = `agent-test-${crypto.randomUUID()}`;
  const dInput = { provider_id: 'provider_d', offer_id: dOffer, passengers: [passenger(created.ok.offer.passengers[0].id, 'Ada', 0)], contact: CONTACT, idempotency_key: key };
  const booked = await bookConfirmed(ada.client, ada.browser, dInput);
  t.false(booked.isError, JSON.stringify(booked.error));
  t.is(booked.ok.status, 'confirmed');
  t.like(booked.ok.booking, { status: 'confirmed', provider_id: 'provider_d', flight_offer_id: dOffer, user_id: ada.userId, payment_method_id: defaultCard, card_last4: '4242', idempotency_key: key, currency: 'GBP' });
  t.regex(booked.ok.booking.airline_pnr, /^[A-Z0-9]{6}$/);
  t.is(booked.ok.booking.total_amount, Number(created.ok.offer.total_amount));
  const dIntent = await intentRecord(running, booked.ok.payment_intent_id);
  t.like(dIntent, { status: 'succeeded', currency: 'gbp' });
  t.is(BigInt(dIntent.amount_received), toMinorUnits(created.ok.offer.total_amount, 'GBP'), 'the default card was charged the total');
  t.truthy(await sandboxOrder(running, 'provider_d', booked.ok.booking.provider_order_id), 'provider_d holds the order');
  const read = await call(ada.client, 'get_booking', { provider_id: 'provider_d', booking_id: booked.ok.booking.id });
  t.deepEqual(read.ok, booked.ok, 'get_booking reads it back confirmed');
  const again = await call(ada.client, 'create_booking', dInput);
  t.is(again.ok?.booking.id, booked.ok.booking.id, 'the same key and input answers the first booking, without asking the traveler again');
  t.is(await running.service.db.knex('bookings').where({ user_id: ada.userId }).count('* as n').first().then((row) => Number(row?.n)), 1, 'and books nothing more');
  // The offer expires: a repeat of the key still answers its booking (the request is not rebuilt).
  await running.service.db.knex('offers').where({ id: dOffer }).update({ expires_at: new Date(Date.now() - 60_000) });
  const afterExpiry = await call(ada.client, 'create_booking', dInput);
  t.is(afterExpiry.ok?.booking.id, booked.ok.booking.id, 'a repeat after the offer expired answers the booking');
  const otherOffer = await call(ada.client, 'create_booking', { ...dInput, offer_id: crypto.randomUUID() });
  t.is(otherOffer.error?.code, 'idempotency_conflict', 'the key used for another offer is a conflict');

  // 2. provider_b: the partner's offer, reached by its id and claimed; a seat each and a bag; the named card.
  // The partner listens for booking events: a booking an agent makes through the tools is not its (§14).
  const listening = await fetch(`${running.url}/v1/webhooks`, {
    method: 'POST',
    headers: { 'x-api-key': partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks', events: ['booking.confirmed', 'booking.failed'] }),
  });
  t.is(listening.status, 201);
  const bOffer = await partnerOffer(REFUNDABLE_OFFER);
  const reference = { provider_id: 'provider_b', offer_id: bOffer };
  const details = await call(ada.client, 'get_offer_details', reference);
  t.is(await ownerOf(bOffer), ada.userId, 'the first use claimed the offer for Ada');
  const [first, second] = details.ok.passengers.map((item: Json) => item.id as string);
  const seatMap = (await call(ada.client, 'get_seat_map', reference)).ok.seat_maps[0];
  const free = Object.values(seatMap.seat_map as Record<string, Json>).filter((seat) => seat.is_available);
  const seats = [free.find((seat) => seatMap.pricing[seat.seat_number]), free.find((seat) => !seatMap.pricing[seat.seat_number])] as Json[];
  const bag = (await call(ada.client, 'get_bags', reference)).ok.bags_for_sale[0];
  t.truthy(bag, 'provider_b sells a bag on this fare');
  const bBooked = await bookConfirmed(ada.client, ada.browser, {
    ...reference,
    payment_method_id: otherCard,
    passengers: [passenger(first, 'Ada', 1), passenger(second, 'Augusta', 2)],
    contact: CONTACT,
    seat_selections: [
      { segment_id: seatMap.segment_id, passenger_id: first, seat_number: seats[0]?.seat_number },
      { segment_id: seatMap.segment_id, passenger_id: second, seat_number: seats[1]?.seat_number },
    ],
    bag_selections: [{ id: bag.id, quantity: 1 }],
  });
  t.false(bBooked.isError, JSON.stringify(bBooked.error));
  t.like(bBooked.ok.booking, { status: 'confirmed', user_id: ada.userId, flight_offer_id: bOffer, payment_method_id: otherCard, card_brand: 'mastercard', card_last4: '4444' });
  t.regex(bBooked.ok.booking.idempotency_key, /^agent-/, 'without a key of the agent’s, the tool made one');
  t.is((await running.service.db.knex('bookings').where({ id: bBooked.ok.booking.id }).first()).partner_id, null, 'an agent’s booking has no partner');
  t.is((await running.service.db.knex('webhook_events').whereRaw("data->'booking'->>'id' = ?", [bBooked.ok.booking.id])).length, 0, 'and no webhook event');
  const currency = details.ok.total_currency as string;
  const seatPrice = seatMap.pricing[seats[0]?.seat_number].amount as number;
  const expected = toMinorUnits(details.ok.total_amount, currency) + toMinorUnits(String(seatPrice), currency) + toMinorUnits(bag.total_amount, currency);
  t.is(BigInt((await intentRecord(running, bBooked.ok.payment_intent_id)).amount_received), expected, 'the named card paid the offer, the seat and the bag');
  const bOrder = await sandboxOrder(running, 'provider_b', bBooked.ok.booking.provider_order_id);
  t.true(JSON.stringify(bOrder).includes(bag.id), 'the bag went with the order');
  const stored = await running.service.db.knex('booking_seat_selections').where({ booking_id: bBooked.ok.booking.id }).orderBy('seat_number');
  t.deepEqual(stored.map((row: Json) => row.seat_number).sort(), [seats[0]?.seat_number, seats[1]?.seat_number].sort());

  // 3. Another traveler's agent: the claimed offer is offer_not_found, Ada's booking is not theirs.
  const bob = await agent();
  await saveCardInBrowser(running, bob.browser, {}, true);
  const refused = await call(bob.client, 'create_booking', { ...reference, passengers: [passenger(first, 'Bob', 3), passenger(second, 'Eve', 4)], contact: CONTACT });
  t.true(refused.isError);
  t.is(refused.error.code, 'offer_not_found');
  const notTheirs = await call(bob.client, 'get_booking', { provider_id: 'provider_b', booking_id: bBooked.ok.booking.id });
  t.true(notTheirs.isError);
  t.is(notTheirs.error.code, 'not_booking_owner');
  t.false(JSON.stringify(notTheirs).includes(bBooked.ok.booking.airline_pnr), 'not a word of the booking');
  t.is(await running.service.db.knex('bookings').where({ user_id: bob.userId }).count('* as n').first().then((row) => Number(row?.n)), 0);
  for (const client of [ada.client, bob.client]) await client.close();
});

test('left out, the passengers are the saved ones the partner matched to the offer and the contact is the profile; missing, they are refused saying what to send', async (t) => {
  // Ada is the partner's traveler: over REST she saves passengers, and the partner matches them to its offer.
  const ada = await cardTraveler(running, `${SCOPES} passengers.write profile.read`, partner);
  const cardId = await saveCard(running, ada, {}, true);
  const offerId = await partnerOffer(REFUNDABLE_OFFER);
  const offer = await jsonOf(await asPartner(running, ada, `/v1/flights/providers/provider_b/offers/${offerId}`));
  const [first, second] = offer.passengers.map((item: Json) => item.id as string);
  const saved: string[] = [];
  for (const [name, number] of [['Ada', 'P5550101'], ['Augusta', 'P5550102']] as const) {
    const { id } = await jsonOf(await asPartner(running, ada, '/v1/users/me/passengers', { body: { first_name: name, last_name: 'Lovelace', gender: 'female', date_of_birth: '1985-12-10' } }));
    const document = await asPartner(running, ada, `/v1/users/me/passengers/${id}/documents`, {
      body: { document_type: 'passport', document_number: number, issuing_country_code: 'GB', expires_on: '2034-06-30', is_primary: true },
    });
    t.is(document.status, 201, await document.clone().text());
    saved.push(id);
  }
  const reference = { provider_id: 'provider_b', offer_id: offerId };

  // Her agent (the partner's client, her sign-in) before anything is matched: refused, naming what to send.
  const sameTraveler = await agent({ partnerClient: partner, email: await emailOf(ada.userId) });
  t.is(sameTraveler.userId, ada.userId);
  const unmatched = await call(sameTraveler.client, 'create_booking', reference);
  t.true(unmatched.isError);
  t.is(unmatched.error.code, 'passenger_details_required');
  t.regex(unmatched.error.message, new RegExp(`${first}.*send every passenger`));

  const matched = await asPartner(running, ada, `/v1/flights/providers/provider_b/offers/${offerId}/passengers`, {
    body: { passengers: [{ user_passenger_id: saved[0], provider_passenger_id: first }, { user_passenger_id: saved[1], provider_passenger_id: second }] },
  });
  t.is(matched.status, 200, await matched.clone().text());
  const noPhone = await call(sameTraveler.client, 'create_booking', reference);
  t.is(noPhone.error?.code, 'contact_required', 'the profile has no phone number');
  t.regex(noPhone.error.message, /phone number.*send contact/);
  t.is(await running.service.db.knex('bookings').where({ user_id: ada.userId }).count('* as n').first().then((row) => Number(row?.n)), 0, 'nothing was booked');

  // The phone on her profile stands for a verified contact change (contact-change.test.ts covers that flow).
  await running.service.db.knex('users').where({ id: ada.userId }).update({ phone_number: '+447700900555', first_name: 'Ada', last_name: 'Lovelace' });
  const booked = await bookConfirmed(sameTraveler.client, sameTraveler.browser, { ...reference, idempotency_key: `matched-${crypto.randomUUID()}` });
  t.false(booked.isError, JSON.stringify(booked.error));
  t.like(booked.ok.booking, { status: 'confirmed', user_id: ada.userId, payment_method_id: cardId });
  const passengers = await jsonOf(await asPartner(running, ada, `/v1/users/me/bookings/${booked.ok.booking.id}/passengers`));
  t.deepEqual(
    passengers.map((item: Json) => [item.provider_passenger_id, item.user_passenger_id, item.first_name]).sort(),
    [[first, saved[0], 'Ada'], [second, saved[1], 'Augusta']].sort(),
    'each offer passenger booked as the saved passenger matched to it',
  );
  const row = await running.service.db.knex('bookings').where({ id: booked.ok.booking.id }).first('contact');
  t.deepEqual(row.contact, { email: await emailOf(ada.userId), phone_number: '+447700900555', first_name: 'Ada', last_name: 'Lovelace' }, 'the profile is the contact');
  const order = await sandboxOrder(running, 'provider_b', booked.ok.booking.provider_order_id);
  t.true(JSON.stringify(order).includes('P5550102'), 'the saved passport went with the order');
  await sameTraveler.client.close();
});

test('no default card and none named: refused with what to do', async (t) => {
  const ada = await agent();
  const offerId = await partnerOffer(REFUNDABLE_OFFER);
  const refused = await call(ada.client, 'create_booking', { provider_id: 'provider_b', offer_id: offerId, passengers: [passenger('x', 'Ada', 0)], contact: CONTACT });
  t.true(refused.isError);
  t.is(refused.error.code, 'payment_method_required');
  t.regex(refused.error.message, /list_payment_methods/);
  await ada.client.close();
});

test('a sold-out offer is a tool error with its code, and leaves no authorization held', async (t) => {
  const ada = await agent();
  await saveCardInBrowser(running, ada.browser, {}, true);
  const offerId = await partnerOffer(MAGIC_OFFERS.soldOut);
  const details = await call(ada.client, 'get_offer_details', { provider_id: 'provider_b', offer_id: offerId });
  const passengers = details.ok.passengers.map((item: Json, index: number) => passenger(item.id, `Ada${'a'.repeat(index)}`, index));
  const { ok, error, isError } = await bookConfirmed(ada.client, ada.browser, { provider_id: 'provider_b', offer_id: offerId, passengers, contact: CONTACT });
  t.true(isError);
  t.falsy(ok, 'an error carries no booking');
  t.is(error.code, 'offer_no_longer_available');
  t.regex(error.message, /search again/);
  const row = await running.service.db.knex('bookings').where({ user_id: ada.userId }).first();
  t.is(row.status, 'failed');
  t.like(await intentRecord(running, row.payment_intent_id), { status: 'canceled', amount_capturable: 0 }, 'the authorization was voided');
  await ada.client.close();
});

test('each booking tool needs its scope: bookings.write books, bookings.read reads', async (t) => {
  for (const [scope, tool, args, needed] of [
    ['bookings.read', 'create_booking', { provider_id: 'provider_b', offer_id: crypto.randomUUID() }, 'bookings.write'],
    ['bookings.write payments.read', 'get_booking', { provider_id: 'provider_b', booking_id: crypto.randomUUID() }, 'bookings.read'],
  ] as const) {
    const config = await registerPublicClient(running);
    const { tokens } = await authorize(running, config, { redirectUri: 'http://localhost:53682/callback', scope, traveler: { email: uniqueEmail() }, extra: { resource: endpoint() } });
    const response = await fetch(endpoint(), {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
    });
    t.is(response.status, 403, tool);
    t.like(await jsonOf(response), { error: 'insufficient_scope', scope: needed });
  }
});

async function emailOf(userId: string): Promise<string> {
  return (await running.service.db.knex('users').where({ id: userId }).first('email')).email as string;
}
