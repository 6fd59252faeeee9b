/**
 * The departure window on the whole service (issue 23, item 1): a partner posts a provider's native offer
 * whose flights have been moved, and the traveler books it. A flight that left yesterday is 422
 * `flight_departed`, one that leaves in an hour (inside every provider's `min_advance_booking_hours`) 422
 * `departure_too_soon`, one 335 days ahead (beyond `max_advance_booking_days`) 422
 * `departure_too_far_ahead`: each names the flight, and nothing is stored or authorized (no booking row,
 * no payment intent at the processor sandbox). Through the create_booking tool the agent hears the same
 * code before any confirmation is asked. A trip booked ahead of its departure is upcoming.
 *
 * The offers are the providers' own (their sandboxes', through each booking-contract case) with every
 * local time of their flights moved alike: the first flight leaves at the wanted instant, read in its
 * origin airport's zone, whatever day the sandboxes' fixtures are written for.
 */
import test, { type ExecutionContext } from 'ava';
import { timeZoneOf } from '../core/flights/airport-zones.js';
import { departuresOf } from '../core/flights/departure-window.js';
import type { Offer } from '../core/flights/offer-schemas.js';
import { bookingByKey } from './helpers/booking-records.js';
import { book, BOOKING_CASES, bookingBody, booker, type Booker } from './helpers/bookings.js';
import { asPartner, saveCardInBrowser } from './helpers/cards.js';
import { jsonOf, type Json } from './helpers/http.js';
import { callTool, CONTACT, passenger, toolAgent } from './helpers/purchases.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PROVIDERS = ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'] as const;

let running: RunningService;
let ada: Booker;
const knex = () => running.service.db.knex;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
});
test.after.always(async () => {
  await running?.close();
});

/** A local date-time without offset (`2026-06-01T08:25`, with seconds or a fraction), or provider_d's wall-clock time written with a `Z`. */
const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const PROVIDER_D_TIMES = new Set(['local_departure', 'local_arrival', 'utc_departure', 'utc_arrival']);

/** `value` moved by `deltaMs`, in the form it came in. */
function moved(value: string, deltaMs: number): string {
  const zulu = value.endsWith('Z');
  const [date, time] = (zulu ? value.slice(0, -1) : value).split('T') as [string, string];
  const [clock, fraction] = time.split('.') as [string, string | undefined];
  const iso = new Date(Date.parse(`${date}T${clock.length === 5 ? `${clock}:00` : clock}Z`) + deltaMs).toISOString();
  return `${iso.slice(0, 11 + clock.length)}${fraction === undefined ? '' : `.${fraction}`}${zulu ? 'Z' : ''}`;
}

/** Every flight time of a native offer moved by `deltaMs`; expiries and deadlines (with an offset) stay. */
function moveTimes(node: unknown, deltaMs: number, key = ''): unknown {
  if (Array.isArray(node)) return node.map((item) => moveTimes(item, deltaMs));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([name, value]) => [name, moveTimes(value, deltaMs, name)]));
  if (typeof node === 'string' && (NAIVE.test(node) || (PROVIDER_D_TIMES.has(key) && NAIVE.test(node.slice(0, -1))))) return moved(node, deltaMs);
  return node;
}

