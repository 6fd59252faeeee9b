/**
 * provider_c's offers as its sandbox serves them (`GET /Offers/{OfferID}`, a sandbox convenience answering
 * as OfferPriceRS does): flights dated by the calendar of the sandbox's own clock, three to five weeks
 * ahead at the fixture's local times; the offer's time limits set from that clock (expiry in 30 minutes,
 * payment in 24 hours); and the fetched offer is one our REST route takes, as the README says.
 */
import fs from 'node:fs';
import test from 'ava';
import { departuresOf } from '../core/flights/departure-window.js';
import { datedFixture, providerCSandbox } from '../providers/flights/provider-c/sandbox.js';
import { WireOffer } from '../providers/flights/provider-c/wire.js';
import { jsonOf, type Json } from './helpers/http.js';
import { createPartnerClient } from './helpers/oauth.js';
import { jsonDifferences, SandboxesAt } from './helpers/sandbox-at.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
const sandboxes = new SandboxesAt();
const DAY_MS = 86_400_000;
const OFFER_ID = 'd2sr9k1Qx7|6f7c2f1e-5b9a-4d2e-9f0a-3c1b2a4d5e6f';

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await sandboxes.close();
  await running?.close();
});

const offerAt = (id: string, base = `${running.config.sandboxUrl}/flights/provider_c`, headers: Record<string, string> = { authorization: 'Bearer ndc_test_offers' }) =>
  fetch(`${base}/Offers/${encodeURIComponent(id)}`, { headers });

const sandboxAt = (now: string) => sandboxes.at(running, providerCSandbox, 'provider_c', now);

test('an offer as OfferPrice answers it: flights three to five weeks ahead at the fixture’s local times, expiring in 30 minutes, payable for a day', async (t) => {
  const before = Date.now();
  const response = await offerAt(OFFER_ID);
  t.is(response.status, 200);
  const offer = (await jsonOf(response)).PricedOffer;
  t.notThrows(() => WireOffer.parse(offer));
  t.is(offer.OfferID, OFFER_ID);

  const onDisk = JSON.parse(fs.readFileSync('providers/flights/provider-c/fixtures/lhr-jfk-family-gbp.json', 'utf8'));
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  for (const [index, segment] of offer.DataLists.DatedMarketingSegmentList.entries()) {
    const fixture = onDisk.DataLists.DatedMarketingSegmentList[index];
    t.is(segment.Dep.AircraftScheduledDateTime.slice(10), fixture.Dep.AircraftScheduledDateTime.slice(10), 'the fixture’s local time of day');
    t.is(segment.Arrival.AircraftScheduledDateTime.slice(10), fixture.Arrival.AircraftScheduledDateTime.slice(10));
    const daysAhead = (Date.parse(`${segment.Dep.AircraftScheduledDateTime.slice(0, 10)}T00:00:00Z`) - today) / DAY_MS;
    t.true(daysAhead >= 21 && daysAhead <= 35, `${segment.Dep.AircraftScheduledDateTime} is ${daysAhead} days ahead`);
  }
  const expires = Date.parse(offer.OfferExpirationTimeLimitDateTime);
  t.true(expires >= before + 30 * 60_000 && expires <= Date.now() + 30 * 60_000, offer.OfferExpirationTimeLimitDateTime);
  const limits = offer.OfferItem.map((item: Json) => item.PaymentTimeLimitDateTime).filter(Boolean);
  t.is(limits.length, 2, 'the items that had a payment time limit keep one');
  for (const limit of limits) t.is(Date.parse(limit) - expires, 24 * 60 * 60_000 - 30 * 60_000);

  const unknown = await offerAt('no-such-offer');
  t.is(unknown.status, 404);
  t.like((await jsonOf(unknown)).Errors[0], { Code: '913' });
  t.is((await offerAt(OFFER_ID, undefined, {})).status, 401);
});

test('the same offer on two days differs only by its dates, moved by the days between them', async (t) => {
  const first = (await jsonOf(await offerAt(OFFER_ID, await sandboxAt('2026-11-28T10:00:00Z')))).PricedOffer;
  const later = (await jsonOf(await offerAt(OFFER_ID, await sandboxAt('2027-03-01T10:00:00Z')))).PricedOffer;
  const days = 93;
  const changed = jsonDifferences(first, later);
  t.deepEqual(changed.map(([path]) => path).sort(), [
    '/DataLists/DatedMarketingSegmentList/0/Arrival/AircraftScheduledDateTime',
    '/DataLists/DatedMarketingSegmentList/0/Dep/AircraftScheduledDateTime',
    '/OfferExpirationTimeLimitDateTime',
    '/OfferItem/0/PaymentTimeLimitDateTime',
    '/OfferItem/1/PaymentTimeLimitDateTime',
  ]);
  for (const [path, before, after] of changed as [string, string, string][]) {
    t.is(after.slice(10), before.slice(10), `${path} keeps its time of day`);
    t.is((Date.parse(after.slice(0, 10)) - Date.parse(before.slice(0, 10))) / DAY_MS, days, path);
  }
  t.is(first.DataLists.DatedMarketingSegmentList[0].Dep.AircraftScheduledDateTime, '2026-12-21T11:35:00', 'the fixture’s 2026-06-03: 23 days after 2026-05-11, as after this today');
  t.is(first.OfferExpirationTimeLimitDateTime, '2026-11-28T10:30:00.000Z');
  t.deepEqual(first, datedFixture('lhr-jfk-family-gbp', new Date('2026-11-28T10:00:00Z')), 'datedFixture is what the sandbox serves');
});

test('the fetched offer is what a partner posts to our offers route (the README’s request), and it is bookable: weeks ahead', async (t) => {
  const { PricedOffer } = await jsonOf(await offerAt(OFFER_ID));
  const { apiKey } = await createPartnerClient(running, 'NDC Air');
  const created = await fetch(`${running.url}/v1/flights/providers/provider_c/offers`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(PricedOffer),
  });
  const body = await jsonOf(created);
  t.is(created.status, 201, JSON.stringify(body));
  const offer = await jsonOf(await fetch(`${running.url}/v1/flights/providers/provider_c/offers/${encodeURIComponent(body.offer_id)}`, { headers: { 'x-api-key': apiKey } }));
  t.is(offer.expires_at, new Date(PricedOffer.OfferExpirationTimeLimitDateTime).toISOString());
  const [departure] = departuresOf(offer);
  t.true((departure?.at.getTime() ?? 0) > Date.now() + 20 * DAY_MS, `departs ${departure?.local}`);
});
