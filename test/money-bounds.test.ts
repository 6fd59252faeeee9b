/**
 * Money that does not fit (issue 22, item 5): every amount that comes from outside is held below 10^11 of
 * its currency, with its currency's minor units (core/money: MAX_WHOLE_DIGITS). An offer whose total
 * would overflow the database (2^63 minor units) or JavaScript's safe integers is refused where it
 * enters, with the validation envelope naming the field, and nothing is stored; so are an expected total,
 * a seat price and a booking whose parts add up past the bound. Over REST with a partner's key and a
 * traveler's token from the real OAuth flow, the providers' sandboxes and the processor's over HTTP.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { ValidationError } from '../core/errors.js';
import { planBooking } from '../core/bookings/booking-plan.js';
import { CreateBookingRequest } from '../core/bookings/schemas.js';
import type { ProviderCapabilities } from '../core/flights/schemas.js';
import { maxAmount, maxMinorUnits, minorUnits, toBoundedDecimalString, toDecimalString, withinBound } from '../core/money/money.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { datedFixture } from '../providers/flights/provider-b/sandbox.js';
import { BOOKING_CASES, book, booker, prepareBooking, type Booker } from './helpers/bookings.js';
import { intentsOf } from './helpers/booking-records.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let ada: Booker;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  ada = await booker(running);
});
test.after.always(async () => {
  await running?.close();
});

const knex = () => running.service.db.knex;

/** 2^63 − 1 and 2^63 minor units of GBP: the first is bigint's largest, the second overflows it. */
const BIGINT_MAX_GBP = '92233720368547758.07';
const BIGINT_OVERFLOW_GBP = '92233720368547758.08';
/** Amounts that pass every older check but do not fit: past 2^63, past 2^53 minor units, just past the bound. */
const TOO_LARGE_GBP = [BIGINT_OVERFLOW_GBP, BIGINT_MAX_GBP, '100000000000000000.00', '1000000000000000.00', '100000000000.00'];

const createOffer = (providerId: string, native: unknown, apiKey = ada.partner.apiKey) =>
  fetch(`${running.url}/v1/flights/providers/${providerId}/offers`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(native),
  });

const offersOfPartner = async (partnerId = ada.partner.partnerId) => Number((await knex()('offers').where({ partner_id: partnerId }).count({ count: '*' }).first())?.count);

/** A provider's native offer as its sandbox serves it now (valid, not expired). */
async function liveNative(providerId: string): Promise<Json> {
  return structuredClone((await (BOOKING_CASES[providerId] as (typeof BOOKING_CASES)[string]).request(running, 'normal', randomUUID(), 'instant')).raw);
}

/** Where each provider writes its offer's total, and the path the envelope names. */
const TOTALS: Record<string, { set(native: Json, amount: string): void; fields: string[] }> = {
  provider_a: {
    set: (native, amount) => void (native.price.grandTotal = amount),
    fields: ['price.grandTotal'],
  },
  provider_b: { set: (native, amount) => void (native.total_amount = amount), fields: ['total_amount'] },
  provider_c: { set: (native, amount) => void (native.TotalPrice.TotalAmount.amount = amount), fields: ['TotalPrice.TotalAmount.amount'] },
  provider_d: {
    // A JSON number, as provider_d writes money; the checked price wins where there is one.
    set: (native, amount) => {
      native.data[0].price = Number(amount);
      if (native.check_flights?.conversion) native.check_flights.conversion.amount = Number(amount);
    },
    fields: ['check_flights.conversion.amount', 'data.0.price'],
  },
  provider_e: { set: (native, amount) => void (native.pricing.display.total = Number(amount)), fields: ['pricing.display.total'] },
};

/** The validation envelope naming `field` with rule `max`. */
function assertNamesMax(t: ExecutionContext, status: number, body: Json, fields: string[], label: string): void {
  t.is(status, 400, `${label}: ${JSON.stringify(body)}`);
  t.is(body.code, 'validation_error', label);
  const named = fields.filter((field) => body.fields?.[field]);
  t.is(named.length, 1, `${label}: one of ${fields.join(', ')} is named: ${JSON.stringify(body.fields)}`);
  t.like(body.fields?.[named[0] as string], { rule: 'max' }, label);
}

