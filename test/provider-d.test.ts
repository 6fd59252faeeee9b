/**
 * provider_d over real HTTP: flight search and a result turned into an offer (the core services the
 * agent tools call), every magic destination, the sandbox's hold and payment, and the REST routes with
 * its offers.
 */
import test from 'ava';
import { GoneError, NotFoundError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError, ValidationError } from '../core/errors.js';
import { MAGIC_DESTINATIONS } from '../providers/flights/provider-d/catalogue.js';
import { datedFixture } from '../providers/flights/provider-d/dated-fixtures.js';
import { jsonOf, type Json } from './helpers/http.js';
import { partnerWithTraveler } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let partnerId: string;
let apiKey: string;
let token: string;

/** A day some weeks ahead, YYYY-MM-DD. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const sandbox = () => `${running.config.sandboxUrl}/flights/provider_d`;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ({ apiKey, token, partnerId } = await partnerWithTraveler(running, 'Search Air', 'bookings.write'));
});
test.after.always(async () => {
  await running?.close();
});

const search = (request: Record<string, unknown>) => running.service.flightSearch.search({ partnerId, door: 'rest' }, request);

test('search: normalized results, cheapest first, kept for 30 minutes', async (t) => {
  const result = await search({ origin: 'lhr', destination: 'JFK', departure_date: inDays(30), currency: 'GBP' });
  t.is(result.offers.length, 3);
  t.deepEqual(
    result.offers.map((offer) => offer.total_amount),
    ['403.86', '473.74', '512.46'],
  );
  const [connecting] = result.offers;
  t.deepEqual(connecting?.slices[0]?.segments.map((segment) => `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}`), ['EI153', 'EI105']);
  t.is(connecting?.slices[0]?.segments[0]?.departing_at, `${inDays(30)}T06:35:00`, 'local time, without the fake Z');
  t.is(connecting?.raw_offer, undefined, 'search results leave the native offer out');
  t.is(connecting?.id, (await running.service.db.knex('flight_searches').where({ id: result.search_id }).first()).results[0].resultId);
  const expiresIn = Date.parse(result.expires_at) - Date.now();
  t.true(expiresIn > 29 * 60_000 && expiresIn <= 30 * 60_000);
});

test('search: a return trip for a family in yen, priced in the currency’s minor units, no private fares', async (t) => {
  const family = await search({
    origin: 'LHR',
    destination: 'CDG',
    departure_date: inDays(40),
    return_date: inDays(44),
    passengers: { adults: 2, children: 1, infants: 1 },
    currency: 'JPY',
  });
  t.is(family.offers.length, 2);
  for (const offer of family.offers) {
    t.is(offer.slices.length, 2);
    t.deepEqual(offer.passengers.map((passenger) => passenger.type), ['adult', 'adult', 'child', 'infant_without_seat']);
    t.regex(offer.total_amount, /^\d+$/);
    t.is(offer.total_currency, 'JPY');
    t.false('private_fares' in offer, 'omitted when none apply');
  }
});

test('search: bad requests name their fields; nothing is asked of the provider', async (t) => {
  const past = await t.throwsAsync(search({ origin: 'LHR', destination: 'JFK', departure_date: '2020-01-01' }), { instanceOf: ValidationError });
  t.regex(past?.fields.departure_date?.message ?? '', /in the past/);
  const tooMany = await t.throwsAsync(
    search({ origin: 'LHR', destination: 'LHR', departure_date: inDays(10), passengers: { adults: 1, infants: 2 }, cabin: 'economy' }),
    { instanceOf: ValidationError },
  );
  t.deepEqual(Object.keys(tooMany?.fields ?? {}).sort(), ['cabin', 'destination', 'passengers.infants']);
  const far = await t.throwsAsync(search({ origin: 'LHR', destination: 'JFK', departure_date: inDays(400) }), { instanceOf: ValidationError });
  t.is(far?.fields.departure_date?.rule, 'too_far_ahead');
});

test('create offer: the result is checked with the provider, then stored as the partner’s offer', async (t) => {
  const result = await search({ origin: 'LHR', destination: 'JFK', departure_date: inDays(30), currency: 'GBP' });
  const chosen = result.offers[2];
  const created = await running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: chosen?.id });
  t.false(created.price_changed);
  t.is(created.offer.total_amount, '512.46');
  t.is(created.offer.id, created.offer_id);
  t.is(created.offer.passenger_identity_documents_required, true, 'known once checked');
  t.deepEqual(created.offer.available_services?.map((service) => service.id), ['hold_bag:0', 'hold_bag:0-0']);
  const row = await running.service.db.knex('offers').where({ id: created.offer_id }).first();
  t.is(row.partner_id, partnerId);
  t.true(row.raw_offer.check_flights.flights_checked, 'the last check is kept beside the search item');

  const read = await fetch(`${running.url}/v1/flights/providers/provider_d/offers/${created.offer_id}`, { headers: { 'x-api-key': apiKey } });
  t.is(read.status, 200);
  t.is((await jsonOf(read)).total_amount, '512.46');

  const other = await running.service.partners.createPartner({ name: 'Other Search Air' });
  await t.throwsAsync(running.service.flightSearch.createOffer({ partnerId: other.partner_id, door: 'rest' }, { search_id: result.search_id, result_id: chosen?.id }), {
    instanceOf: NotFoundError,
    message: /search again/,
  });
  const unknown = await t.throwsAsync(running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: 'nope' }), { instanceOf: NotFoundError });
  t.is(unknown?.code, 'search_result_not_found');
});

/** A search to a magic destination, turned into an offer; and whether an offer of it was stored. */
async function createMagic(destination: string) {
  const result = await search({ origin: 'LHR', destination, departure_date: inDays(20), currency: 'EUR' });
  const row = await running.service.db.knex('flight_searches').where({ id: result.search_id }).first();
  stored.set(destination, async () => (await running.service.db.knex('offers').where({ provider_offer_id: row.results[0].native.data[0].booking_token })).length > 0);
  return running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: result.offers[0]?.id });
}
const stored = new Map<string, () => Promise<boolean>>();

