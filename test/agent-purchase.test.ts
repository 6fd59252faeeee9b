/**
 * The whole purchase as an agent that knows only the endpoint's URL makes it, once for each revision the
 * endpoint serves (issue 14's "done when"):
 *
 * - 2026-07-28: the SDK v2's Client, pinned to that revision, declaring URL elicitation. create_booking
 *   answers input-required with our confirmation page's URL; the client's elicitation handler is where
 *   the traveler goes to the page: a headless Chromium, signed in as the same traveler, confirms there;
 *   the SDK retries the call with the signed requestState and the booking is made.
 * - 2025-11-25: the v1 SDK's Client (initialize). create_booking answers the tool error
 *   confirmation_required with needs_user and the page's URL; the traveler confirms in Chromium; the
 *   agent calls again with confirmation_id and the booking is made.
 *
 * Each agent discovers the metadata from the 401, registers itself, sends the traveler through sign-in
 * and consent, searches, builds an offer (provider_d), reads the bags and the seat map (provider_d sells
 * no seats), gives the passengers and a bag, and buys; then buys a partner's provider_b offer with two
 * passengers, a priced seat and a bag. The processor sandbox shows, for each booking, one authorization
 * captured once for exactly the total confirmed.
 */
import test from 'ava';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError as ModernUnauthorizedError,
  type ElicitRequest,
} from '@modelcontextprotocol/client';
import { UnauthorizedError as LegacyUnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { fromMinorUnits, toMinorUnits } from '../core/money/money.js';
import { AgentAuth } from './helpers/agent-auth.js';
import { intentsOf } from './helpers/booking-records.js';
import { TestBrowser } from './helpers/browser.js';
import { saveCardInBrowser } from './helpers/cards.js';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import type { Json } from './helpers/http.js';
import { createPartnerClient, travelerAuthorizes, uniqueEmail, type PartnerClient } from './helpers/oauth.js';
import { partnerOffer, signInOnConfirmationPage } from './helpers/purchases.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let chromium: Browser | undefined;
let partner: PartnerClient;
const endpoint = () => `${running.url}/v1/mcp`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  chromium = await launchChromium();
  partner = await createPartnerClient(running, 'Seat Seller Air');
});
test.after.always(async () => {
  await chromium?.close();
  await running?.close();
});

interface Agent {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<object>;
  close(): Promise<void>;
}

/** A tool's structured answer, or its error body. */
async function call(agent: Agent, name: string, args: Record<string, unknown>): Promise<{ ok: Json; error: Json }> {
  const result = (await agent.callTool({ name, arguments: args })) as { isError?: boolean; content?: unknown; structuredContent?: Json };
  if (result.isError) return { ok: undefined, error: JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}').error };
  return { ok: result.structuredContent, error: undefined };
}

/** The traveler, in a headless Chromium of their own: signs in on the page the agent gave them and confirms. */
async function confirmInChromium(url: string, email: string): Promise<string> {
  const context = await (chromium as Browser).newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    await signInOnConfirmationPage(page, running.url, email);
    const shown = (await page.textContent('main')) ?? '';
    await page.getByRole('button', { name: /^Confirm and pay / }).click();
    await page.getByRole('heading', { name: 'Purchase confirmed' }).waitFor();
    return shown;
  } finally {
    await context.close();
  }
}

/**
 * Everything up to the purchase: the traveler signs in and consents (and, in their own session, saves a
 * card); the agent searches, builds an offer, reads its bags and seats, and says who travels.
 */
async function planTrip(agent: Agent, t: { is: (a: unknown, b: unknown, m?: string) => void }) {
  const search = await call(agent, 'search_flights', { origin: 'LHR', destination: 'JFK', departure_date: inDays(40), currency: 'GBP' });
  const created = await call(agent, 'create_offer', { search_id: search.ok.search_id, result_id: search.ok.offers[0].id });
  const offer = created.ok.offer;
  const bags = await call(agent, 'get_bags', { provider_id: 'provider_d', offer_id: created.ok.offer_id });
  const bag = bags.ok.bags_for_sale[0];
  const seats = await call(agent, 'get_seat_map', { provider_id: 'provider_d', offer_id: created.ok.offer_id });
  // provider_d sells no seats (its capabilities say so): the agent learns it before asking for one.
  t.is(seats.error?.code, 'seat_selection_not_supported');
  const input = {
    provider_id: 'provider_d',
    offer_id: created.ok.offer_id,
    passengers: [
      {
        provider_passenger_id: offer.passengers[0].id,
        first_name: 'Grace',
        last_name: 'Hopper',
        born_on: '1986-12-09',
        gender: 'female',
        identity_documents: [{ type: 'passport', unique_identifier: 'P7770001', issuing_country_code: 'US', expires_on: '2035-01-31' }],
      },
    ],
    contact: { email: 'grace@example.com', phone_number: '+12025550123', first_name: 'Grace', last_name: 'Hopper' },
    bag_selections: [{ id: bag.id, quantity: 1 }],
    expected_total: { amount: fromMinorUnits(toMinorUnits(offer.total_amount, 'GBP') + toMinorUnits(bag.total_amount, 'GBP'), 'GBP'), currency: 'GBP' },
    idempotency_key: `trip-${crypto.randomUUID()}`,
  };
  return { input, total: input.expected_total.amount };
}