for (const providerId of Object.keys(TOTALS)) {
  test.serial(`${providerId}: createProviderOffer refuses a total past the bound (up to and past 2^63 minor units), naming the native field; nothing is stored`, async (t) => {
    const { set, fields } = TOTALS[providerId] as (typeof TOTALS)[string];
    const before = await offersOfPartner();
    for (const amount of TOO_LARGE_GBP) {
      const native = await liveNative(providerId);
      set(native, amount);
      const response = await createOffer(providerId, native);
      assertNamesMax(t, response.status, await jsonOf(response), fields, `${providerId} ${amount}`);
    }
    t.is(await offersOfPartner(), before, 'no offer was stored');
  });
}

test.serial('provider_b: a service priced past the bound is refused naming available_services.N.total_amount', async (t) => {
  const before = await offersOfPartner();
  const native = await liveNative('provider_b');
  t.true((native.available_services ?? []).length > 0, 'the sandbox offer sells services');
  native.available_services[0].total_amount = BIGINT_OVERFLOW_GBP;
  const response = await createOffer('provider_b', native);
  assertNamesMax(t, response.status, await jsonOf(response), ['available_services.0.total_amount'], 'service');
  t.is(await offersOfPartner(), before);
});

/** provider_b's fixtures in JPY (0 decimals) and KWD (3), as its sandbox serves them now (current, not expired). */
const fixture = (name: string): Json => datedFixture(name, new Date());

for (const [name, currency, largest, tooLarge] of [
  ['lhr-jfk-gbp', 'GBP', '99999999999.99', '100000000000.00'],
  ['sfo-nrt-jpy', 'JPY', '99999999999', '100000000000'],
  ['kwi-dxb-kwd', 'KWD', '99999999999.999', '100000000000.000'],
] as const) {
  test.serial(`${currency}: the bound is per currency's minor units: ${largest} is taken, ${tooLarge} is refused`, async (t) => {
    t.is(maxAmount(currency), largest);
    const taken = await createOffer('provider_b', { ...fixture(name), total_amount: largest });
    const takenBody = await jsonOf(taken);
    t.is(taken.status, 201, JSON.stringify(takenBody));
    const stored = await knex()('offers').where({ id: takenBody.offer_id }).first();
    t.is(stored.offer.total_amount, largest);

    const before = await offersOfPartner();
    const refused = await createOffer('provider_b', { ...fixture(name), total_amount: tooLarge });
    const body = await jsonOf(refused);
    assertNamesMax(t, refused.status, body, ['total_amount'], currency);
    t.true(body.fields.total_amount.message.includes(`${largest} ${currency}`), 'the message says the largest amount taken');
    t.is(await offersOfPartner(), before);
  });
}

/** A booking of a provider_b offer whose stored total is then set to `total` (as an offer stored before the bound). */
async function offerStoredAs(total: string): Promise<{ body: Json; offerId: string }> {
  const prepared = await prepareBooking(running, ada, 'provider_b');
  const row = await knex()('offers').where({ id: prepared.offerId }).first();
  await knex()('offers').where({ id: prepared.offerId }).update({ offer: JSON.stringify({ ...row.offer, total_amount: total }) });
  return { body: prepared.body, offerId: prepared.offerId };
}

/** Nothing of a refused booking is kept: no booking row for its key, no payment intent. */
async function assertNothingBooked(t: ExecutionContext, key: string, intentsBefore: number): Promise<void> {
  t.is(await knex()('bookings').where({ user_id: ada.userId, idempotency_key: key }).first(), undefined, 'no booking was stored');
  t.is(Number((await knex()('processor_sandbox_payment_intents').count({ count: '*' }).first())?.count), intentsBefore, 'no card was touched');
}

const intentCount = async () => Number((await knex()('processor_sandbox_payment_intents').count({ count: '*' }).first())?.count);