test('create offer: a price changed at check is said, with the searched price', async (t) => {
  const created = await createMagic(MAGIC_DESTINATIONS.priceChange);
  t.true(created.price_changed);
  t.is(created.previous_total_amount, '112.50');
  t.is(created.offer.total_amount, '121.50');
});

test('create offer: sold out, expired token and a provider error keep their meaning; nothing is stored', async (t) => {
  const soldOut = await t.throwsAsync(createMagic(MAGIC_DESTINATIONS.soldOut), { instanceOf: ProviderRejectedError });
  t.is(soldOut?.code, 'offer_no_longer_available');
  const expired = await t.throwsAsync(createMagic(MAGIC_DESTINATIONS.expired), { instanceOf: GoneError });
  t.is(expired?.code, 'offer_expired');
  const broken = await t.throwsAsync(createMagic(MAGIC_DESTINATIONS.error), { instanceOf: ProviderUnavailableError });
  t.notRegex(broken?.message ?? '', /Internal server error/, 'never the provider’s own words');
  for (const destination of [MAGIC_DESTINATIONS.soldOut, MAGIC_DESTINATIONS.expired, MAGIC_DESTINATIONS.error]) {
    t.false(await (stored.get(destination) as () => Promise<boolean>)(), `no offer stored for ${destination}`);
  }
});