/**
 * Seats are sold by providers the search tool does not reach: a partner makes a provider_b offer over
 * REST and hands its id to the agent, whose traveler claims it on first use. The agent picks a priced
 * seat from the seat map and a bag, and expects the total with both.
 */
async function seatAndBagPurchase(agent: Agent): Promise<{ input: Record<string, unknown>; total: string; currency: string }> {
  const reference = { provider_id: 'provider_b', offer_id: await partnerOffer(running, partner.apiKey) };
  const offer = (await call(agent, 'get_offer_details', reference)).ok;
  const seatMap = (await call(agent, 'get_seat_map', reference)).ok.seat_maps[0];
  const seat = Object.values(seatMap.seat_map as Record<string, Json>).find((candidate) => candidate.is_available && seatMap.pricing[candidate.seat_number]) as Json;
  const bag = (await call(agent, 'get_bags', reference)).ok.bags_for_sale[0];
  const currency = offer.total_currency as string;
  const totalMinor = toMinorUnits(offer.total_amount, currency) + toMinorUnits(String(seatMap.pricing[seat.seat_number].amount), currency) + toMinorUnits(bag.total_amount, currency);
  const total = fromMinorUnits(totalMinor, currency);
  const [first, second] = offer.passengers.map((passenger: Json) => passenger.id as string);
  const passport = (number: string) => [{ type: 'passport', unique_identifier: number, issuing_country_code: 'US', expires_on: '2035-01-31' }];
  const input = {
    ...reference,
    passengers: [
      { provider_passenger_id: first, first_name: 'Grace', last_name: 'Hopper', born_on: '1986-12-09', gender: 'female', identity_documents: passport('P7770002') },
      { provider_passenger_id: second, first_name: 'Vincent', last_name: 'Hopper', born_on: '1985-03-02', gender: 'male', identity_documents: passport('P7770003') },
    ],
    contact: { email: 'grace@example.com', phone_number: '+12025550123', first_name: 'Grace', last_name: 'Hopper' },
    seat_selections: [{ segment_id: seatMap.segment_id, passenger_id: first, seat_number: seat.seat_number }],
    bag_selections: [{ id: bag.id, quantity: 1 }],
    expected_total: { amount: total, currency },
    idempotency_key: `seat-${crypto.randomUUID()}`,
  };
  return { input, total, currency };
}

/** One authorization of the booking, captured once for exactly `total`. */
async function assertOneCapture(t: { is: (a: unknown, b: unknown, m?: string) => void }, bookingId: string, total: string, currency = 'GBP') {
  const intents = await intentsOf(running, bookingId);
  t.is(intents.length, 1, 'one authorization');
  t.is(intents[0].status, 'succeeded');
  t.is(BigInt(intents[0].amount_received), toMinorUnits(total, currency), 'captured once, the total confirmed');
}

test('2026-07-28: discover, register, sign in, plan, create_booking → input-required URL → confirmed in Chromium → the retry books', async (t) => {
  if (!chromium) return t.fail(CHROMIUM_MISSING);
  const email = uniqueEmail('modern-buyer');
  const auth = new AgentAuth('Trip planner');
  const traveler = new TestBrowser(new URL(running.config.authUrl).origin);
  const elicited: ElicitRequest['params'][] = [];
  let pageText = '';
  const connect = async () => {
    const client = new ModernClient({ name: 'trip-planner', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { url: {} } } });
    // Where a real client opens the URL for its user: here the traveler confirms in Chromium.
    client.setRequestHandler('elicitation/create', async (request) => {
      elicited.push(request.params);
      if (request.params.mode === 'url') pageText = await confirmInChromium(request.params.url, email);
      return { action: 'accept' };
    });
    await client.connect(new ModernTransport(new URL(endpoint()), { authProvider: auth }));
    return client;
  };
  await t.throwsAsync(connect(), { instanceOf: ModernUnauthorizedError });
  const consent = await travelerAuthorizes(running, traveler, auth.authorizationUrl as URL, { email });
  await new ModernTransport(new URL(endpoint()), { authProvider: auth }).finishAuth((consent.redirectedTo as URL).searchParams);
  const client = await connect();
  t.is(client.getProtocolEra(), 'modern');
  await saveCardInBrowser(running, traveler, {}, true);

  const { input, total } = await planTrip(client, t);
  const booked = await call(client, 'create_booking', input);
  t.falsy(booked.error, JSON.stringify(booked.error));
  t.is(elicited.length, 1, 'one confirmation asked');
  const [asked] = elicited as [Extract<ElicitRequest['params'], { mode: 'url' }>];
  t.is(asked.mode, 'url');
  t.regex(asked.url, new RegExp(`^${running.config.authUrl}/confirm/[0-9a-f-]{36}$`));
  for (const text of ['Grace Hopper', 'ending in 4242', `${total} GBP`, 'Trip planner']) t.true(pageText.includes(text), `the page shows “${text}”`);
  t.regex(pageText, /LHR → ([A-Z]{3} → )*JFK/, 'the page shows the route, with any stops');

  t.is(booked.ok.booking.status, 'confirmed');
  t.is(booked.ok.booking.total_amount, Number(total));
  const confirmation = await running.service.db.knex('purchase_confirmations').where({ id: asked.url.slice(-36) }).first();
  t.like(confirmation, { status: 'used', booking_id: booked.ok.booking.id });
  await assertOneCapture(t, booked.ok.booking.id, total);

  const seated = await seatAndBagPurchase(client);
  const seatBooked = await call(client, 'create_booking', seated.input);
  t.falsy(seatBooked.error, JSON.stringify(seatBooked.error));
  t.is(elicited.length, 2, 'the second purchase was confirmed on its own page');
  t.true(pageText.includes('Vincent Hopper') && pageText.includes(`${seated.total} ${seated.currency}`), 'the page showed both passengers and the total with the seat and the bag');
  t.is(seatBooked.ok.booking.status, 'confirmed');
  await assertOneCapture(t, seatBooked.ok.booking.id, seated.total, seated.currency);
  await client.close();
});

