/**
 * provider_d's flights on the calendar (issue 23, item 1): its fixtures dated for a given day depart a few
 * weeks ahead at their own local time, with UTC times by the airports' real zones in winter and summer,
 * and are exactly what its sandbox would serve that day; its search answers any season with real zones
 * (magic destinations on London time) and sells no flight that has left; and a dated fixture books over
 * REST, its flight still ahead.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import test from 'ava';
import { instantAt } from '../core/flights/airport-zones.js';
import { MAGIC_DESTINATIONS } from '../providers/flights/provider-d/catalogue.js';
import { datedFixture, type NativeFixture } from '../providers/flights/provider-d/dated-fixtures.js';
import { searchItem, type Token } from '../providers/flights/provider-d/itineraries.js';
import { orderRequest } from './booking-contract/provider-d.js';
import { book, booker, bookingBody, type Booker } from './helpers/bookings.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

const DAY_MS = 86_400_000;
const FIXTURES = ['kwi-dxb-kwd', 'lhr-cdg-return-family-eur', 'lhr-dub-jfk-usd', 'lhr-jfk-gbp-checked', 'lhr-jfk-gbp', 'sfo-nrt-business-jpy'];
/** The fixture as it is on disk, searched as if on 2026-05-11. */
const onDisk = (name: string) => JSON.parse(fs.readFileSync(`providers/flights/provider-d/fixtures/${name}.json`, 'utf8')) as NativeFixture;
const tokenOf = (bookingToken: string) => JSON.parse(Buffer.from(bookingToken, 'base64url').toString('utf8')) as Token;
/** What a fake-Z local time says, `2026-06-01T08:25:00`. */
const local = (fakeUtc: string) => fakeUtc.slice(0, 19);

let running: RunningService;
let ada: Booker;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
});
test.after.always(async () => {
  await running?.close();
});

test('a dated fixture departs three to five weeks ahead, at its own local time, and its token says so and was issued now', (t) => {
  t.deepEqual(fs.readdirSync('providers/flights/provider-d/fixtures').filter((file) => !file.endsWith('.offer.json')).sort(), FIXTURES.map((name) => `${name}.json`).sort(), 'every fixture is dated here');
  for (const now of [new Date(), new Date('2027-01-20T23:30:00Z'), new Date('2027-07-04T00:10:00Z')]) {
    for (const name of FIXTURES) {
      const dated = datedFixture(name, now);
      const item = dated.data[0] as NativeFixture['data'][number];
      const first = item.route[0] as NativeFixture['data'][number]['route'][number];
      const ahead = (Date.parse(first.utc_departure) - now.getTime()) / DAY_MS;
      t.true(ahead > 20 && ahead < 36, `${name} on ${now.toISOString()}: leaves ${ahead.toFixed(1)} days ahead`);
      t.is(local(first.local_departure).slice(11), local(onDisk(name).data[0]?.route[0]?.local_departure ?? '').slice(11), `${name}: the same local time`);
      const token = tokenOf(item.booking_token);
      t.is(token.searchedAt, now.getTime(), 'issued now: check_flights takes it for 30 minutes');
      t.is(token.legs[0]?.date, local(first.local_departure).slice(0, 10), 'the token flies the dated day');
      t.deepEqual(item, searchItem(token) as unknown, `${name}: what the sandbox serves for that token`);
    }
  }
});

test('a dated fixture’s UTC times are the airports’ real zones, in winter and in summer', (t) => {
  const winter = datedFixture('lhr-jfk-gbp', new Date('2026-11-28T10:00:00Z')).data[0]?.route[0];
  t.like(winter, { local_departure: '2026-12-19T08:25:00.000Z', utc_departure: '2026-12-19T08:25:00.000Z', local_arrival: '2026-12-19T11:20:00.000Z', utc_arrival: '2026-12-19T16:20:00.000Z' }, 'GMT and EST');
  const summer = datedFixture('lhr-jfk-gbp', new Date('2027-05-11T10:00:00Z')).data[0]?.route[0];
  t.like(summer, { local_departure: '2027-06-01T08:25:00.000Z', utc_departure: '2027-06-01T07:25:00.000Z', local_arrival: '2027-06-01T11:20:00.000Z', utc_arrival: '2027-06-01T15:20:00.000Z' }, 'BST and EDT');
  // Tokyo keeps no summer time; San Francisco does.
  t.like(datedFixture('sfo-nrt-business-jpy', new Date('2027-01-05T10:00:00Z')).data[0]?.route[0], { utc_departure: '2027-02-04T19:00:00.000Z', local_arrival: '2027-02-05T15:25:00.000Z' });

  for (const now of [new Date('2026-11-28T10:00:00Z'), new Date('2027-02-20T10:00:00Z'), new Date('2027-05-11T10:00:00Z'), new Date('2027-09-15T10:00:00Z')]) {
    for (const name of FIXTURES) {
      const dated = datedFixture(name, now);
      for (const segment of [...(dated.data[0]?.route ?? []), ...(dated.check_flights?.flights ?? [])]) {
        const where = `${name} ${segment.flyFrom}-${segment.flyTo} on ${now.toISOString().slice(0, 10)}`;
        t.is(segment.utc_departure, instantAt(segment.flyFrom, local(segment.local_departure)).toISOString(), `${where}: departure`);
        t.is(segment.utc_arrival, instantAt(segment.flyTo, local(segment.local_arrival)).toISOString(), `${where}: arrival`);
      }
    }
  }
});