test('create offer: a booking token the provider never issued is 410 offer_expired; nothing is stored', async (t) => {
  const result = await search({ origin: 'LHR', destination: 'CDG', departure_date: inDays(22), currency: 'EUR' });
  const row = await running.service.db.knex('flight_searches').where({ id: result.search_id }).first();
  const unknownToken = Buffer.from('a token provider_d never issued').toString('base64url');
  row.results[0].native.data[0].booking_token = unknownToken;
  await running.service.db.knex('flight_searches').where({ id: result.search_id }).update({ results: JSON.stringify(row.results) });
  const error = await t.throwsAsync(running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: result.offers[0]?.id }), {
    instanceOf: GoneError,
  });
  t.is(error?.code, 'offer_expired');
  t.regex(error?.message ?? '', /search again/);
  t.notRegex(error?.message ?? '', /booking_token is not valid/, 'never the provider’s own words');
  t.deepEqual(await running.service.db.knex('offers').where({ provider_offer_id: unknownToken }), [], 'no offer stored');
});

test('search and create offer agree on identity documents: the search says it is not known yet, the offer says what check_flights said', async (t) => {
  const result = await search({ origin: 'LHR', destination: 'JFK', departure_date: inDays(31), currency: 'GBP' });
  for (const offer of result.offers) t.is(offer.passenger_identity_documents_required, null, 'unknown until the provider checks the flights');
  const created = await running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: result.offers[0]?.id });
  t.is(created.offer.passenger_identity_documents_required, true, 'check_flights asks for documents (document_need 2)');
  const searched = result.offers[0]?.passenger_identity_documents_required;
  t.true(searched === null || searched === created.offer.passenger_identity_documents_required, 'the search never says the opposite of the offer');
});

test('create offer: a check that never completes runs out at the 30 s pricing timeout', async (t) => {
  const result = await search({ origin: 'LHR', destination: MAGIC_DESTINATIONS.slow, departure_date: inDays(20) });
  const started = Date.now();
  await t.throwsAsync(running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: result.offers[0]?.id }), {
    instanceOf: ProviderTimeoutError,
    message: /within 30 s/,
  });
  const waited = Date.now() - started;
  t.true(waited >= 29_000 && waited < 32_000, `gave up after ${waited} ms`);
});

test('create offer: an expired search is 410, and swept a day later', async (t) => {
  const result = await search({ origin: 'LHR', destination: 'CDG', departure_date: inDays(20) });
  await running.service.db.knex('flight_searches').where({ id: result.search_id }).update({ expires_at: new Date(Date.now() - 1000) });
  const error = await t.throwsAsync(running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: result.offers[0]?.id }), {
    instanceOf: GoneError,
  });
  t.is(error?.code, 'search_expired');

  await running.service.db.knex('flight_searches').where({ id: result.search_id }).update({ expires_at: new Date(Date.now() - 2 * 86_400_000) });
  await running.service.sweepExpired();
  t.is(await running.service.db.knex('flight_searches').where({ id: result.search_id }).first(), undefined, 'swept a day after it expired');
  const gone = await t.throwsAsync(running.service.flightSearch.createOffer({ partnerId, door: 'rest' }, { search_id: result.search_id, result_id: result.offers[0]?.id }), {
    instanceOf: NotFoundError,
  });
  t.is(gone?.code, 'search_not_found');
});

const rest = (path: string, init: RequestInit = {}) =>
  fetch(`${running.url}/v1/flights/providers/provider_d/${path}`, {
    ...init,
    headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers as object) },
  });

