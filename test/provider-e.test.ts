/**
 * provider_e over real HTTP: the adapter against its sandbox (every magic value), the sandbox's own
 * checkout flow (prebook → book → retrieve → cancel, with the magic values only it reaches), then the REST
 * routes that use the adapter, with the partner's key and a traveler's token from the real authorization
 * flow.
 */
import test from 'ava';
import { GoneError, ProviderRejectedError, ProviderUnavailableError } from '../core/errors.js';
import { ProviderEAdapter } from '../providers/flights/provider-e/adapter.js';
import { datedFixture, MAGIC_LAST_NAME, MAGIC_OFFERS } from '../providers/flights/provider-e/sandbox.js';
import { Catalogue, type NativeOffer } from '../providers/flights/provider-e/sandbox-catalogue.js';
import { jsonOf, type Json } from './helpers/http.js';
import { partnerWithTraveler } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

/** The fixtures' offer ids: BA117 LHR–JFK in GBP, EK76 CDG–DXB for a family in EUR, KU675 KWI–DXB in KWD. */
const LHR_JFK = 'hKFzrWJhMTE3LWxoci1qZmuhZKgyMDI2MDYwMaFjo0dCUKFmqE9MTk5DMFMx';
const CDG_DXB = 'hKFzrGVrNzYtY2RnLWR4YqFkqDIwMjYwNjE1oWOjRVVSoWaoVExYU0ZGUjE';
const KWI_DXB = 'hKFzrWt1Njc1LWt3aS1keGKhZKgyMDI2MDYxMKFjo0tXRKFmplZMT1dLVw';
const KEY = 'liteapi_test_partner';

let running: RunningService;
let adapter: ProviderEAdapter;
let apiKey: string;
let token: string;

const sandbox = () => `${running.config.sandboxUrl}/flights/provider_e`;