/** The wall-clock time of `instant` at `airport`, as providers write it. */
function localAt(airport: string, instant: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: timeZoneOf(airport) ?? 'Etc/GMT+12', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(instant))
      .map(({ type, value }) => [type, value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const named = (departure: { flight: string; airport: string; local: string }) => `${departure.flight} from ${departure.airport} at ${departure.local.slice(0, 16).replace('T', ' ')} local time`;

interface MovedOffer {
  offerId: string;
  body: Json;
  offer: Offer;
  /** How the refusal names the first flight to leave, and the last. */
  first: string;
  last: string;
}

/**
 * The provider's offer (from its booking-contract case) with its first flight leaving `fromNowMs` from
 * now, created as our offer by `who`'s partner; and a booking body for it.
 */
async function movedOffer(providerId: string, fromNowMs: number, who: Booker = ada): Promise<MovedOffer> {
  const order = await BOOKING_CASES[providerId]?.request(running, 'nonRefundable', crypto.randomUUID(), 'instant');
  if (!order) throw new Error(`no booking case for ${providerId}`);
  const [first] = departuresOf(order.offer);
  if (!first) throw new Error(`${providerId}'s offer has no flight`);
  // Whole minutes, as providers write times.
  const target = Math.floor((Date.now() + fromNowMs) / 60_000) * 60_000;
  const delta = Date.parse(`${localAt(first.airport, target)}Z`) - Date.parse(`${first.local.slice(0, 19)}Z`);
  const native = moveTimes(order.raw, delta);
  const created = await fetch(`${running.url}/v1/flights/providers/${providerId}/offers`, {
    method: 'POST',
    headers: { 'x-api-key': who.partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(native),
  });
  const createdBody = await jsonOf(created);
  if (created.status !== 201) throw new Error(`no ${providerId} offer: ${created.status} ${JSON.stringify(createdBody)}`);
  const read = await fetch(`${running.url}/v1/flights/providers/${providerId}/offers/${createdBody.offer_id}`, { headers: { 'x-api-key': who.partner.apiKey } });
  const offer = (await jsonOf(read)) as Offer;
  const departures = departuresOf(offer);
  const [earliest, latest] = [departures[0], departures.at(-1)];
  if (!earliest || !latest) throw new Error('the moved offer has no flight');
  if (earliest.at.getTime() !== target) throw new Error(`${providerId}'s first flight leaves at ${earliest.at.toISOString()}, not ${new Date(target).toISOString()}`);
  return { offerId: createdBody.offer_id, body: bookingBody(createdBody.offer_id, { ...order, seats: [], services: [] }, who), offer, first: named(earliest), last: named(latest) };
}

const intentCount = async () => Number((await knex()('processor_sandbox_payment_intents').count({ count: '*' }).first())?.count);

/** Books `body` as `who` and asserts the refusal: 422 with `code`, naming `flight`; no booking, no payment intent. */
async function refused(t: ExecutionContext, providerId: string, body: Json, code: string, flight: string, who: Booker = ada): Promise<void> {
  const intents = await intentCount();
  const response = await book(running, who, providerId, body);
  const answer = await jsonOf(response);
  t.is(response.status, 422, JSON.stringify(answer));
  t.like(answer, { status_code: 422, code });
  t.true(typeof answer.message === 'string' && answer.message.startsWith(flight), `the message names ${flight}: ${answer.message}`);
  t.is(await bookingByKey(running, who.userId, body.idempotency_key), undefined, 'no booking was stored');
  t.is(await intentCount(), intents, 'no payment intent was made: the card was not touched');
}

// Serial: "no payment intent" is read as the processor sandbox's count, which another test's booking would move.
for (const providerId of PROVIDERS) {
  test.serial(`${providerId}: a flight that left yesterday is 422 flight_departed, naming it; nothing stored, no payment intent`, async (t) => {
    const { body, first } = await movedOffer(providerId, -DAY_MS);
    await refused(t, providerId, body, 'flight_departed', first);
  });

  test.serial(`${providerId}: a flight that leaves in an hour is 422 departure_too_soon (min_advance_booking_hours), naming it; nothing stored, no payment intent`, async (t) => {
    t.true(running.service.providers.capabilities(providerId).min_advance_booking_hours > 1);
    const { body, first } = await movedOffer(providerId, HOUR_MS);
    await refused(t, providerId, body, 'departure_too_soon', first);
  });

  test.serial(`${providerId}: a flight 335 days ahead is 422 departure_too_far_ahead (max_advance_booking_days), naming its last flight; nothing stored`, async (t) => {
    t.true(running.service.providers.capabilities(providerId).max_advance_booking_days < 335);
    const { body, last } = await movedOffer(providerId, 335 * DAY_MS);
    await refused(t, providerId, body, 'departure_too_far_ahead', last);
  });
}

test.serial('a repeat of a refused request answers the same refusal, and still stores nothing', async (t) => {
  const { body, first } = await movedOffer('provider_b', -DAY_MS);
  await refused(t, 'provider_b', body, 'flight_departed', first);
  await refused(t, 'provider_b', body, 'flight_departed', first);
});

test.serial('a trip booked three weeks ahead of its departure is upcoming, not completed', async (t) => {
  const { body, offer } = await movedOffer('provider_b', 21 * DAY_MS);
  const response = await book(running, ada, 'provider_b', body);
  const { booking } = await jsonOf(response);
  t.is(response.status, 201, JSON.stringify(booking));
  t.is(booking?.status, 'confirmed');
  const trips = async (status?: string) => (await jsonOf(await asPartner(running, ada, `/v1/users/me/bookings?limit=100${status ? `&status=${status}` : ''}`))) as Json[];
  const upcoming = (await trips('upcoming')).find((trip) => trip.id === booking.id);
  t.truthy(upcoming, 'listed as upcoming');
  t.is(upcoming?.status, 'upcoming');
  t.is(upcoming?.departure_date, offer.slices[0]?.segments[0]?.departing_at.slice(0, 10), 'departing the day the offer says, local at the airport');
  t.false((await trips('completed')).some((trip) => trip.id === booking.id), 'not completed');
  const all = (await trips()).find((trip) => trip.id === booking.id);
  t.is(all?.status, 'upcoming');
});

test.serial('create_booking: the agent hears flight_departed, departure_too_soon and departure_too_far_ahead before any confirmation is asked; a flight inside the window is asked to be confirmed', async (t) => {
  const agent = await toolAgent(running);
  try {
    await saveCardInBrowser(running, agent.browser, {}, true);
    const confirmations = async () => Number((await knex()('purchase_confirmations').where({ user_id: agent.userId }).count({ count: '*' }).first())?.count);
    const argsFor = (moved: MovedOffer) => ({
      provider_id: 'provider_b',
      offer_id: moved.offerId,
      passengers: moved.offer.passengers.map((item, index) => passenger(item.id, ['Ada', 'Augusta', 'Anne'][index] ?? `Ada${index}`, index)),
      contact: CONTACT,
      idempotency_key: `agent-${crypto.randomUUID()}`,
    });
    for (const [fromNow, code, which] of [
      [-DAY_MS, 'flight_departed', 'first'],
      [HOUR_MS, 'departure_too_soon', 'first'],
      [335 * DAY_MS, 'departure_too_far_ahead', 'last'],
    ] as const) {
      const offer = await movedOffer('provider_b', fromNow);
      const intents = await intentCount();
      const answer = await callTool(agent.client, 'create_booking', argsFor(offer));
      t.true(answer.isError, code);
      t.is(answer.error?.code, code, JSON.stringify(answer.error));
      t.true(String(answer.error?.message).startsWith(offer[which]), `the message names ${offer[which]}: ${answer.error?.message}`);
      t.is(answer.error?.confirmation_url, undefined, 'no confirmation is asked');
      t.is(await confirmations(), 0, 'no confirmation was stored');
      t.is(Number((await knex()('bookings').where({ user_id: agent.userId }).count({ count: '*' }).first())?.count), 0, 'no booking was stored');
      t.is(await intentCount(), intents, 'no payment intent was made');
    }
    const bookable = await callTool(agent.client, 'create_booking', argsFor(await movedOffer('provider_b', 21 * DAY_MS)));
    t.is(bookable.error?.code, 'confirmation_required', 'a flight inside the window goes on to the traveler’s confirmation');
    t.is(await confirmations(), 1);
  } finally {
    await agent.client.close();
  }
});