test('REST: a partner’s own provider_d offer is stored, priced by check_flights, and an old booking token is 410', async (t) => {
  const searched: Json = await (
    await fetch(`${sandbox()}/v2/search?fly_from=LHR&fly_to=JFK&date_from=${inDays(30).split('-').reverse().join('/')}&curr=USD`, { headers: { apikey: 'kiwi_test_partner' } })
  ).json();
  const native = { currency: searched.currency, search_params: searched.search_params, data: [searched.data[0]] };
  const created = await rest('offers', { method: 'POST', body: JSON.stringify(native) });
  t.is(created.status, 201);
  const offerId = (await jsonOf(created)).offer_id;
  const priced = await rest(`offers/${offerId}/pricing`, { method: 'POST', body: '{}' });
  t.is(priced.status, 200);
  const body = await jsonOf(priced);
  t.false(body.price_changed);
  t.is(body.offer.raw_offer.check_flights.flights_checked, true);

  // A fixture dated as if searched 31 minutes ago: its flight is weeks ahead, its booking token past its 30 minutes.
  const old = datedFixture('lhr-jfk-gbp', new Date(Date.now() - 31 * 60_000));
  const stale = await jsonOf(await rest('offers', { method: 'POST', body: JSON.stringify(old) }));
  const gone = await rest(`offers/${stale.offer_id}/pricing`, { method: 'POST', body: '{}' });
  t.is(gone.status, 410);
  t.is((await jsonOf(gone)).code, 'offer_expired');

  // A booking token the provider never issued: the offer is stored as given, its pricing is 410, and the stored offer is left as it was.
  const unknownToken = Buffer.from('a token provider_d never issued').toString('base64url');
  const forged = await jsonOf(await rest('offers', { method: 'POST', body: JSON.stringify({ ...native, data: [{ ...searched.data[0], booking_token: unknownToken }] }) }));
  const before = await running.service.db.knex('offers').where({ id: forged.offer_id }).first();
  const unknown = await rest(`offers/${forged.offer_id}/pricing`, { method: 'POST', body: '{}' });
  t.is(unknown.status, 410);
  t.is((await jsonOf(unknown)).code, 'offer_expired');
  const after = await running.service.db.knex('offers').where({ id: forged.offer_id }).first();
  t.deepEqual(after.raw_offer, before.raw_offer, 'no check kept');
  t.deepEqual(after.priced_at, before.priced_at, 'not priced');

  const malformed = await rest('offers', { method: 'POST', body: JSON.stringify({ ...native, data: searched.data }) });
  t.is(malformed.status, 400);
  t.truthy((await jsonOf(malformed)).fields.data);
});

test('sandbox: the hold refuses an invalid passenger, and a price may change at the hold (price change at booking)', async (t) => {
  const headers = { apikey: 'kiwi_test_partner', 'content-type': 'application/json' };
  const hold = async (destination: string, surname: string) => {
    const searched: Json = await (await fetch(`${sandbox()}/v2/search?fly_from=LHR&fly_to=${destination}&date_from=${inDays(20).split('-').reverse().join('/')}`, { headers })).json();
    const bookingToken = searched.data[0].booking_token;
    const first: Json = await (await fetch(`${sandbox()}/v2/booking/check_flights?booking_token=${bookingToken}&bnum=0&adults=1&children=0&infants=0&currency=EUR`, { headers })).json();
    return fetch(`${sandbox()}/v2/booking/save_booking`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        booking_token: bookingToken,
        session_id: first.session_id,
        passengers: [
          { name: 'Ada', surname, title: 'Ms', birthday: '1990-12-10', category: 'adult', email: 'ada@example.com', phone: '+447700900123', nationality: 'GB', cardno: 'P5550001', expiration: '2034-06-30' },
        ],
        baggage: [],
      }),
    });
  };
  const refused = await hold('CDG', 'INVALID');
  t.is(refused.status, 422);
  const changed: Json = await (await hold(MAGIC_DESTINATIONS.priceChangeAtBooking, 'Lovelace')).json();
  t.true(changed.price_change);
  t.is(changed.total, 121.5);
  const confirmed: Json = await (
    await fetch(`${sandbox()}/v2/booking/confirm_payment`, { method: 'POST', headers, body: JSON.stringify({ booking_id: changed.booking_id, transaction_id: changed.transaction_id, amount: 121.5, currency: 'EUR' }) })
  ).json();
  t.is(confirmed.status, 0);
  const booking: Json = await (await fetch(`${sandbox()}/v2/booking/${changed.booking_id}`, { headers })).json();
  t.is(booking.status, 'CONFIRMED');
  t.regex(booking.pnr, /^[0-9A-F]{6}$/);
});
