/**
 * provider_b over real HTTP: the adapter against its sandbox (every magic value), then the REST routes
 * that use it, with the partner's key and a traveler's token from the real authorization flow.
 */
import test from 'ava';
import { ProviderRejectedError } from '../core/errors.js';
import { ProviderBAdapter } from '../providers/flights/provider-b/adapter.js';
import { datedFixture, MAGIC_OFFERS } from '../providers/flights/provider-b/sandbox.js';
import { Catalogue, type NativeOffer } from '../providers/flights/provider-b/sandbox-catalogue.js';
import { jsonOf } from './helpers/http.js';
import { authorize, clientFor, oauth, PARTNER_REDIRECT, uniqueEmail, userIdOf } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let adapter: ProviderBAdapter;
let apiKey: string;
let token: string;
let narrowToken: string;
/** Another traveler of the same partner, with bookings.write. */
let narrowTokenWithBookings: string;

const sandbox = () => `${running.config.sandboxUrl}/flights/provider_b`;

/** A saved passenger of the token's traveler, stored as the passengers routes store one. */
async function savedPassengerOf(bearer: string): Promise<string> {
  const userId = userIdOf(bearer);
  const [row] = await running.service.db
    .knex('user_passengers')
    .insert({ user_id: userId, first_name: 'Ada', last_name: 'Lovelace', gender: 'female', date_of_birth: '1985-12-10' })
    .returning('id');
  return row.id;
}