/** Calls the sandbox in provider_e's dialect. */
function provider(path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<Response> {
  return fetch(`${sandbox()}/v3.0/flights/${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'x-api-key': init.key ?? KEY, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** A native offer as the provider's API serves it (what a partner would send us). */
async function nativeOffer(id: string): Promise<Record<string, unknown>> {
  return (await jsonOf(await provider(`offers/${id}`))).data.offer;
}

const adult = (lastName = 'Lovelace') => ({
  passengerRef: 'P1',
  type: 'ADT',
  firstName: 'Ada',
  lastName,
  birthday: '1985-12-10',
  gender: 'F',
  document: { type: 'PASSPORT', number: '533401234', expiryDate: '2031-04-30', issuingCountry: 'GB' },
});
const contact = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+447700900123' };

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  adapter = new ProviderEAdapter({
    baseUrl: sandbox(),
    token: 'liteapi_test_contract',
    capabilities: running.service.providers.capabilities('provider_e'),
    clock: { now: () => new Date() },
  });
  ({ apiKey, token } = await partnerWithTraveler(running, 'Checkout Air', 'bookings.write'));
});
test.after.always(async () => {
  await running?.close();
});

test('adapter: verify answers the offer normalized; a price changed at verify comes back changed', async (t) => {
  const same = await adapter.price(await nativeOffer(LHR_JFK));
  t.is(same.providerOfferId, LHR_JFK);
  t.like(same.offer, { provider_id: 'provider_e', total_amount: '512.46', base_amount: '298.00', tax_amount: '214.46', total_currency: 'GBP' });
  t.true(new Date(same.offer.expires_at).getTime() > Date.now() + 25 * 60 * 1000, 'verify gives the offer a fresh expiration');
  const changed = await adapter.price(await nativeOffer(MAGIC_OFFERS.priceChangeAtVerify));
  t.like(changed.offer, { total_amount: '534.81', base_amount: '320.35', tax_amount: '214.46' });
  t.is((changed.offer.raw_offer as { offerId: string }).offerId, MAGIC_OFFERS.priceChangeAtVerify, 'the verified native offer is kept');
  const kwd = await adapter.price(await nativeOffer(KWI_DXB));
  t.is(kwd.offer.total_amount, '62.450');
});

/** The day `days` after `day`'s (UTC), as YYYY-MM-DD. */
const daysAfter = (day: Date, days: number) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + days)).toISOString().slice(0, 10);
/** The value with every date and date-time in it blanked: what stays the same from day to day. */
const withoutDates = (value: unknown): unknown => JSON.parse(JSON.stringify(value), (_key, item) => (typeof item === 'string' && /^\d{4}-\d{2}-\d{2}/.test(item) ? 'date' : item));

test('sandbox: an offer departs weeks ahead at its fixture\'s local time; on another day the same id differs only in its dates', async (t) => {
  // The fixture leaves 2026-06-01 at 08:25, three weeks after the day it was written for (2026-05-11).
  const before = new Date();
  const [leg] = ((await nativeOffer(LHR_JFK)) as NativeOffer).journeys[0]?.legs ?? [];
  const days = [before, new Date()].map((day) => daysAfter(day, 21));
  t.true(days.includes(leg?.departure.slice(0, 10) ?? ''), `${leg?.departure} is three weeks after today`);
  t.is(leg?.departure.slice(10), 'T08:25:00');
  t.is(leg?.arrival, `${leg?.departure.slice(0, 10)}T11:20:00`);

  const on = (now: string, id: string) => new Catalogue({ now: () => new Date(now) }).offer(id) as NativeOffer;
  for (const id of [LHR_JFK, CDG_DXB, KWI_DXB, MAGIC_OFFERS.priceChangeAtBooking]) {
    const first = on('2026-11-28T10:00:00Z', id);
    const later = on('2027-02-03T23:30:00Z', id);
    t.deepEqual(withoutDates(first), withoutDates(later), `${id}: only dates differ`);
    const legs = (offer: NativeOffer) => offer.journeys.flatMap((journey) => journey.legs.map((item) => [item.departure, item.arrival]));
    t.notDeepEqual(legs(first), legs(later), `${id}: the flights move with the day`);
    t.is(first.offerId, id, 'the id stays as it is, whatever day it encodes');
  }
  t.like(on('2026-11-28T10:00:00Z', LHR_JFK).journeys[0]?.legs[0], { departure: '2026-12-19T08:25:00', arrival: '2026-12-19T11:20:00' });
  t.like(on('2027-02-03T23:30:00Z', KWI_DXB).journeys[0]?.legs[0], { departure: '2027-03-05T09:45', arrival: '2027-03-05T12:25' });
  t.is(on('2027-02-03T23:30:00Z', LHR_JFK).expiration, '2027-02-04T00:00:00Z', 'the expiration runs from the clock');
  t.deepEqual(datedFixture('cdg-dxb-family-eur', new Date('2026-11-28T10:00:00Z')), on('2026-11-28T10:00:00Z', CDG_DXB), 'tests date a fixture as the sandbox serves it');
});

test('adapter: expired is offer_expired at every step; sold out is provider_rejected; a 500 is provider_unavailable', async (t) => {
  const expired = await nativeOffer(MAGIC_OFFERS.expired);
  t.is((await t.throwsAsync(adapter.price(expired), { instanceOf: GoneError }))?.code, 'offer_expired');
  t.is((await t.throwsAsync(adapter.seatMaps(expired, 'x'), { instanceOf: GoneError }))?.code, 'offer_expired');
  const soldOut = await t.throwsAsync(adapter.price(await nativeOffer(MAGIC_OFFERS.soldOut)), { instanceOf: ProviderRejectedError });
  t.is(soldOut?.code, 'offer_no_longer_available');
  t.notRegex(soldOut?.message ?? '', /No availability/, 'never the provider’s own words');
  const broken = await nativeOffer(MAGIC_OFFERS.error);
  const failed = await t.throwsAsync(adapter.price(broken), { instanceOf: ProviderUnavailableError });
  t.notRegex(failed?.message ?? '', /Internal server error/);
  await t.throwsAsync(adapter.seatMaps(broken, 'x'), { instanceOf: ProviderUnavailableError });
  const unknown = await t.throwsAsync(adapter.price({ offerId: 'hKFzqW5vYm9keQ' }), { instanceOf: GoneError });
  t.is(unknown?.code, 'offer_expired', 'an offer provider_e does not know is one that expired');
});

test('adapter: seat maps of a 777 (business 1-2-1, economy 3-4-3) and an A320 (3-3); infants get no seat', async (t) => {
  const [boeing] = await adapter.seatMaps(await nativeOffer(LHR_JFK), 'our-offer');
  t.is(boeing?.offer_id, 'our-offer');
  t.is(boeing?.segment_id, 'S1');
  const seats = boeing?.seat_map ?? {};
  t.like(seats['1A'], { row: '1', column: 'A', seat_type: 'window' });
  t.like(seats['1D'], { seat_type: 'aisle' });
  t.is(seats['1B'], undefined, 'business is 1-2-1: A, D, G, K');
  t.like(seats['31B'], { seat_type: 'middle' });
  t.like(seats['31C'], { seat_type: 'aisle' });
  t.like(seats['31K'], { seat_type: 'window' });
  t.is(seats['31I'], undefined, 'there is no I column');
  t.like(seats['42K'], { is_available: false, is_blocked: true, is_occupied: false, disclosures: ['exit_row', 'restricted_seat_general'] });
  const occupied = Object.values(seats).filter((seat) => seat.is_occupied);
  t.true(occupied.length > 10 && occupied.every((seat) => !seat.is_available && !seat.is_blocked));
  t.deepEqual(boeing?.pricing['30A'] ?? boeing?.pricing['30B'], { amount: 11, currency: 'GBP' });
  t.is(boeing?.pricing['50A'], undefined, 'standard seats are free');
  t.is(Object.keys(seats).length, 8 * 4 + 31 * 10);

  const [airbus] = await adapter.seatMaps(await nativeOffer(KWI_DXB), 'kwd-offer');
  t.deepEqual([...new Set(Object.values(airbus?.seat_map ?? {}).map((seat) => seat.column))].sort(), ['A', 'B', 'C', 'D', 'E', 'F']);
  t.is(Object.keys(airbus?.seat_map ?? {}).length, 180);
  t.deepEqual(airbus?.pricing['13A'] ?? airbus?.pricing['13B'], { amount: 25, currency: 'KWD' });

  const family: Json = await jsonOf(await provider('seatmaps', { body: { offerId: CDG_DXB } }));
  const refs = new Set(family.data.seatmaps[0].servicesAttachable.map((service: { passengerRef: string }) => service.passengerRef));
  t.deepEqual([...refs].sort(), ['P1', 'P2'], 'the infant (P3) travels on a lap');
});

test('sandbox: prebook, book, retrieve and cancel; a passenger the airline refuses is a 400 validation error', async (t) => {
  const prebooked = await provider('prebooks', { body: { offerId: LHR_JFK, usePaymentSdk: true, contact, passengers: [adult()] } });
  t.is(prebooked.status, 200);
  const prebook = (await jsonOf(prebooked)).data;
  t.like(prebook, { offerId: LHR_JFK, status: 'PREBOOKED', pricing: { display: { total: 512.46, currency: 'GBP' } } });
  t.is(prebook.changes, undefined);
  t.regex(prebook.secretKey, /^sk_test_/);
  t.true(prebook.servicesAttachable.every((service: { type: string }) => service.type !== 'SEAT'));

  const wrongPayment = await provider('bookings', { body: { prebookId: prebook.prebookId, payment: { method: 'TRANSACTION_ID', transactionId: 'tr_other' } } });
  t.is(wrongPayment.status, 400);
  const booked = await provider('bookings', { body: { prebookId: prebook.prebookId, payment: { method: 'TRANSACTION_ID', transactionId: prebook.transactionId } } });
  t.is(booked.status, 200);
  const booking = (await jsonOf(booked)).data;
  t.like(booking, { status: 'CONFIRMED', offerId: LHR_JFK, pricing: { display: { total: 512.46 } } });
  t.regex(booking.bookingRef, /^[A-Z2-9]{6}$/);
  const again = await provider('bookings', { body: { prebookId: prebook.prebookId, payment: { method: 'TRANSACTION_ID', transactionId: prebook.transactionId } } });
  t.is(again.status, 200, 'booking a booked prebook answers its booking (LiteAPI: idempotent per prebookId)');
  t.is((await jsonOf(again)).data.bookingId, booking.bookingId, 'a prebook is booked once');
  t.like((await jsonOf(await provider(`prebooks/${prebook.prebookId}`))).data, { status: 'BOOKED', bookingId: booking.bookingId });

  t.like((await jsonOf(await provider(`bookings/${booking.bookingId}`))).data, { bookingId: booking.bookingId, status: 'CONFIRMED' });
  const cancelled = await provider(`bookings/${booking.bookingId}`, { method: 'DELETE' });
  t.like((await jsonOf(cancelled)).data, { status: 'CANCELLED', refund: null });
  t.is((await jsonOf(await provider(`bookings/${booking.bookingId}`))).data.status, 'CANCELLED');
  t.is((await provider('bookings/nosuchbooking')).status, 404);

  const refused = await provider('prebooks', { body: { offerId: LHR_JFK, contact, passengers: [adult(MAGIC_LAST_NAME)] } });
  t.is(refused.status, 400);
  const body = await jsonOf(refused);
  t.is(body.error.code, 4002);
  t.deepEqual(body.error.details.map((detail: { field: string }) => detail.field), ['passengers[0].lastName']);
  const badName = await jsonOf(await provider('prebooks', { body: { offerId: LHR_JFK, contact, passengers: [{ ...adult('R2D2'), document: undefined }] } }));
  t.deepEqual(badName.error.details.map((detail: { field: string }) => detail.field), ['passengers[0].lastName', 'passengers[0].document']);
  const tooFew = await jsonOf(await provider('prebooks', { body: { offerId: CDG_DXB, contact, passengers: [adult()] } }));
  t.is(tooFew.error.details[0].field, 'passengers');
});

test('sandbox: a price changed at booking comes with the prebook, and the booking charges it; expired and sold out refuse the prebook', async (t) => {
  const verified = await jsonOf(await provider('verify', { body: { offerId: MAGIC_OFFERS.priceChangeAtBooking } }));
  t.is(verified.data.offer.pricing.display.total, 512.46, 'verify still holds the price');
  t.is(verified.data.changes, undefined);
  const prebook = (await jsonOf(await provider('prebooks', { body: { offerId: MAGIC_OFFERS.priceChangeAtBooking, contact, passengers: [adult()] } }))).data;
  t.deepEqual(prebook.changes.pricing, {
    old: { total: 512.46, base: 298, taxes: 214.46, currency: 'GBP' },
    new: { total: 534.81, base: 320.35, taxes: 214.46, currency: 'GBP' },
  });
  const booking = (await jsonOf(await provider('bookings', { body: { prebookId: prebook.prebookId, payment: { method: 'TRANSACTION_ID', transactionId: prebook.transactionId } } }))).data;
  t.is(booking.pricing.display.total, 534.81);

  const atVerify = await jsonOf(await provider('verify', { body: { offerId: MAGIC_OFFERS.priceChangeAtVerify } }));
  t.is(atVerify.data.changes.pricing.new.total, 534.81);

  const expired = await provider('prebooks', { body: { offerId: MAGIC_OFFERS.expired, contact, passengers: [adult()] } });
  t.is(expired.status, 404);
  t.is((await jsonOf(expired)).error.code, 4040);
  const soldOut = await provider('prebooks', { body: { offerId: MAGIC_OFFERS.soldOut, contact, passengers: [adult()] } });
  t.is(soldOut.status, 409);
  t.is((await jsonOf(soldOut)).error.code, 2001);
  t.is((await provider('prebooks', { body: { offerId: MAGIC_OFFERS.error, contact, passengers: [adult()] } })).status, 500);
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${running.url}/v1/flights/providers/provider_e/${path}`, {
    ...init,
    headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers as object) },
  });

