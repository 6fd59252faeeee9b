/**
 * Purchase confirmation enforced by the server (issue 14, decisions §10), through the create_booking tool
 * on /v1/mcp and the hosted page at {AUTH_URL}/confirm/{id} with the traveler's own session cookies.
 * The agent reads confirmation_url and confirmation_id from the tool error, as a client without URL
 * elicitation does. "No authorization" is asserted where it is made: the processor sandbox holds no
 * payment intent for any booking of the traveler.
 *
 * Also the spending limits the traveler set for the agent (per booking, rolling 30 days, their
 * currency), refused before any card is touched, and expected_total (stable quotes) over REST and the tool.
 */
import test from 'ava';
import { systemClock } from '../core/clock.js';
import { toMinorUnits } from '../core/money/money.js';
import { SpendingLimits } from '../core/purchases/spending-limits.js';
import { MAGIC_OFFERS } from '../providers/flights/provider-b/sandbox-catalogue.js';
import { REFUNDABLE_OFFER } from './booking-contract/provider-b.js';
import { intentsOf } from './helpers/booking-records.js';
import { book, booker, prepareBooking } from './helpers/bookings.js';
import { TestBrowser } from './helpers/browser.js';
import { asPartner, cardTraveler, MASTERCARD, saveCard, saveCardInBrowser } from './helpers/cards.js';
import { jsonOf, type Json } from './helpers/http.js';
import { createPartnerClient, type PartnerClient } from './helpers/oauth.js';
import { AGENT_SCOPES as SCOPES, bookConfirmed, callTool as call, CONTACT, decideOnPage, openConfirmation, partnerOffer as sharedPartnerOffer, passenger, toolAgent, type ToolAgent } from './helpers/purchases.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partner: PartnerClient;
let limits: SpendingLimits;
const knex = () => running.service.db.knex;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  partner = await createPartnerClient(running, 'Confirmation Air');
  limits = new SpendingLimits({ db: knex(), clock: systemClock });
});
test.after.always(async () => {
  await running?.close();
});

type Agent = ToolAgent;
const agent = (options: { email?: string; partnerClient?: PartnerClient } = {}) => toolAgent(running, options);

/** A traveler's agent whose traveler has a default card (Visa 4242). */
async function agentWithCard(options: { email?: string } = {}): Promise<Agent & { cardId: string }> {
  const who = await agent(options);
  return { ...who, cardId: await saveCardInBrowser(running, who.browser, {}, true) };
}

const partnerOffer = (nativeId?: string) => sharedPartnerOffer(running, partner.apiKey, nativeId);


/** create_booking's arguments for a new provider_b offer, its two passengers named; and the offer as the agent reads it. */
async function purchase(who: Agent, nativeId = REFUNDABLE_OFFER): Promise<{ args: Record<string, unknown>; details: Json }> {
  const offerId = await partnerOffer(nativeId);
  const details = (await call(who.client, 'get_offer_details', { provider_id: 'provider_b', offer_id: offerId })).ok;
  const passengers = details.passengers.map((item: Json, index: number) => passenger(item.id, ['Ada', 'Augusta'][index] ?? `Ada${index}`, index));
  return { args: { provider_id: 'provider_b', offer_id: offerId, passengers, contact: CONTACT }, details };
}

/** Every payment intent the processor sandbox made for any booking of the traveler. */
async function intentsOfTraveler(userId: string): Promise<Json[]> {
  const bookings: { id: string }[] = await knex()('bookings').where({ user_id: userId }).select('id');
  return (await Promise.all(bookings.map((booking) => intentsOf(running, booking.id)))).flat();
}

const bookingsOf = async (userId: string) => Number((await knex()('bookings').where({ user_id: userId }).count('* as n').first())?.n);
const confirmationRow = (id: string) => knex()('purchase_confirmations').where({ id }).first();

