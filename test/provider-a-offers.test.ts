/**
 * provider_a's Flight Offers Search (`GET /v2/shopping/flight-offers`): its fixtures, dated by the calendar
 * of the sandbox's own clock, three to five weeks ahead at the fixture's local times; Amadeus's errors for
 * a bad query; and the offer a partner fetches there is one our REST route takes, as the README says.
 */
import fs from 'node:fs';
import test from 'ava';
import { departuresOf } from '../core/flights/departure-window.js';
import { datedFixture, providerASandbox } from '../providers/flights/provider-a/sandbox.js';
import { jsonOf, type Json } from './helpers/http.js';
import { createPartnerClient } from './helpers/oauth.js';
import { jsonDifferences, SandboxesAt } from './helpers/sandbox-at.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
const sandboxes = new SandboxesAt();
const DAY_MS = 86_400_000;
const AUTH = { authorization: 'Bearer amadeus_test_search' };

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await sandboxes.close();
  await running?.close();
});

const search = (query: string, base = `${running.config.sandboxUrl}/flights/provider_a`, headers: Record<string, string> = AUTH) =>
  fetch(`${base}/v2/shopping/flight-offers?${query}`, { headers });

const sandboxAt = (now: string) => sandboxes.at(running, providerASandbox, 'provider_a', now);

test('a route’s offers, dated three to five weeks ahead at the fixture’s local times, in Amadeus’s shape', async (t) => {
  const response = await search('originLocationCode=LHR&destinationLocationCode=CDG');
  t.is(response.status, 200);
  const body = await jsonOf(response);
  t.is(body.meta.count, 1);
  t.is(body.data.length, 1);
  const [offer] = body.data;
  t.like(offer, { type: 'flight-offer', price: { currency: 'GBP', grandTotal: '96.40' } });

  const onDisk = JSON.parse(fs.readFileSync('providers/flights/provider-a/fixtures/lhr-cdg-return-gbp.json', 'utf8'));
  const segments = offer.itineraries.flatMap((itinerary: Json) => itinerary.segments);
  const fixtureSegments = onDisk.itineraries.flatMap((itinerary: Json) => itinerary.segments);
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  for (const [index, segment] of segments.entries()) {
    t.is(segment.departure.at.slice(10), fixtureSegments[index].departure.at.slice(10), 'the fixture’s local time of day');
    const daysAhead = (Date.parse(`${segment.departure.at.slice(0, 10)}T00:00:00Z`) - today) / DAY_MS;
    t.true(daysAhead >= 21 && daysAhead <= 35, `${segment.departure.at} is ${daysAhead} days ahead`);
  }
  t.true(offer.lastTicketingDate > new Date().toISOString().slice(0, 10), 'still ticketable');
  t.deepEqual(offer, datedFixture('lhr-cdg-return-gbp', new Date()), 'datedFixture is what the sandbox serves');

  const day = segments[0].departure.at.slice(0, 10);
  t.is((await jsonOf(await search(`originLocationCode=LHR&destinationLocationCode=CDG&departureDate=${day}`))).meta.count, 1);
  const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  t.deepEqual(await jsonOf(await search(`originLocationCode=LHR&destinationLocationCode=CDG&departureDate=${nextDay}`)), { meta: { count: 0 }, data: [] });
  const family = await jsonOf(await search('originLocationCode=CDG&destinationLocationCode=DXB'));
  t.is(family.data[0].travelerPricings.length, 3);
});

test('a bad query is 400 in Amadeus’s words, naming the parameter; no token is 401', async (t) => {
  const errorOf = async (query: string) => {
    const response = await search(query);
    t.is(response.status, 400, query);
    return (await jsonOf(response)).errors[0];
  };
  t.like(await errorOf('destinationLocationCode=CDG'), { status: 400, code: 32171, title: 'MANDATORY DATA MISSING', source: { parameter: 'originLocationCode' } });
  t.like(await errorOf('originLocationCode=lhr&destinationLocationCode=CDG'), { code: 477, title: 'INVALID FORMAT', source: { parameter: 'originLocationCode' } });
  t.like(await errorOf('originLocationCode=LHR&destinationLocationCode=CDG&departureDate=2026-13-40'), { code: 477, source: { parameter: 'departureDate' } });
  const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
  t.like(await errorOf(`originLocationCode=LHR&destinationLocationCode=CDG&departureDate=${yesterday}`), { code: 425, title: 'INVALID DATE', source: { parameter: 'departureDate' } });
  const anonymous = await search('originLocationCode=LHR&destinationLocationCode=CDG', undefined, {});
  t.is(anonymous.status, 401);
  t.is((await jsonOf(anonymous)).errors[0].code, 38192);
});

test('the same offer on two days differs only by its dates, moved by the days between them', async (t) => {
  const query = 'originLocationCode=CDG&destinationLocationCode=DXB';
  const first = (await jsonOf(await search(query, await sandboxAt('2026-11-28T10:00:00Z')))).data[0];
  const later = (await jsonOf(await search(query, await sandboxAt('2027-03-01T23:30:00Z')))).data[0];
  const days = 93;
  const changed = jsonDifferences(first, later);
  t.deepEqual(changed.map(([path]) => path).sort(), ['/itineraries/0/segments/0/arrival/at', '/itineraries/0/segments/0/departure/at', '/lastTicketingDate', '/lastTicketingDateTime']);
  for (const [path, before, after] of changed as [string, string, string][]) {
    t.is(after.slice(10), before.slice(10), `${path} keeps its time of day`);
    t.is((Date.parse(after.slice(0, 10)) - Date.parse(before.slice(0, 10))) / DAY_MS, days, path);
  }
  t.is(first.itineraries[0].segments[0].departure.at, '2027-01-02T14:15:00', 'the fixture’s 2026-06-15: 35 days after 2026-05-11, as after this today');
});

test('the fetched offer is what a partner posts to our offers route (the README’s request), and it is bookable: weeks ahead', async (t) => {
  const { data } = await jsonOf(await search('originLocationCode=LHR&destinationLocationCode=CDG'));
  const { apiKey } = await createPartnerClient(running, 'Search Air');
  const created = await fetch(`${running.url}/v1/flights/providers/provider_a/offers`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(data[0]),
  });
  const body = await jsonOf(created);
  t.is(created.status, 201, JSON.stringify(body));
  const offer = await jsonOf(await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${body.offer_id}`, { headers: { 'x-api-key': apiKey } }));
  const [departure] = departuresOf(offer);
  t.true((departure?.at.getTime() ?? 0) > Date.now() + 20 * DAY_MS, `departs ${departure?.local}`);
});