for (const total of [BIGINT_OVERFLOW_GBP, BIGINT_MAX_GBP, '100000000000000000.00', '1000000000000000.00']) {
  test.serial(`booking an offer stored with a total of ${total} GBP is 400 naming offer_id, not a 500; nothing is booked`, async (t) => {
    const { body } = await offerStoredAs(total);
    const intents = await intentCount();
    const response = await book(running, ada, 'provider_b', body);
    const answer = await jsonOf(response);
    assertNamesMax(t, response.status, answer, ['offer_id'], total);
    await assertNothingBooked(t, body.idempotency_key, intents);
  });
}

test.serial('a booking whose services take the total past the bound is 400 naming services; nothing is booked', async (t) => {
  const { body } = await offerStoredAs('99999999999.99');
  t.true((body.services ?? []).length > 0, 'the booking buys services');
  const intents = await intentCount();
  const response = await book(running, ada, 'provider_b', body);
  assertNamesMax(t, response.status, await jsonOf(response), ['services'], 'services');
  await assertNothingBooked(t, body.idempotency_key, intents);
});

test.serial('expected_total: past the bound, more precise than its currency, or in no currency is 400 naming expected_total.*', async (t) => {
  const prepared = await prepareBooking(running, ada, 'provider_b');
  const cases: [Json, string, string][] = [
    [{ amount: BIGINT_OVERFLOW_GBP, currency: 'GBP' }, 'expected_total.amount', 'max'],
    [{ amount: '100000000000000000', currency: 'GBP' }, 'expected_total.amount', 'max'],
    [{ amount: '100000000000', currency: 'JPY' }, 'expected_total.amount', 'max'],
    [{ amount: '512.465', currency: 'GBP' }, 'expected_total.amount', 'custom'],
    [{ amount: '10.00', currency: 'ABC' }, 'expected_total.currency', 'custom'],
  ];
  for (const [expected, field, rule] of cases) {
    const intents = await intentCount();
    const body = { ...prepared.body, idempotency_key: `money-${randomUUID()}`, expected_total: expected };
    const response = await book(running, ada, 'provider_b', body);
    const answer = await jsonOf(response);
    t.is(response.status, 400, `${JSON.stringify(expected)}: ${JSON.stringify(answer)}`);
    t.like(answer, { code: 'validation_error', fields: { [field]: { rule } } }, JSON.stringify(expected));
    await assertNothingBooked(t, body.idempotency_key, intents);
  }
});

test.serial('a seat selection’s informative price past the bound is 400 naming seat_selections.0.price', async (t) => {
  const prepared = await prepareBooking(running, ada, 'provider_b');
  t.true((prepared.body.seat_selections ?? []).length > 0, 'the booking chooses seats');
  const intents = await intentCount();
  const body = structuredClone(prepared.body);
  body.seat_selections[0].price = 1e300;
  const response = await book(running, ada, 'provider_b', body);
  const answer = await jsonOf(response);
  t.is(response.status, 400, JSON.stringify(answer));
  t.like(answer, { code: 'validation_error', fields: { 'seat_selections.0.price': { rule: 'max' } } });
  await assertNothingBooked(t, body.idempotency_key, intents);
});

test.serial('a retry at a new total the provider put past the bound is 400 naming order_id, not a 500; the booking stays failed', async (t) => {
  const { body } = await prepareBooking(running, ada, 'provider_d', 'priceChangedAtBooking');
  const changed = await book(running, ada, 'provider_d', body);
  const change = await jsonOf(changed);
  t.is(changed.status, 409, JSON.stringify(change));
  const row = await knex()('bookings').where({ user_id: ada.userId, idempotency_key: body.idempotency_key }).first();
  // As if the provider had answered this new total (no sandbox says such a thing).
  const failure = { ...row.failure, priceChange: { ...row.failure.priceChange, newTotalAmount: toDecimalString(BIGINT_OVERFLOW_GBP, row.currency) } };
  await knex()('bookings').where({ id: row.id }).update({ failure: JSON.stringify(failure) });
  const intents = (await intentsOf(running, row.id)).length;

  const retried = await book(running, ada, 'provider_d', { ...body, order_id: change.order_id }, '/retry');
  assertNamesMax(t, retried.status, await jsonOf(retried), ['order_id'], 'retry');
  const after = await knex()('bookings').where({ id: row.id }).first();
  t.like(after, { status: 'failed', amount_minor: row.amount_minor, attempt: row.attempt });
  t.is((await intentsOf(running, row.id)).length, intents, 'nothing was authorized');
});