test('confirm, then book: the tool asks, the page shows the purchase from our records, and the retry books it with one capture of the confirmed total', async (t) => {
  const ada = await agentWithCard();
  const { args, details } = await purchase(ada);
  const reference = { provider_id: 'provider_b', offer_id: args.offer_id };
  const seatMap = (await call(ada.client, 'get_seat_map', reference)).ok.seat_maps[0];
  const paidSeat = Object.values(seatMap.seat_map as Record<string, Json>).find((seat) => seat.is_available && seatMap.pricing[seat.seat_number]);
  const bag = (await call(ada.client, 'get_bags', reference)).ok.bags_for_sale[0];
  const [first] = details.passengers.map((item: Json) => item.id as string);
  const input = {
    ...args,
    seat_selections: [{ segment_id: seatMap.segment_id, passenger_id: first, seat_number: paidSeat?.seat_number }],
    bag_selections: [{ id: bag.id, quantity: 1 }],
    idempotency_key: `confirmed-${crypto.randomUUID()}`,
  };
  const currency = details.total_currency as string;
  const totalMinor = toMinorUnits(details.total_amount, currency) + toMinorUnits(String(seatMap.pricing[paidSeat?.seat_number].amount), currency) + toMinorUnits(bag.total_amount, currency);

  // 1. The first call asks for the traveler's confirmation: nothing stored as a booking, nothing authorized.
  const before = Date.now();
  const asked = await call(ada.client, 'create_booking', input);
  t.true(asked.isError);
  t.is(asked.error.code, 'confirmation_required');
  const id = asked.error.confirmation_id as string;
  t.is(asked.error.confirmation_url, `${running.config.authUrl}/confirm/${id}`);
  const expiresIn = Date.parse(asked.error.expires_at) - before;
  t.true(expiresIn > 14 * 60_000 && expiresIn <= 15 * 60_000 + 5_000, `15 minutes to live (${expiresIn} ms)`);
  t.true(asked.error.message.includes(asked.error.confirmation_url), 'the message names the page to show the traveler');
  t.is(await bookingsOf(ada.userId), 0, 'no booking was stored');
  const stored = await confirmationRow(id);
  t.like(stored, { status: 'pending', user_id: ada.userId, client_id: ada.clientId, offer_id: args.offer_id, currency });
  t.is(BigInt(stored.amount_minor), totalMinor, 'bound to the total, seat and bag included');
  const again = await call(ada.client, 'create_booking', input);
  t.is(again.error?.confirmation_id, id, 'asking again for the same purchase answers the same confirmation');

  // 2. Not confirmed yet: the same confirmation, still pending, with its URL.
  const pending = await call(ada.client, 'create_booking', { ...input, confirmation_id: id });
  t.like(pending.error, { code: 'confirmation_pending', confirmation_id: id, confirmation_url: asked.error.confirmation_url });
  t.deepEqual(await intentsOfTraveler(ada.userId), []);

  // 3. The page, on the traveler's session: what is bought, from our records.
  const page = await openConfirmation(ada.browser, asked.error.confirmation_url);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-security-policy') ?? '', /default-src 'none'.*form-action 'self'.*frame-ancestors 'none'/);
  t.is(page.headers.get('x-frame-options'), 'DENY');
  t.is(page.headers.get('cache-control'), 'no-store');
  const slice = details.slices[0];
  for (const shown of [
    'Confirm your purchase',
    'Test agent',
    `${slice.origin.iata_code} → ${slice.destination.iata_code}`,
    `${slice.segments[0].marketing_carrier.iata_code} ${slice.segments[0].marketing_carrier_flight_number}`,
    'Ada Lovelace',
    'Augusta Lovelace',
    `seat ${paidSeat?.seat_number}`,
    `1 × ${bag.name ?? bag.type}`,
    'Visa card ending in 4242',
    `<th scope="row">Fare</th><td>${details.base_amount} ${currency}</td>`,
    `<th scope="row">Taxes and fees</th><td>${details.tax_amount} ${currency}</td>`,
    `<th scope="row">Bags and extras</th><td>${bag.total_amount} ${currency}</td>`,
    ada.email,
    `${asked.error.expires_at.slice(0, 10)} ${asked.error.expires_at.slice(11, 16)} UTC`,
  ]) {
    t.true(page.html.includes(shown), `the page shows “${shown}”`);
  }
  const totalShown = (await confirmationRow(id)).summary.total.total_amount;
  t.is(toMinorUnits(totalShown, currency), totalMinor);
  t.true(page.html.includes(`Confirm and pay ${totalShown} ${currency}`), 'the button names the total');

  // 4. Confirm: the page says so; the retry books, once, for the confirmed total.
  const confirmed = await ada.browser.submit(page, '/confirm', {});
  t.true('html' in confirmed && confirmed.html.includes('Purchase confirmed'));
  t.is((await confirmationRow(id)).status, 'confirmed');
  const booked = await call(ada.client, 'create_booking', { ...input, confirmation_id: id });
  t.false(booked.isError, JSON.stringify(booked.error));
  t.like(booked.ok.booking, { status: 'confirmed', user_id: ada.userId, card_last4: '4242' });
  const intents = await intentsOfTraveler(ada.userId);
  t.is(intents.length, 1, 'one authorization');
  t.like(intents[0], { status: 'succeeded' });
  t.is(BigInt(intents[0].amount_received), totalMinor, 'one capture, of the confirmed total');
  t.like(await confirmationRow(id), { status: 'used', booking_id: booked.ok.booking.id });

  // 5. A repeat of the key answers the booking; another key with the used confirmation is refused.
  const repeat = await call(ada.client, 'create_booking', { ...input, confirmation_id: id });
  t.is(repeat.ok?.booking.id, booked.ok.booking.id);
  const replay = await call(ada.client, 'create_booking', { ...input, confirmation_id: id, idempotency_key: `replay-${crypto.randomUUID()}` });
  t.is(replay.error?.code, 'confirmation_used');
  t.is((await intentsOfTraveler(ada.userId)).length, 1, 'no second authorization');
  t.is(await bookingsOf(ada.userId), 1);
  const usedPage = await openConfirmation(ada.browser, asked.error.confirmation_url);
  t.is(usedPage.status, 200);
  t.true(usedPage.html.includes('Purchase booked'));
  t.false(usedPage.html.includes('action="/confirm/'), 'no decision can be made any more');
  await ada.client.close();
});