async function createOffer(id: string): Promise<string> {
  const created = await jsonOf(await call('offers', { method: 'POST', body: JSON.stringify(await nativeOffer(id)) }));
  if (typeof created.offer_id !== 'string') throw new Error(`the offer was not created: ${JSON.stringify(created)}`);
  return created.offer_id;
}

test('REST: a provider_e offer is created from its native offer, priced (a changed price is said) and has seat maps', async (t) => {
  const offerId = await createOffer(MAGIC_OFFERS.priceChangeAtVerify);
  const stored = await jsonOf(await fetch(`${running.url}/v1/flights/providers/provider_e/offers/${offerId}`, { headers: { 'x-api-key': apiKey } }));
  t.like(stored, { id: offerId, provider_id: 'provider_e', total_amount: '512.46', total_currency: 'GBP' });
  const priced = await call(`offers/${offerId}/pricing`, { method: 'POST', body: '{}' });
  t.is(priced.status, 200);
  const body = await jsonOf(priced);
  t.true(body.price_changed);
  t.is(body.previous_total_amount, '512.46');
  t.is(body.offer.total_amount, '534.81');
  t.is(body.offer.id, offerId);

  const unchanged = await createOffer(LHR_JFK);
  t.false((await jsonOf(await call(`offers/${unchanged}/pricing`, { method: 'POST', body: '{}' }))).price_changed);
  const seatMaps = await call(`offers/${unchanged}/seat-maps`);
  t.is(seatMaps.status, 200);
  const [seatMap] = await jsonOf(seatMaps);
  t.like(seatMap, { offer_id: unchanged, segment_id: 'S1' });
  t.like(seatMap.seat_map['42K'], { is_blocked: true });

  const expired = await call(`offers/${await createOffer(MAGIC_OFFERS.expired)}/pricing`, { method: 'POST', body: '{}' });
  t.is(expired.status, 410);
  t.is((await jsonOf(expired)).code, 'offer_expired');
  const soldOut = await call(`offers/${await createOffer(MAGIC_OFFERS.soldOut)}/pricing`, { method: 'POST', body: '{}' });
  t.is(soldOut.status, 422);
  t.is((await jsonOf(soldOut)).code, 'offer_no_longer_available');
  const broken = await call(`offers/${await createOffer(MAGIC_OFFERS.error)}/pricing`, { method: 'POST', body: '{}' });
  t.is(broken.status, 502);
});