test('property: createProviderOffer with any total past the bound, on any provider, is a validation envelope naming the total; never a 5xx, nothing stored', async (t) => {
  const natives = Object.fromEntries(await Promise.all(Object.keys(TOTALS).map(async (providerId) => [providerId, await liveNative(providerId)] as const)));
  // The property sends its requests as fast as it can: a partner whose plan lets it.
  await running.service.partners.setPlan({ id: 'money-bounds', requests_per_second: 10_000, burst: 10_000, requests_per_day: 1_000_000 });
  const partner = await running.service.partners.createPartner({ name: 'Money Bounds Air', plan_id: 'money-bounds' });
  // Whole parts from just past 10^11 to far past 2^63 minor units, with GBP's two decimals.
  const amount = fc
    .tuple(fc.bigInt({ min: 10n ** 11n, max: 10n ** 30n }), fc.integer({ min: 0, max: 99 }))
    .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...Object.keys(TOTALS)), amount, async (providerId, total) => {
      const { set, fields } = TOTALS[providerId] as (typeof TOTALS)[string];
      const native = structuredClone(natives[providerId]);
      set(native, total);
      const response = await createOffer(providerId, native, partner.api_key);
      const body = await jsonOf(response);
      return response.status === 400 && body.code === 'validation_error' && fields.some((field) => body.fields?.[field]?.rule === 'max');
    }),
    { numRuns: 60 },
  );
  t.is(await offersOfPartner(partner.partner_id), 0, 'no offer was stored');
});

test('the bound in each currency: below 10^11 of it, with exactly its minor units; past it, ValidationError naming the field', (t) => {
  t.is(maxMinorUnits('GBP'), 9_999_999_999_999n);
  t.is(maxMinorUnits('JPY'), 99_999_999_999n);
  t.is(maxMinorUnits('KWD'), 99_999_999_999_999n);
  for (const currency of ['GBP', 'JPY', 'KWD', 'CLF']) {
    t.true(maxMinorUnits(currency) <= BigInt(Number.MAX_SAFE_INTEGER), `${currency}: a safe integer`);
    t.true(maxMinorUnits(currency) * 221n < 2n ** 63n, `${currency}: any sum of a booking's parts fits bigint`);
    t.is(String(Number(maxAmount(currency))), maxAmount(currency), `${currency}: exact as a JSON number`);
    t.is(toBoundedDecimalString(maxAmount(currency), currency), maxAmount(currency));
    t.true(withinBound(-maxMinorUnits(currency), currency));
    t.false(withinBound(maxMinorUnits(currency) + 1n, currency));
  }
  t.is(toBoundedDecimalString('99999999999.99', 'GBP', 'total_amount'), '99999999999.99');
  const error = t.throws(() => toBoundedDecimalString(BIGINT_OVERFLOW_GBP, 'GBP', 'services.0.amount'), { instanceOf: ValidationError });
  t.like(error?.fields, { 'services.0.amount': { rule: 'max' } });
  t.like(t.throws(() => toBoundedDecimalString(1e17, 'JPY', 'price'), { instanceOf: ValidationError })?.fields, { price: { rule: 'max' } });
  t.like(t.throws(() => toBoundedDecimalString('-100000000000', 'JPY', 'refund'), { instanceOf: ValidationError })?.fields, { refund: { rule: 'max' } });
  t.like(t.throws(() => toBoundedDecimalString(Number.NaN, 'GBP', 'price.total'), { instanceOf: ValidationError })?.fields, { 'price.total': { rule: 'decimal' } });
  fc.assert(
    fc.property(fc.constantFrom('GBP', 'JPY', 'KWD', 'USD', 'BHD'), fc.bigInt({ min: 0n, max: 10n ** 25n }), (currency, units) => {
      const digits = minorUnits(currency) as number;
      const text = digits === 0 ? units.toString() : `${units / 10n ** BigInt(digits)}.${(units % 10n ** BigInt(digits)).toString().padStart(digits, '0')}`;
      try {
        return toBoundedDecimalString(text, currency, 'amount') === text && units <= maxMinorUnits(currency);
      } catch (caught) {
        return caught instanceof ValidationError && caught.fields.amount?.rule === 'max' && units > maxMinorUnits(currency);
      }
    }),
    { numRuns: 500 },
  );
});