test('2025-11-25: initialize, register, sign in, plan, create_booking → confirmation_required with the URL → confirmed in Chromium → the call with confirmation_id books', async (t) => {
  if (!chromium) return t.fail(CHROMIUM_MISSING);
  const email = uniqueEmail('legacy-buyer');
  const auth = new AgentAuth('Trip planner');
  const traveler = new TestBrowser(new URL(running.config.authUrl).origin);
  const connect = async () => {
    const client = new LegacyClient({ name: 'trip-planner', version: '1.0.0' });
    await client.connect(new LegacyTransport(new URL(endpoint()), { authProvider: auth }));
    return client;
  };
  await t.throwsAsync(connect(), { instanceOf: LegacyUnauthorizedError });
  const consent = await travelerAuthorizes(running, traveler, auth.authorizationUrl as URL, { email });
  await new LegacyTransport(new URL(endpoint()), { authProvider: auth }).finishAuth(consent.redirectedTo?.searchParams.get('code') as string);
  const client = await connect();
  t.is(client.getServerVersion()?.name, 'travel-partner');
  await saveCardInBrowser(running, traveler, {}, true);

  const { input, total } = await planTrip(client, t);
  const asked = await call(client, 'create_booking', input);
  t.like(asked.error, { code: 'confirmation_required', needs_user: true, retryable: false, doc_url: `${running.config.baseUrl}/docs/errors#confirmation_required` });
  t.is(asked.error.confirmation_url, `${running.config.authUrl}/confirm/${asked.error.confirmation_id}`);
  t.deepEqual(await intentsOfUser(email), [], 'no card touched before the confirmation');

  const pageText = await confirmInChromium(asked.error.confirmation_url, email);
  t.true(pageText.includes(`${total} GBP`));
  const booked = await call(client, 'create_booking', { ...input, confirmation_id: asked.error.confirmation_id });
  t.falsy(booked.error, JSON.stringify(booked.error));
  t.is(booked.ok.booking.status, 'confirmed');
  await assertOneCapture(t, booked.ok.booking.id, total);

  // The confirmation paid for this booking: used again (under another key) it books nothing.
  const replay = await call(client, 'create_booking', { ...input, idempotency_key: `trip-${crypto.randomUUID()}`, confirmation_id: asked.error.confirmation_id });
  t.is(replay.error?.code, 'confirmation_used');
  t.is((await intentsOfUser(email)).length, 1, 'still the one authorization');

  const seated = await seatAndBagPurchase(client);
  const seatAsked = await call(client, 'create_booking', seated.input);
  t.is(seatAsked.error?.code, 'confirmation_required');
  t.true((await confirmInChromium(seatAsked.error.confirmation_url, email)).includes(`${seated.total} ${seated.currency}`));
  const seatBooked = await call(client, 'create_booking', { ...seated.input, confirmation_id: seatAsked.error.confirmation_id });
  t.falsy(seatBooked.error, JSON.stringify(seatBooked.error));
  await assertOneCapture(t, seatBooked.ok.booking.id, seated.total, seated.currency);
  await client.close();
});

/** Every payment intent of the traveler's bookings. */
async function intentsOfUser(email: string): Promise<Json[]> {
  const user = await running.service.db.knex('users').where({ email }).first();
  const bookings = await running.service.db.knex('bookings').where({ user_id: user.id });
  return (await Promise.all(bookings.map((booking: Json) => intentsOf(running, booking.id)))).flat();
}