test('a dated checked fixture keeps a check of its own token: the session and the flights move with it', (t) => {
  const now = new Date();
  const dated = datedFixture('lhr-jfk-gbp-checked', now);
  t.is(dated.check_flights?.server_time, Math.floor(now.getTime() / 1000));
  t.not(dated.check_flights?.session_id, onDisk('lhr-jfk-gbp-checked').check_flights?.session_id, 'a new token, a new session');
  t.deepEqual(
    dated.check_flights?.flights?.map(({ id, local_departure, utc_departure }) => ({ id, local_departure, utc_departure })),
    dated.data[0]?.route.map(({ id, local_departure, utc_departure }) => ({ id, local_departure, utc_departure })),
  );
});

const sandboxSearch = async (to: string, date: string, service = running) => {
  const day = date.split('-').reverse().join('/');
  const answer = await fetch(`${service.config.sandboxUrl}/flights/provider_d/v2/search?fly_from=LHR&fly_to=${to}&date_from=${day}&curr=EUR`, { headers: { apikey: 'kiwi_test_dated' } });
  return { status: answer.status, body: (await answer.json()) as Json };
};
/** The next 15 January and 15 July from today, YYYY-MM-DD: one winter and one summer date a search can ask for. */
const next = (month: string) => {
  const year = new Date().getUTCFullYear();
  const date = `${year}-${month}-15`;
  return date > new Date().toISOString().slice(0, 10) ? date : `${year + 1}-${month}-15`;
};

test('the sandbox’s search answers any season in the airports’ real zones; the magic destinations keep London time', async (t) => {
  for (const date of [next('01'), next('07')]) {
    const { status, body } = await sandboxSearch('JFK', date);
    t.is(status, 200);
    t.is(body.data.length, 3);
    for (const segment of body.data.flatMap((item: Json) => item.route)) {
      t.is(segment.utc_departure, instantAt(segment.flyFrom, local(segment.local_departure)).toISOString(), `${segment.flyFrom} on ${date}`);
      t.is(segment.utc_arrival, instantAt(segment.flyTo, local(segment.local_arrival)).toISOString(), `${segment.flyTo} on ${date}`);
    }
    const magic = (await sandboxSearch(MAGIC_DESTINATIONS.priceChange, date)).body.data[0].route[0];
    t.is(magic.local_arrival, `${date}T08:30:00.000Z`, '07:15 plus 75 minutes, on the same clock');
    t.is(magic.utc_departure, instantAt('LHR', `${date}T07:15:00`).toISOString());
  }
});

test('the sandbox’s search refuses a day in the past, and sells no flight that has already left today', async (t) => {
  const refused = await sandboxSearch('JFK', new Date(Date.now() - 3 * DAY_MS).toISOString().slice(0, 10));
  t.is(refused.status, 400);
  t.regex(refused.body.error, /date_from must not be in the past/);
  const today = new Date().toISOString().slice(0, 10);
  const { status, body } = await sandboxSearch('JFK', today);
  t.is(status, 200);
  // LHR–JFK leaves at 06:35 (via Dublin), 08:25 and 18:00 London time: those still ahead are sold.
  const ahead = ['06:35', '08:25', '18:00'].filter((time) => instantAt('LHR', `${today}T${time}:00`).getTime() > Date.now());
  t.deepEqual(body.data.map((item: Json) => local(item.route[0].local_departure).slice(11, 16)).sort(), ahead);

  // At noon (in winter, UTC is London time) only the 18:00 is left.
  const day = next('01');
  const noon = await startService({}, { rateLimitKeyPrefix: uniquePrefix(), clock: { now: () => new Date(`${day}T12:00:00Z`) } });
  t.teardown(() => noon.close());
  const afternoon = await sandboxSearch('JFK', day, noon);
  t.deepEqual(afternoon.body.data.map((item: Json) => `${item.airlines[0]}${item.route[0].flight_no}`), ['AA101']);
});

test('check_flights of a flight that has left since its search says it is invalid (no longer sold)', async (t) => {
  // A token issued now for yesterday's flight: as if searched just before it left.
  const token = { ...tokenOf(datedFixture('lhr-jfk-gbp', new Date(Date.now() - 22 * DAY_MS)).data[0]?.booking_token ?? ''), searchedAt: Date.now() };
  const bookingToken = Buffer.from(JSON.stringify(token)).toString('base64url');
  const check = (session = '') =>
    fetch(`${running.config.sandboxUrl}/flights/provider_d/v2/booking/check_flights?booking_token=${bookingToken}&bnum=0&adults=1&children=0&infants=0&currency=GBP${session}`, {
      headers: { apikey: 'kiwi_test_dated' },
    }).then((answer) => answer.json() as Promise<Json>);
  const checked = await check(`&session_id=${(await check()).session_id}`);
  t.like(checked, { flights_checked: true, flights_invalid: true });
});

test('a dated fixture books over REST: check_flights and save_booking take its token, and its first flight is ahead', async (t) => {
  const now = new Date();
  const raw = datedFixture('lhr-jfk-gbp-checked', now);
  const created = await fetch(`${running.url}/v1/flights/providers/provider_d/offers`, {
    method: 'POST',
    headers: { 'x-api-key': ada.partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(raw),
  });
  t.is(created.status, 201);
  const { offer_id: offerId } = await jsonOf(created);
  const order = orderRequest(raw, { reference: randomUUID() });
  const booked = await book(running, ada, 'provider_d', bookingBody(offerId, order, ada));
  const answer = await jsonOf(booked);
  t.is(booked.status, 201, JSON.stringify(answer));
  t.like(answer.booking, { status: 'confirmed', provider_id: 'provider_d', total_amount: 512.46, currency: 'GBP' });
  const first = raw.data[0]?.route[0];
  t.is(answer.booking.departure_date.slice(0, 19), local(first?.local_departure ?? ''), 'the booking departs when the dated fixture does');
  t.true(instantAt('LHR', answer.booking.departure_date).getTime() > now.getTime() + 20 * DAY_MS, 'weeks ahead of now');
});