test('declining: the page says so, the agent is refused with confirmation_declined, and nothing is authorized', async (t) => {
  const ada = await agentWithCard();
  const { args } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  const landed = await decideOnPage(ada.browser, asked.error.confirmation_url, 'decline');
  t.true(landed.html.includes('Purchase declined'));
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'declined');
  const refused = await call(ada.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  t.is(refused.error?.code, 'confirmation_declined');
  t.regex(refused.error.message, /do not book it/);
  // A Confirm sent afterwards (an old tab) changes nothing.
  const late = await ada.browser.submit(landed, '/confirm', {}).catch(() => undefined);
  t.falsy(late, 'a declined page offers no Confirm');
  const forced = await ada.browser.open(`${asked.error.confirmation_url}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf: /name="csrf" value="([^"]+)"/.exec(landed.html)?.[1] ?? '' }).toString(),
  });
  t.true('html' in forced && forced.html.includes('Purchase declined'));
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'declined');
  t.is(await bookingsOf(ada.userId), 0);
  t.deepEqual(await intentsOfTraveler(ada.userId), []);
  await ada.client.close();
});

test('a confirmation that expired is refused with confirmation_expired (410 on the page), confirmed or not, and nothing is authorized', async (t) => {
  const ada = await agentWithCard();
  const { args } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  await decideOnPage(ada.browser, asked.error.confirmation_url);
  // Fifteen minutes pass (the access token would not outlive them: the row's expiry is moved instead).
  await knex()('purchase_confirmations').where({ id: asked.error.confirmation_id }).update({ expires_at: new Date(Date.now() - 1000) });
  const expired = await call(ada.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  t.is(expired.error?.code, 'confirmation_expired');
  t.regex(expired.error.message, /without confirmation_id/);
  const page = await openConfirmation(ada.browser, asked.error.confirmation_url);
  t.is(page.status, 410);
  t.true(page.html.includes('This confirmation expired'));
  t.false(page.html.includes('action="/confirm/'), 'an expired confirmation cannot be decided');

  // A pending one expires too: Confirm then changes nothing.
  const fresh = await call(ada.client, 'create_booking', args);
  t.not(fresh.error.confirmation_id, asked.error.confirmation_id, 'a new call asks anew');
  const freshPage = await openConfirmation(ada.browser, fresh.error.confirmation_url);
  await knex()('purchase_confirmations').where({ id: fresh.error.confirmation_id }).update({ expires_at: new Date(Date.now() - 1000) });
  const late = await ada.browser.submit(freshPage, '/confirm', {});
  t.true('status' in late && late.status === 410);
  t.is((await confirmationRow(fresh.error.confirmation_id)).status, 'pending');
  t.is((await call(ada.client, 'create_booking', { ...args, confirmation_id: fresh.error.confirmation_id })).error?.code, 'confirmation_expired');
  t.is(await bookingsOf(ada.userId), 0);
  t.deepEqual(await intentsOfTraveler(ada.userId), []);
  await ada.client.close();
});

test('another traveler cannot see or decide the confirmation (403, it stays pending), and the booking still needs its traveler', async (t) => {
  const ada = await agentWithCard();
  const bob = await agent();
  const { args } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  const url = asked.error.confirmation_url as string;
  const adaPage = await openConfirmation(ada.browser, url);

  const bobPage = await openConfirmation(bob.browser, url);
  t.is(bobPage.status, 403);
  t.true(bobPage.html.includes('belongs to another Travel Partner account'));
  t.true(bobPage.html.includes(bob.email));
  for (const secret of ['Ada Lovelace', 'Augusta', '4242', String(args.offer_id)]) t.false(bobPage.html.includes(secret), `nothing of the purchase (${secret})`);
  // Even with Ada's form token (lifted from her page), Bob's browser changes nothing.
  for (const decision of ['confirm', 'decline']) {
    const posted = await bob.browser.open(`${url}/${decision}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: /name="csrf" value="([^"]+)"/.exec(adaPage.html)?.[1] ?? '' }).toString(),
    });
    t.true('status' in posted && posted.status === 403, decision);
  }
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'pending');
  const still = await call(ada.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  t.is(still.error?.code, 'confirmation_pending', 'the booking still needs Ada');

  // A form without this session's token (another site's) changes nothing either.
  const forged = await ada.browser.open(`${url}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrf=forged' });
  t.true('html' in forged && forged.html.includes('Confirm your purchase'));
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'pending');
  t.is(await bookingsOf(ada.userId), 0);
  t.deepEqual(await intentsOfTraveler(ada.userId), []);

  // Not signed in: the page signs the traveler in first.
  const stranger = new TestBrowser(new URL(running.config.authUrl).origin);
  const signIn = await stranger.open(url);
  t.true('html' in signIn && signIn.html.includes('name="email"'), 'a browser without a session is sent to sign in');
  for (const client of [ada.client, bob.client]) await client.close();
});

test('another agent, of the same traveler or of another, cannot use the traveler’s confirmation: confirmation_not_found, as for an unknown id', async (t) => {
  const ada = await agentWithCard();
  const { args } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  await decideOnPage(ada.browser, asked.error.confirmation_url);

  const adasOtherAgent = await agent({ email: ada.email });
  t.is(adasOtherAgent.userId, ada.userId);
  t.not(adasOtherAgent.clientId, ada.clientId);
  const refused = await call(adasOtherAgent.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  t.is(refused.error?.code, 'confirmation_not_found', 'another agent of Ada');
  // Bob's agent, buying its own offer with Ada's confirmation.
  const bob = await agentWithCard();
  const bobs = await purchase(bob);
  const notBobs = await call(bob.client, 'create_booking', { ...bobs.args, confirmation_id: asked.error.confirmation_id });
  t.is(notBobs.error?.code, 'confirmation_not_found', 'Bob’s agent');
  t.deepEqual(await intentsOfTraveler(bob.userId), []);
  const unknown = await call(adasOtherAgent.client, 'create_booking', { ...args, confirmation_id: crypto.randomUUID() });
  t.is(unknown.error?.code, 'confirmation_not_found');
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'confirmed', 'still Ada’s agent’s to use');
  t.is(await bookingsOf(ada.userId), 0);
  t.deepEqual(await intentsOfTraveler(ada.userId), []);
  const booked = await call(ada.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  t.false(booked.isError, JSON.stringify(booked.error));
  for (const client of [ada.client, adasOtherAgent.client, bob.client]) await client.close();
});

test('the price changes after confirming (the provider prices the offer higher): confirmation_outdated saying so, with a fresh confirmation, and nothing authorized', async (t) => {
  // Ada is the partner's traveler (its key and her token price offers over REST); her agent is the partner's client.
  const ada = await cardTraveler(running, `${SCOPES} profile.read`, partner);
  await saveCard(running, ada, {}, true);
  const adaAgent = await agent({ partnerClient: partner, email: ada.email });
  const { args, details } = await purchase(adaAgent, MAGIC_OFFERS.priceChange);
  const asked = await call(adaAgent.client, 'create_booking', args);
  await decideOnPage(adaAgent.browser, asked.error.confirmation_url);

  const priced = await jsonOf(await asPartner(running, ada, `/v1/flights/providers/provider_b/offers/${args.offer_id}/pricing`, { body: {} }));
  t.true(priced.price_changed, JSON.stringify(priced));
  const outdated = await call(adaAgent.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  t.is(outdated.error?.code, 'confirmation_outdated');
  t.true(outdated.error.message.includes(`the total (${details.total_amount} ${details.total_currency}, now ${priced.offer.total_amount} ${priced.offer.total_currency})`), outdated.error.message);
  t.not(outdated.error.confirmation_id, asked.error.confirmation_id, 'a fresh confirmation for the purchase as it is now');
  t.is(outdated.error.confirmation_url, `${running.config.authUrl}/confirm/${outdated.error.confirmation_id}`);
  t.is(await bookingsOf(ada.userId), 0);
  t.deepEqual(await intentsOfTraveler(ada.userId), []);
  const freshPage = await openConfirmation(adaAgent.browser, outdated.error.confirmation_url);
  t.true(freshPage.html.includes(`${priced.offer.total_amount} ${priced.offer.total_currency}`), 'the fresh page shows the new total');
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'confirmed', 'the old one stays unused');
  await adaAgent.client.close();
});

test('the passengers or the card change after confirming: confirmation_outdated naming them; the fresh confirmation, confirmed, books once', async (t) => {
  const ada = await agentWithCard();
  const otherCard = await saveCardInBrowser(running, ada.browser, { number: MASTERCARD }, false);
  const { args } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  await decideOnPage(ada.browser, asked.error.confirmation_url);
  const id = asked.error.confirmation_id;

  const renamed = (args.passengers as Json[]).map((item, index) => (index === 0 ? { ...item, first_name: 'Ida' } : item));
  const passengers = await call(ada.client, 'create_booking', { ...args, passengers: renamed, confirmation_id: id });
  t.is(passengers.error?.code, 'confirmation_outdated');
  t.regex(passengers.error.message, /the passengers changed since/);
  const card = await call(ada.client, 'create_booking', { ...args, payment_method_id: otherCard, confirmation_id: id });
  t.is(card.error?.code, 'confirmation_outdated');
  t.regex(card.error.message, /the card \(visa 4242, now mastercard 4444\) changed since/);
  t.deepEqual(await intentsOfTraveler(ada.userId), [], 'no authorization');
  t.is((await confirmationRow(id)).status, 'confirmed');

  const freshPage = await openConfirmation(ada.browser, passengers.error.confirmation_url);
  t.true(freshPage.html.includes('Ida Lovelace'), 'the fresh page shows the passengers as they are now');
  await ada.browser.submit(freshPage, '/confirm', {});
  const booked = await call(ada.client, 'create_booking', { ...args, passengers: renamed, confirmation_id: passengers.error.confirmation_id });
  t.false(booked.isError, JSON.stringify(booked.error));
  const intents = await intentsOfTraveler(ada.userId);
  t.is(intents.length, 1);
  t.is(intents[0].status, 'succeeded');
  await ada.client.close();
});

test('two bookings racing with one confirmation: one books, the other is confirmation_used, one authorization', async (t) => {
  const ada = await agentWithCard();
  const { args } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  await decideOnPage(ada.browser, asked.error.confirmation_url);
  const answers = await Promise.all(
    [1, 2].map((n) => call(ada.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id, idempotency_key: `race-${n}-${crypto.randomUUID()}` })),
  );
  t.is(answers.filter((answer) => !answer.isError).length, 1, JSON.stringify(answers.map((answer) => answer.error?.code)));
  t.deepEqual(answers.filter((answer) => answer.isError).map((answer) => answer.error.code), ['confirmation_used']);
  t.is(await bookingsOf(ada.userId), 1);
  t.is((await intentsOfTraveler(ada.userId)).length, 1);
  await ada.client.close();
});

test('a spending limit per booking: over it is spending_limit_exceeded before anything is asked or authorized; within it, the confirmation is still needed', async (t) => {
  const ada = await agentWithCard();
  const { args, details } = await purchase(ada);
  const currency = details.total_currency as string;
  const totalMinor = toMinorUnits(details.total_amount, currency);
  await limits.set(ada.userId, ada.clientId, { currency, perBookingMinor: totalMinor - 1n, per30DaysMinor: null });

  const refused = await call(ada.client, 'create_booking', args);
  t.like(refused.error, {
    code: 'spending_limit_exceeded',
    limit: 'per_booking',
    currency,
    spent_amount: currency === 'JPY' ? '0' : '0.00',
    purchase_amount: details.total_amount,
    apps_url: `${running.config.authUrl}/account/apps`,
  });
  t.is(toMinorUnits(refused.error.limit_amount, currency), totalMinor - 1n);
  t.true(refused.error.message.includes(`${running.config.authUrl}/account/apps`));
  t.is(Number((await knex()('purchase_confirmations').where({ user_id: ada.userId }).count('* as n').first())?.n), 0, 'no confirmation was asked');

  // A limit in another currency refuses too: there is no exchange rate to hold the purchase against it.
  const other = currency === 'EUR' ? 'GBP' : 'EUR';
  await limits.set(ada.userId, ada.clientId, { currency: other, perBookingMinor: 10n ** 9n, per30DaysMinor: null });
  const otherCurrency = await call(ada.client, 'create_booking', args);
  t.like(otherCurrency.error, { code: 'spending_limit_exceeded', limit: 'currency', currency: other, purchase_currency: currency });
  t.regex(otherCurrency.error.message, new RegExp(`limit for this app is in ${other}`));

  await limits.set(ada.userId, ada.clientId, { currency, perBookingMinor: totalMinor, per30DaysMinor: null });
  const within = await call(ada.client, 'create_booking', args);
  t.is(within.error?.code, 'confirmation_required', 'within the limit, the traveler still confirms');
  t.is(await bookingsOf(ada.userId), 0);
  t.deepEqual(await intentsOfTraveler(ada.userId), []);
  await ada.client.close();
});

test('a spending limit per 30 days counts what this agent booked for the traveler, this purchase included', async (t) => {
  const ada = await agentWithCard();
  const first = await purchase(ada);
  const currency = first.details.total_currency as string;
  const totalMinor = toMinorUnits(first.details.total_amount, currency);
  await limits.set(ada.userId, ada.clientId, { currency, perBookingMinor: null, per30DaysMinor: totalMinor + totalMinor / 2n });
  const booked = await bookConfirmed(ada.client, ada.browser, first.args);
  t.false(booked.isError, JSON.stringify(booked.error));

  const second = await purchase(ada);
  const refused = await call(ada.client, 'create_booking', second.args);
  t.like(refused.error, { code: 'spending_limit_exceeded', limit: 'per_30_days', currency, spent_amount: first.details.total_amount });
  t.regex(refused.error.message, /in 30 days/);
  const intents = await intentsOfTraveler(ada.userId);
  t.is(intents.length, 1, 'only the first booking was authorized');
  t.is(await bookingsOf(ada.userId), 1);

  // Another agent of the same traveler has its own spending (and no limit).
  const otherAgent = await agent({ email: ada.email });
  t.is((await call(otherAgent.client, 'create_booking', second.args)).error?.code, 'confirmation_required');
  for (const client of [ada.client, otherAgent.client]) await client.close();
});

test('a spending limit lowered after the confirmation still refuses at booking, before the card', async (t) => {
  const ada = await agentWithCard();
  const { args, details } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  await decideOnPage(ada.browser, asked.error.confirmation_url);
  await limits.set(ada.userId, ada.clientId, { currency: details.total_currency, perBookingMinor: 100n, per30DaysMinor: null });
  const refused = await call(ada.client, 'create_booking', { ...args, confirmation_id: asked.error.confirmation_id });
  t.is(refused.error?.code, 'spending_limit_exceeded');
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'confirmed', 'the confirmation was not used');
  t.deepEqual(await intentsOfTraveler(ada.userId), []);
  await ada.client.close();
});

test('expected_total: another total is 409 total_changed with the current breakdown, over REST and through the tool, and nothing is authorized; REST needs no confirmation', async (t) => {
  // REST: a partner's booking, as before this issue, with a wrong and then the right expected_total.
  const traveler = await booker(running, partner);
  const { body, order } = await prepareBooking(running, traveler, 'provider_b');
  const wrong = await book(running, traveler, 'provider_b', { ...body, expected_total: { amount: '1.00', currency: order.currency } });
  const answer = await jsonOf(wrong);
  t.is(wrong.status, 409, JSON.stringify(answer));
  t.like(answer, { code: 'total_changed', expected_total: { amount: '1.00', currency: order.currency }, current_total: { total_amount: order.amount, currency: order.currency } });
  t.is(await bookingsOf(traveler.userId), 0);
  const right = await book(running, traveler, 'provider_b', { ...body, expected_total: { amount: order.amount, currency: order.currency } });
  t.is(right.status, 201, await right.clone().text());
  t.is((await intentsOfTraveler(traveler.userId)).length, 1, 'the partner’s booking is paid without a confirmation page');

  // The tool: refused before a confirmation is even asked.
  const ada = await agentWithCard();
  const { args, details } = await purchase(ada);
  const changed = await call(ada.client, 'create_booking', { ...args, expected_total: { amount: '1.00', currency: details.total_currency } });
  t.like(changed.error, { code: 'total_changed', current_total: { total_amount: details.total_amount, currency: details.total_currency } });
  t.is(Number((await knex()('purchase_confirmations').where({ user_id: ada.userId }).count('* as n').first())?.n), 0);
  const expected = await call(ada.client, 'create_booking', { ...args, expected_total: { amount: details.total_amount, currency: details.total_currency } });
  t.is(expected.error?.code, 'confirmation_required', 'the right total goes on to the confirmation');
  t.deepEqual(await intentsOfTraveler(ada.userId), []);
  await ada.client.close();
});

test('the page of an unknown confirmation is 404, and a mangled id too, without a session', async (t) => {
  const ada = await agent();
  const unknown = await openConfirmation(ada.browser, `${running.config.authUrl}/confirm/${crypto.randomUUID()}`);
  t.is(unknown.status, 404);
  t.true(unknown.html.includes('Confirmation not found'));
  const mangled = await fetch(`${running.config.authUrl}/confirm/not-a-confirmation`, { headers: { accept: 'text/html' } });
  t.is(mangled.status, 404);
  t.regex(mangled.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  await ada.client.close();
});

test('the decision forms take only a small urlencoded form: anything else is refused and changes nothing', async (t) => {
  const ada = await agentWithCard();
  const { args } = await purchase(ada);
  const asked = await call(ada.client, 'create_booking', args);
  const page = await openConfirmation(ada.browser, asked.error.confirmation_url);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)?.[1] ?? '';
  const cookie = ada.browser.cookieHeader(new URL(asked.error.confirmation_url).pathname);
  for (const [type, body, status] of [
    ['application/json', JSON.stringify({ csrf }), 415],
    ['application/x-www-form-urlencoded', `csrf=${csrf}&pad=${'x'.repeat(20_000)}`, 413],
    ['application/x-www-form-urlencoded', '', 400],
  ] as const) {
    const response = await fetch(`${asked.error.confirmation_url}/confirm`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': type, accept: 'text/html' }, body });
    t.is(response.status, status, type);
  }
  t.is((await confirmationRow(asked.error.confirmation_id)).status, 'pending');
  await ada.client.close();
});