/** A native offer as the provider's own API serves it (what a partner would send us). */
async function nativeOffer(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox()}/air/offers/${id}`, { headers: { authorization: 'Bearer duffel_test_partner', 'duffel-version': 'v2' } });
  return (await jsonOf(response)).data;
}

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  adapter = new ProviderBAdapter({
    baseUrl: sandbox(),
    token: 'duffel_test_contract',
    capabilities: running.service.providers.capabilities('provider_b'),
    clock: { now: () => new Date() },
  });
  const partner = await running.service.partners.createPartner({ name: 'Seat Air' });
  apiKey = partner.api_key;
  const client = await running.service.partnerClients.create({ partner_id: partner.partner_id, name: 'Seat Air', redirect_uris: [PARTNER_REDIRECT] });
  const config = await clientFor(running, client.client_id, oauth.ClientSecretBasic(client.client_secret as string));
  token = (await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'bookings.write', traveler: { email: uniqueEmail() } })).tokens.access_token;
  narrowToken = (await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'profile.read', traveler: { email: uniqueEmail() } })).tokens
    .access_token;
  narrowTokenWithBookings = (await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'bookings.write', traveler: { email: uniqueEmail() } }))
    .tokens.access_token;
});
test.after.always(async () => {
  await running?.close();
});

test('adapter: pricing answers the offer normalized; a changed price comes back changed', async (t) => {
  const same = await adapter.price(await nativeOffer('off_0000AuPyAJY1KPrmYbBxIm'));
  t.is(same.offer.total_amount, '512.46');
  t.is(same.providerOfferId, 'off_0000AuPyAJY1KPrmYbBxIm');
  const changed = await adapter.price(await nativeOffer(MAGIC_OFFERS.priceChange));
  t.is(changed.offer.total_amount, '550.89');
  t.is(changed.offer.base_amount, '336.43');
  t.is(changed.offer.tax_amount, '214.46');
});

/** The day `days` after `day`'s (UTC), as YYYY-MM-DD. */
const daysAfter = (day: Date, days: number) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + days)).toISOString().slice(0, 10);
/** The value with every date and date-time in it blanked: what stays the same from day to day. */
const withoutDates = (value: unknown): unknown => JSON.parse(JSON.stringify(value), (_key, item) => (typeof item === 'string' && /^\d{4}-\d{2}-\d{2}/.test(item) ? 'date' : item));

test('sandbox: an offer departs weeks ahead at its fixture\'s local time; on another day the same id differs only in its dates', async (t) => {
  // The fixture leaves 2026-06-01 at 08:25, three weeks after the day it was written for (2026-05-11).
  const before = new Date();
  const [segment] = ((await nativeOffer('off_0000AuPyAJY1KPrmYbBxIm')) as NativeOffer).slices[0]?.segments ?? [];
  const days = [before, new Date()].map((day) => daysAfter(day, 21));
  t.true(days.includes(segment?.departing_at.slice(0, 10) ?? ''), `${segment?.departing_at} is three weeks after today`);
  t.is(segment?.departing_at.slice(10), 'T08:25:00');
  t.is(segment?.arriving_at, `${segment?.departing_at.slice(0, 10)}T11:20:00`);

  const on = (now: string, id: string) => new Catalogue({ now: () => new Date(now) }).offer(id) as NativeOffer;
  for (const id of ['off_0000AuPyAJY1KPrmYbBxIm', 'off_0000AuQ1nH7s0rJjVdL2qQ', MAGIC_OFFERS.priceChange]) {
    const first = on('2026-11-28T10:00:00Z', id);
    const later = on('2027-02-03T23:30:00Z', id);
    t.deepEqual(withoutDates(first), withoutDates(later), `${id}: only dates differ`);
    const legs = (offer: NativeOffer) => offer.slices.flatMap((slice) => slice.segments.map((leg) => [leg.departing_at, leg.arriving_at]));
    t.notDeepEqual(legs(first), legs(later), `${id}: the flights move with the day`);
  }
  t.like(on('2026-11-28T10:00:00Z', 'off_0000AuPyAJY1KPrmYbBxIm').slices[0]?.segments[0], { departing_at: '2026-12-19T08:25:00', arriving_at: '2026-12-19T11:20:00' });
  t.like(on('2027-02-03T23:30:00Z', 'off_0000AuQ1nH7s0rJjVdL2qQ').slices[0]?.segments[0], { departing_at: '2027-03-05T11:00', arriving_at: '2027-03-06T14:25' });
  t.is(on('2027-02-03T23:30:00Z', 'off_0000AuPyAJY1KPrmYbBxIm').expires_at, '2027-02-04T00:00:00.000Z', 'the expiry runs from the clock');
  t.deepEqual(datedFixture('sfo-nrt-jpy', new Date('2026-11-28T10:00:00Z')), on('2026-11-28T10:00:00Z', 'off_0000AuQ1nH7s0rJjVdL2qQ'), 'tests date a fixture as the sandbox serves it');
});

test('adapter: seat maps of a 777 (business 1-2-1, economy 3-4-3) and an A320 (3-3)', async (t) => {
  const [boeing] = await adapter.seatMaps(await nativeOffer('off_0000AuPyAJY1KPrmYbBxIm'), 'our-offer');
  t.is(boeing?.offer_id, 'our-offer');
  t.is(boeing?.segment_id, 'seg_0000AuPyAJY1KPrmYbBxIo');
  const seats = boeing?.seat_map ?? {};
  t.like(seats['1A'], { row: '1', column: 'A', seat_type: 'window' });
  t.like(seats['1D'], { seat_type: 'aisle' });
  t.like(seats['31B'], { seat_type: 'middle' });
  t.like(seats['31C'], { seat_type: 'aisle' });
  t.like(seats['31K'], { seat_type: 'window' });
  t.is(seats['31I'], undefined, 'there is no I column');
  t.like(seats['42K'], { is_available: false, is_blocked: true, is_occupied: false, disclosures: ['restricted_seat_general'] });
  const occupied = Object.values(seats).filter((seat) => seat.is_occupied);
  t.true(occupied.length > 10 && occupied.every((seat) => !seat.is_available));
  t.deepEqual(boeing?.pricing['30A'] ?? boeing?.pricing['30B'], { amount: 11, currency: 'GBP' });
  t.is(boeing?.pricing['50A'], undefined, 'standard seats are free');

  const [airbus] = await adapter.seatMaps(await nativeOffer('off_0000AuQ2KwD3sKu675AaaA'), 'kwd-offer');
  t.deepEqual(
    [...new Set(Object.values(airbus?.seat_map ?? {}).map((seat) => seat.column))].sort(),
    ['A', 'B', 'C', 'D', 'E', 'F'],
  );
  t.is(Object.keys(airbus?.seat_map ?? {}).length, 180);
  t.deepEqual(airbus?.pricing['13A'] ?? airbus?.pricing['13B'], { amount: 25, currency: 'KWD' });
});

const call = (path: string, init: RequestInit = {}, bearer = token) =>
  fetch(`${running.url}/v1/flights/providers/${path}`, {
    ...init,
    headers: { 'x-api-key': apiKey, authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...(init.headers as object) },
  });

async function createOffer(id: string): Promise<string> {
  const created = await call('provider_b/offers', { method: 'POST', body: JSON.stringify(await nativeOffer(id)) });
  return (await jsonOf(created)).offer_id;
}

test('REST: pricing says when the price changed and keeps the new offer; seat maps; scopes', async (t) => {
  const offerId = await createOffer(MAGIC_OFFERS.priceChange);
  const priced = await call(`provider_b/offers/${offerId}/pricing`, { method: 'POST', body: '{}' });
  t.is(priced.status, 200);
  const body = await jsonOf(priced);
  t.true(body.price_changed);
  t.is(body.previous_total_amount, '512.46');
  t.is(body.offer.total_amount, '550.89');
  t.is(body.offer.id, offerId);
  const stored = await jsonOf(await fetch(`${running.url}/v1/flights/providers/provider_b/offers/${offerId}`, { headers: { 'x-api-key': apiKey } }));
  t.is(stored.total_amount, '550.89', 'the new price is kept');

  const unchanged = await createOffer('off_0000AuPyAJY1KPrmYbBxIm');
  const again = await jsonOf(await call(`provider_b/offers/${unchanged}/pricing`, { method: 'POST' }));
  t.false(again.price_changed);

  const seatMaps = await call(`provider_b/offers/${unchanged}/seat-maps`);
  t.is(seatMaps.status, 200);
  t.is((await jsonOf(seatMaps))[0].offer_id, unchanged);

  const forbidden = await call(`provider_b/offers/${unchanged}/pricing`, { method: 'POST', body: '{}' }, narrowToken);
  t.is(forbidden.status, 403);
  t.is((await jsonOf(forbidden)).scope, 'bookings.write');
});

test('REST: provider failures keep their meaning; seat maps where seats are not sold are a clear 422', async (t) => {
  const soldOut = await call(`provider_b/offers/${await createOffer(MAGIC_OFFERS.soldOut)}/pricing`, { method: 'POST', body: '{}' });
  t.is(soldOut.status, 422);
  t.is((await jsonOf(soldOut)).code, 'offer_no_longer_available');
  const broken = await call(`provider_b/offers/${await createOffer(MAGIC_OFFERS.error)}/pricing`, { method: 'POST', body: '{}' });
  t.is(broken.status, 502);
  const noSeats = await call('provider_d/offers/00000000-0000-4000-8000-000000000000/seat-maps');
  t.is(noSeats.status, 422);
  const body = await jsonOf(noSeats);
  t.is(body.code, 'seat_selection_not_supported');
  t.regex(body.message, /book without seat selection/);
});

test('adapter: passenger details reach the provider; a name it refuses is invalid_passenger', async (t) => {
  const native = await nativeOffer('off_0000AuPyAJY1KPrmYbBxIm');
  const updated = await adapter.updatePassenger(native, 'pas_0000AuPyAJXRRDNqh2bdDH', {
    first_name: 'Ada',
    last_name: "O'Brien-Lovelace",
    loyalty_programme_accounts: [{ airline_iata_code: 'BA', account_number: '12345678' }],
  });
  t.like(updated, { id: 'pas_0000AuPyAJXRRDNqh2bdDH', type: 'adult', given_name: 'Ada', family_name: "O'Brien-Lovelace" });
  t.deepEqual(updated.loyalty_programme_accounts, [{ airline_iata_code: 'BA', account_number: '12345678' }]);
  const refused = await t.throwsAsync(adapter.updatePassenger(native, 'pas_0000AuPyAJXRRDNqh2bdDH', { last_name: 'R2D2' }), {
    instanceOf: ProviderRejectedError,
  });
  t.is(refused?.code, 'invalid_passenger');
});

test('REST: the providers list needs a token; replace keeps the offer id; passengers mapped and updated', async (t) => {
  t.is((await fetch(`${running.url}/v1/flights/providers`, { headers: { 'x-api-key': apiKey } })).status, 401);
  t.deepEqual(
    (await jsonOf(await fetch(`${running.url}/v1/flights/providers`, { headers: { 'x-api-key': apiKey, authorization: `Bearer ${narrowToken}` } }))).map(
      (provider: { id: string }) => provider.id,
    ),
    ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'],
    'any valid token will do, sorted by priority',
  );

  const offerId = await createOffer('off_0000AuPyAJY1KPrmYbBxIm');
  const replaced = await call(`provider_b/offers/${offerId}`, { method: 'PUT', body: JSON.stringify(await nativeOffer(MAGIC_OFFERS.priceChange)) });
  t.is(replaced.status, 200);
  t.deepEqual(await jsonOf(replaced), { offer_id: offerId });
  const row = await running.service.db.knex('offers').where({ id: offerId }).first();
  t.is(row.provider_offer_id, MAGIC_OFFERS.priceChange);

  const passengerId = 'pas_0000AuPyAJXRRDNqh2bdDH';
  const savedPassenger = await savedPassengerOf(token);
  const mapped = await call(`provider_b/offers/${offerId}/passengers`, {
    method: 'POST',
    body: JSON.stringify({ passengers: [{ user_passenger_id: savedPassenger, provider_passenger_id: passengerId }] }),
  });
  t.is(mapped.status, 200);
  t.deepEqual((await jsonOf(mapped)).passengers, [{ user_passenger_id: savedPassenger, provider_passenger_id: passengerId }]);
  t.is((await running.service.db.knex('offer_passengers').where({ offer_id: offerId })).length, 1);
  const wrong = await call(`provider_b/offers/${offerId}/passengers`, {
    method: 'POST',
    body: JSON.stringify({ passengers: [{ user_passenger_id: savedPassenger, provider_passenger_id: 'pas_nobody' }] }),
  });
  t.is(wrong.status, 400);
  t.regex((await jsonOf(wrong)).fields['passengers.0.provider_passenger_id'].message, /not a passenger of this offer/);
  const strangers = await call(`provider_b/offers/${offerId}/passengers`, {
    method: 'POST',
    body: JSON.stringify({ passengers: [{ user_passenger_id: await savedPassengerOf(narrowTokenWithBookings), provider_passenger_id: passengerId }] }),
  });
  t.is(strangers.status, 400, "another traveler's saved passenger");
  t.is((await jsonOf(strangers)).fields['passengers.0.user_passenger_id'].rule, 'own_passenger');

  const updated = await call(`provider_b/offers/${offerId}/passengers/${passengerId}`, {
    method: 'PUT',
    body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace' }),
  });
  t.is(updated.status, 200);
  const tooEarly = await call(`provider_b/offers/${offerId}/passengers/${passengerId}`, {
    method: 'PUT',
    body: JSON.stringify({ first_name: 'Ada', date_of_birth: '1990-12-10' }),
  });
  t.is(tooEarly.status, 400);
  t.is((await jsonOf(tooEarly)).fields.date_of_birth.rule, 'at_booking');
  t.like(await jsonOf(updated), { id: passengerId, given_name: 'Ada', family_name: 'Lovelace' });
  const mismatch = await call(`provider_b/offers/${offerId}/passengers/${passengerId}`, { method: 'PUT', body: JSON.stringify({ passenger_id: 'pas_other' }) });
  t.is(mismatch.status, 400);
  t.is((await call(`provider_b/offers/${offerId}/passengers/pas_nobody`, { method: 'PUT', body: '{}' })).status, 404);
  const refused = await call(`provider_b/offers/${offerId}/passengers/${passengerId}`, { method: 'PUT', body: JSON.stringify({ last_name: 'R2D2' }) });
  t.is(refused.status, 422);
  t.is((await jsonOf(refused)).code, 'invalid_passenger');
  const notHere = await call(`provider_c/offers/${offerId}/passengers/${passengerId}`, { method: 'PUT', body: '{}' });
  t.is(notHere.status, 422);
  t.is((await jsonOf(notHere)).code, 'passenger_update_not_supported');
});

test('REST: a token of another partner’s client does not work with this partner’s key', async (t) => {
  const other = await running.service.partners.createPartner({ name: 'Other Air' });
  const client = await running.service.partnerClients.create({ partner_id: other.partner_id, name: 'Other Air', redirect_uris: [PARTNER_REDIRECT] });
  const config = await clientFor(running, client.client_id, oauth.ClientSecretBasic(client.client_secret as string));
  const foreign = (await authorize(running, config, { redirectUri: PARTNER_REDIRECT, scope: 'bookings.write', traveler: { email: uniqueEmail() } })).tokens
    .access_token;
  const offerId = await createOffer('off_0000AuPyAJY1KPrmYbBxIm');
  const refused = await call(`provider_b/offers/${offerId}/pricing`, { method: 'POST', body: '{}' }, foreign);
  t.is(refused.status, 403);
  t.is((await jsonOf(refused)).code, 'token_partner_mismatch');
  const own = await fetch(`${running.url}/v1/flights/providers`, { headers: { 'x-api-key': other.api_key, authorization: `Bearer ${foreign}` } });
  t.is(own.status, 200, 'with its own partner key it works');
});

test('REST: replacing an offer drops passenger mappings it no longer has; an offer and its passengers belong to one traveler', async (t) => {
  const offerId = await createOffer('off_0000AuPyAJY1KPrmYbBxIm');
  await call(`provider_b/offers/${offerId}/passengers`, {
    method: 'POST',
    body: JSON.stringify({ passengers: [{ user_passenger_id: await savedPassengerOf(token), provider_passenger_id: 'pas_0000AuPyAJXRRDNqh2bdDH' }] }),
  });
  const taken = await call(
    `provider_b/offers/${offerId}/passengers`,
    {
      method: 'POST',
      body: JSON.stringify({ passengers: [{ user_passenger_id: await savedPassengerOf(narrowTokenWithBookings), provider_passenger_id: 'pas_0000AuPyAJXRRDNqh2bdDH' }] }),
    },
    narrowTokenWithBookings,
  );
  t.is(taken.status, 404, 'the first traveler who used the offer claimed it');
  t.is((await jsonOf(taken)).code, 'offer_not_found');
  const jpy = await nativeOffer('off_0000AuQ1nH7s0rJjVdL2qQ');
  t.is((await call(`provider_b/offers/${offerId}`, { method: 'PUT', body: JSON.stringify(jpy) })).status, 200);
  t.is((await running.service.db.knex('offer_passengers').where({ offer_id: offerId })).length, 0);
});
