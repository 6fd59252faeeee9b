/**
 * provider_a over real HTTP: the adapter against its sandbox (pricing and every magic flight number),
 * then the pricing route, with the partner's key and a traveler's token from the real flow.
 */
import test from 'ava';
import { ProviderUnavailableError } from '../core/errors.js';
import { ProviderAAdapter } from '../providers/flights/provider-a/adapter.js';
import { datedFixture, MAGIC_FLIGHT_NUMBERS } from '../providers/flights/provider-a/sandbox.js';
import { jsonOf } from './helpers/http.js';
import { partnerWithTraveler } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let apiKey: string;
let token: string;

/** A fixture as the sandbox serves it today, optionally on a magic flight number (as a partner edits it). */
function fixture(name: string, flight?: string) {
  const native = datedFixture(name, new Date());
  if (flight) (native.itineraries[0]?.segments[0] as { number: string }).number = flight;
  return native;
}

const adapter = (tokenValue = 'amadeus_test_contract') =>
  new ProviderAAdapter({
    baseUrl: `${running.config.sandboxUrl}/flights/provider_a`,
    token: tokenValue,
    capabilities: running.service.providers.capabilities('provider_a'),
    clock: { now: () => new Date() },
  });

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ({ apiKey, token } = await partnerWithTraveler(running, 'GDS Air', 'bookings.write'));
});
test.after.always(async () => {
  await running?.close();
});

test('adapter: pricing adds what only pricing tells: bags on sale, fare rules, document requirements', async (t) => {
  const basic = (await adapter().price(fixture('lhr-cdg-return-gbp'))).offer;
  t.is(basic.total_amount, '96.40');
  t.deepEqual(basic.conditions.refund_before_departure, { allowed: false, penalty_amount: null, penalty_currency: null });
  t.deepEqual(basic.conditions.change_before_departure, { allowed: true, penalty_amount: '60.00', penalty_currency: 'GBP' });
  t.false(basic.passenger_identity_documents_required);
  t.deepEqual(
    basic.available_services?.map((service) => [service.id, service.total_amount, service.maximum_quantity]),
    [
      ['bag-1', '25.00', 1],
      ['bag-2', '45.00', 2],
    ],
  );
  t.like(basic.fare_class_metadata, { refunds_allowed: false, changes_allowed: true, change_penalty_amount: '60.00' });

  const family = (await adapter().price(fixture('cdg-dxb-family-eur'))).offer;
  t.true(family.passenger_identity_documents_required);
  t.deepEqual(family.conditions.refund_before_departure, { allowed: true, penalty_amount: '100.00', penalty_currency: 'EUR' });
  t.is(family.passengers.length, 3);
});

test('REST: a provider_a offer is priced before booking; a changed price is said and kept', async (t) => {
  const headers = { 'x-api-key': apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${running.url}/v1/flights/providers/provider_a/offers`, {
    method: 'POST',
    headers,
    body: JSON.stringify(fixture('lhr-cdg-return-gbp', MAGIC_FLIGHT_NUMBERS.priceChange)),
  });
  t.is(created.status, 201);
  const { offer_id: offerId } = await jsonOf(created);
  const priced = await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}/pricing`, { method: 'POST', headers, body: '{}' });
  t.is(priced.status, 200);
  const body = await jsonOf(priced);
  t.true(body.price_changed);
  t.is(body.previous_total_amount, '96.40');
  t.is(body.offer.total_amount, '102.64');
  t.is(body.offer.available_services.length, 2);
  const seatMaps = await fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}/seat-maps`, { headers });
  t.is(seatMaps.status, 200);
  t.is((await jsonOf(seatMaps)).length, 2);
});

test('adapter: seat maps of an A320 in provider_a’s dialect, normalized', async (t) => {
  const maps = await adapter().seatMaps(fixture('lhr-cdg-return-gbp'), 'our-offer');
  t.deepEqual(
    maps.map((map) => map.segment_id),
    ['1', '2'],
    'one per segment, both ways',
  );
  const seats = maps[0]?.seat_map ?? {};
  t.is(Object.keys(seats).length, 180);
  t.like(seats['12F'], { is_blocked: true, is_available: false, seat_type: 'window', disclosures: ['exit_row'] });
  t.like(seats['14B'], { seat_type: 'middle' });
  t.like(seats['14C'], { seat_type: 'aisle' });
  const occupied = Object.values(seats).filter((seat) => seat.is_occupied);
  t.true(occupied.length > 10 && occupied.every((seat) => !seat.is_available && !seat.is_blocked));
  const prices = Object.entries(maps[0]?.pricing ?? {});
  t.true(prices.every(([, price]) => price.currency === 'GBP' && [11, 25].includes(price.amount)));
  t.is(maps[0]?.pricing['20A'], undefined, 'standard seats are free');
  await t.throwsAsync(adapter().seatMaps(fixture('lhr-cdg-return-gbp', MAGIC_FLIGHT_NUMBERS.systemError), 'x'), { instanceOf: ProviderUnavailableError });
});

test('REST: provider_a passenger details need passenger_id; they are kept for the order, documents sealed', async (t) => {
  const headers = { 'x-api-key': apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${running.url}/v1/flights/providers/provider_a/offers`, { method: 'POST', headers, body: JSON.stringify(fixture('cdg-dxb-family-eur')) });
  const { offer_id: offerId } = await jsonOf(created);
  const update = (body: unknown, passenger = '2') =>
    fetch(`${running.url}/v1/flights/providers/provider_a/offers/${offerId}/passengers/${passenger}`, { method: 'PUT', headers, body: JSON.stringify(body) });

  const missing = await update({ first_name: 'Ada' });
  t.is(missing.status, 400);
  t.is((await jsonOf(missing)).fields.passenger_id.rule, 'required');

  const first = await update({
    passenger_id: '2',
    first_name: 'Ada',
    date_of_birth: '2018-04-02',
    identity_documents: [{ type: 'passport', unique_identifier: 'X1234567Q', issuing_country_code: 'GB', expires_on: '2030-01-01' }],
  });
  t.is(first.status, 200);
  t.like(await jsonOf(first), { id: '2', type: 'child', given_name: 'Ada', family_name: null });
  const second = await jsonOf(await update({ passenger_id: '2', last_name: 'Lovelace' }));
  t.like(second, { given_name: 'Ada', family_name: 'Lovelace' }, 'later details merge with earlier ones');

  const row = await running.service.db.knex('offer_passenger_details').where({ offer_id: offerId, provider_passenger_id: '2' }).first();
  t.like(row.details, { first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '2018-04-02' });
  t.truthy(row.documents_sealed);
  t.false(row.documents_sealed.includes('X1234567Q'), 'the document number is not stored in plain text');
  t.false(JSON.stringify(row.details).includes('X1234567Q'));
  t.is((await update({ passenger_id: '9' }, '9')).status, 404);
});