test('a seat the provider’s seat map prices past the bound is refused, naming the seat selection', (t) => {
  const native = JSON.parse(fs.readFileSync('providers/flights/provider-b/fixtures/lhr-jfk-gbp.json', 'utf8'));
  const { offer } = providerBOffers.normalize(native, new Date('2026-05-20T09:00:00Z'));
  const segmentId = offer.slices[0]?.segments[0]?.id as string;
  const passengerId = offer.passengers[0]?.id as string;
  const request = CreateBookingRequest.parse({
    offer_id: randomUUID(),
    passengers: [
      {
        provider_passenger_id: passengerId,
        first_name: 'Ada',
        last_name: 'Lovelace',
        born_on: '1985-12-10',
        identity_documents: [{ type: 'passport', unique_identifier: '501234567', issuing_country_code: 'GB', expires_on: '2034-01-31' }],
      },
    ],
    contact_info: { email: 'ada@example.com', phone_number: '+447700900123', first_name: 'Ada', last_name: 'Lovelace' },
    payment_method_id: randomUUID(),
    currency: 'GBP',
    user_id: 'me',
    idempotency_key: 'seat-price',
    seat_selections: [{ segment_id: segmentId, passenger_id: passengerId, seat_number: '1A' }],
  });
  const seat = { seat_number: '1A', row: '1', column: 'A', is_available: true, is_occupied: false, is_blocked: false, seat_type: 'window', disclosures: [] };
  const plan = (price: number) =>
    planBooking({
      request,
      offer: { id: randomUUID(), providerOfferId: offer.id, offer, raw: native, pricedAt: null, savedPassengers: new Map() },
      capabilities: { supports_seat_selection: true, supports_bag_selection: true, supports_hold_booking: true, max_passengers: 9 } as ProviderCapabilities,
      providerId: 'provider_b',
      seatMaps: [{ offer_id: offer.id, segment_id: segmentId, seat_map: { '1A': seat }, pricing: { '1A': { amount: price, currency: 'GBP' } } }],
    });
  t.is(plan(25).amount, '537.46', 'a real seat price is added to the total');
  const error = t.throws(() => plan(1e20), { instanceOf: ValidationError });
  t.like(error?.fields, { 'seat_selections.0.seat_number': { rule: 'max' } });
  t.is(Object.keys(error?.fields ?? {}).length, 1);
  // Past the bound only together with the offer: the seats are what took it over.
  const edge = { ...offer, total_amount: '99999999999.99', base_amount: null, tax_amount: null };
  const overTogether = t.throws(
    () =>
      planBooking({
        request,
        offer: { id: randomUUID(), providerOfferId: offer.id, offer: edge, raw: native, pricedAt: null, savedPassengers: new Map() },
        capabilities: { supports_seat_selection: true, supports_bag_selection: true, supports_hold_booking: true, max_passengers: 9 } as ProviderCapabilities,
        providerId: 'provider_b',
        seatMaps: [{ offer_id: offer.id, segment_id: segmentId, seat_map: { '1A': seat }, pricing: { '1A': { amount: 1, currency: 'GBP' } } }],
      }),
    { instanceOf: ValidationError },
  );
  t.like(overTogether?.fields, { seat_selections: { rule: 'max' } });
});
