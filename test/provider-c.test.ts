/**
 * provider_c over real HTTP: the adapter against its NDC sandbox (every magic flight number, seat maps,
 * the hold-reprice-pay order flow), the sandbox's order endpoints themselves, then the REST routes that
 * use the adapter, with the partner's key and a traveler's token from the real authorization flow.
 * Order steps here go through the port (createOrder, payOrder); test/provider-c-orders.test.ts has the rest.
 */
import crypto from 'node:crypto';
import test from 'ava';
import { GoneError, PriceChangedError, ProviderRejectedError, ProviderUnavailableError } from '../core/errors.js';
import { departuresOf } from '../core/flights/departure-window.js';
import type { OrderRequest } from '../core/flights/flight-provider.js';
import { ProviderCAdapter } from '../providers/flights/provider-c/adapter.js';
import { providerCOffers } from '../providers/flights/provider-c/normalizer.js';
import { orderCreateRequest } from '../providers/flights/provider-c/order-request.js';
import { datedFixture, MAGIC_FLIGHT_NUMBERS, MAGIC_SURNAME_INVALID } from '../providers/flights/provider-c/sandbox.js';
import { WireOffer } from '../providers/flights/provider-c/wire.js';
import { providerCPassengers } from './booking-contract/provider-c.js';
import { jsonOf, type Json } from './helpers/http.js';
import { partnerWithTraveler } from './helpers/oauth.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
let adapter: ProviderCAdapter;
let apiKey: string;
let token: string;

const sandbox = () => `${running.config.sandboxUrl}/flights/provider_c`;
/** Words of the airline's own that must never reach a caller. */
const VENDOR_WORDS = /No available flights|Timed-out|AirShoppingRQ|Invalid amount|Internal error|System error|credentials|NDC/i;

const PAYMENT_LIMIT = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();

/**
 * The fixture as the sandbox serves it today (flights weeks ahead), not yet expired (unless told) and payable
 * until PAYMENT_LIMIT, optionally on a magic flight number or another aircraft.
 */
function fixture(options: { flight?: string; aircraft?: string; expiresAt?: string } = {}): Json {
  const native: Json = datedFixture('lhr-jfk-family-gbp', new Date());
  if (options.expiresAt) native.OfferExpirationTimeLimitDateTime = options.expiresAt;
  for (const item of native.OfferItem) if (item.PaymentTimeLimitDateTime) item.PaymentTimeLimitDateTime = PAYMENT_LIMIT;
  if (options.flight) native.DataLists.DatedMarketingSegmentList[0].MarketingCarrierFlightNumberText = options.flight;
  if (options.aircraft) native.DataLists.DatedOperatingSegmentList[0].AircraftTypeCode = options.aircraft;
  return native;
}

/** An order for everyone on the fixture (names and birth dates that fit their types on its travel day), no seats. */
function orderFor(native: Json, change: (passengers: OrderRequest['passengers']) => OrderRequest['passengers'] = (passengers) => passengers): OrderRequest {
  const { offer } = providerCOffers.normalize(native, new Date());
  return {
    reference: crypto.randomUUID(),
    raw: native,
    offer,
    type: 'hold',
    passengers: change(providerCPassengers(offer)),
    contact: { email: 'ada@example.com', phoneNumber: '+447700900123', firstName: 'Ada', lastName: 'Lovelace', title: null },
    seats: [],
    services: [],
    amount: offer.total_amount,
    currency: offer.total_currency,
  };
}

/** A request to the sandbox itself, as an NDC client would send it. */
async function ndc(path: string, body: unknown, bearer = 'ndc_test_contract'): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${sandbox()}/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await jsonOf(response) };
}

/** OrderCreateRQ as the adapter sends it. */
const orderCreate = (order: OrderRequest) => orderCreateRequest(order, WireOffer.parse(order.raw), undefined);

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
  adapter = new ProviderCAdapter({
    baseUrl: sandbox(),
    token: 'ndc_test_contract',
    capabilities: running.service.providers.capabilities('provider_c'),
    clock: { now: () => new Date() },
  });
  ({ apiKey, token } = await partnerWithTraveler(running, 'NDC Air', 'bookings.write'));
});
test.after.always(async () => {
  await running?.close();
});

test('adapter: pricing answers the offer normalized; a changed price comes back changed', async (t) => {
  const same = await adapter.price(fixture());
  t.is(same.offer.total_amount, '1686.24');
  t.is(same.providerOfferId, 'd2sr9k1Qx7|6f7c2f1e-5b9a-4d2e-9f0a-3c1b2a4d5e6f');
  t.is(same.offer.provider_id, 'provider_c');
  const changed = await adapter.price(fixture({ flight: MAGIC_FLIGHT_NUMBERS.priceChange }));
  t.is(changed.offer.total_amount, '1749.93', '7.5% more on each base fare');
  t.is(changed.offer.base_amount, '912.99');
  t.is(changed.offer.tax_amount, '836.94', 'taxes unchanged');
});

test('adapter: expired is offer_expired; sold out is provider_rejected; 500 and 911 are provider_unavailable', async (t) => {
  for (const native of [fixture({ expiresAt: new Date(Date.now() - 60_000).toISOString() }), fixture({ flight: MAGIC_FLIGHT_NUMBERS.expired })]) {
    const expired = await t.throwsAsync(adapter.price(native), { instanceOf: GoneError });
    t.is(expired?.code, 'offer_expired');
    t.notRegex(expired?.message ?? '', VENDOR_WORDS);
  }
  const soldOut = await t.throwsAsync(adapter.price(fixture({ flight: MAGIC_FLIGHT_NUMBERS.soldOut })), { instanceOf: ProviderRejectedError });
  t.is(soldOut?.code, 'offer_no_longer_available');
  t.notRegex(soldOut?.message ?? '', VENDOR_WORDS);
  for (const flight of [MAGIC_FLIGHT_NUMBERS.systemError, MAGIC_FLIGHT_NUMBERS.internalError]) {
    const broken = await t.throwsAsync(adapter.price(fixture({ flight })), { instanceOf: ProviderUnavailableError });
    t.is(broken?.code, 'provider_unavailable');
    t.notRegex(broken?.message ?? '', VENDOR_WORDS);
    await t.throwsAsync(adapter.seatMaps(fixture({ flight }), 'x'), { instanceOf: ProviderUnavailableError });
  }
  const raw = await ndc('OfferPrice', { PricedOffer: fixture({ flight: MAGIC_FLIGHT_NUMBERS.internalError }) });
  t.is(raw.status, 200, 'NDC says its errors with HTTP 200');
  t.is(raw.body.Errors[0].Code, '911');
  t.is((await ndc('OfferPrice', { PricedOffer: fixture({ flight: MAGIC_FLIGHT_NUMBERS.systemError }) })).status, 500);
});

test('adapter: seat maps, one per PaxSegment: a 777 (business 1-2-1, economy 3-4-3) and an A320 (3-3)', async (t) => {
  const native = fixture();
  // A second segment on a 777-300ER; the first flies a type the fixtures lack (351), so an A320.
  native.DataLists.PaxSegmentList.push({ PaxSegmentID: 'SEG2', DatedMarketingSegmentRefId: 'MKT2', CabinTypeCode: '5' });
  native.DataLists.DatedMarketingSegmentList.push({ ...native.DataLists.DatedMarketingSegmentList[0], DatedMarketingSegmentId: 'MKT2', DatedOperatingSegmentRefId: 'OPR2' });
  native.DataLists.DatedOperatingSegmentList.push({ DatedOperatingSegmentId: 'OPR2', CarrierDesigCode: 'VS', AircraftTypeCode: '77W' });
  const [airbus, boeing] = await adapter.seatMaps(native, 'our-offer');
  t.is(airbus?.offer_id, 'our-offer');
  t.is(airbus?.segment_id, 'SEG1');
  t.is(boeing?.segment_id, 'SEG2');

  const seats = boeing?.seat_map ?? {};
  t.like(seats['1A'], { row: '1', column: 'A', seat_type: 'window' });
  t.like(seats['1D'], { seat_type: 'aisle' });
  t.like(seats['1G'], { seat_type: 'aisle' });
  t.like(seats['1K'], { seat_type: 'window' });
  t.is(seats['1B'], undefined, 'business is 1-2-1');
  t.like(seats['31B'], { seat_type: 'middle' });
  t.like(seats['31C'], { seat_type: 'aisle' });
  t.like(seats['31E'], { seat_type: 'middle' });
  t.like(seats['31K'], { seat_type: 'window' });
  t.is(seats['31I'], undefined, 'there is no I column');
  t.is(Object.keys(seats).length, 8 * 4 + 31 * 10);
  t.like(seats['42K'], { is_available: false, is_blocked: true, is_occupied: false });
  t.deepEqual(seats['42K']?.disclosures, ['restricted_seat_general', 'exit_row']);
  t.like(seats['30A'], { is_available: false, is_occupied: true, is_blocked: false });
  const occupied = Object.values(seats).filter((seat) => seat.is_occupied);
  t.true(occupied.length > 10 && occupied.every((seat) => !seat.is_available && !seat.is_blocked));
  t.deepEqual(boeing?.pricing['30B'], { amount: 11, currency: 'GBP' }, 'the front rows of a cabin cost more');
  t.deepEqual(boeing?.pricing['1D'] ?? boeing?.pricing['1G'], { amount: 11, currency: 'GBP' });
  t.deepEqual(boeing?.pricing['42A'], { amount: 25, currency: 'GBP' }, 'exit rows cost more still');
  t.is(boeing?.pricing['50B'], undefined, 'standard seats are free');
  t.is(boeing?.pricing['30A'], undefined, 'an occupied seat has no price');

  t.deepEqual([...new Set(Object.values(airbus?.seat_map ?? {}).map((seat) => seat.column))].sort(), ['A', 'B', 'C', 'D', 'E', 'F']);
  t.is(Object.keys(airbus?.seat_map ?? {}).length, 180);
  t.like(airbus?.seat_map['12F'], { is_blocked: true });
  t.like(airbus?.seat_map['13C'], { seat_type: 'aisle' });
  t.deepEqual(airbus?.pricing['13A'], { amount: 25, currency: 'GBP' });
});

test('sandbox: SeatAvailabilityRS speaks NDC: columns, occupation codes, seats pointing to price bands', async (t) => {
  const { status, body } = await ndc('SeatAvailability', { PricedOffer: fixture({ aircraft: '77W' }) });
  t.is(status, 200);
  const [business, economy] = body.SeatMap[0].CabinCompartment;
  t.like(business, { DeckCode: 'Main', FirstRowNumber: 1, LastRowNumber: 8, CabinTypeCode: '2' });
  t.deepEqual(
    economy.SeatColumn.map((column: Json) => `${column.ColumnID}${column.SeatCharacteristicCode}`),
    ['AW', 'B9', 'CA', 'DA', 'E9', 'F9', 'GA', 'HA', 'J9', 'KW'],
  );
  const row42 = economy.SeatRow.find((row: Json) => row.RowNumber === 42);
  t.is(row42.RowCharacteristicCode, 'E');
  const blocked = row42.Seat.find((seat: Json) => seat.ColumnID === 'K');
  t.like(blocked, { OccupationStatusCode: 'Z' });
  t.is(blocked.OfferItemRefID, undefined);
  const free = row42.Seat.find((seat: Json) => seat.ColumnID === 'A');
  const band = body.ALaCarteOffer.ALaCarteOfferItem.find((item: Json) => item.OfferItemID === free.OfferItemRefID);
  t.deepEqual(band.UnitPrice.TotalAmount, { amount: '25.00', curCode: 'GBP' });
});

test('sandbox: the order flow: hold, 727 with the OrderID when the held order repriced, reshop, pay the new total', async (t) => {
  const held = await ndc('OrderCreate', orderCreate(orderFor(fixture({ flight: MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking }))));
  t.is(held.status, 200);
  const orderId = held.body.Order.OrderID;
  t.regex(orderId, /^VS932/);
  t.deepEqual(held.body.Order.TotalPrice.TotalAmount, { amount: '1686.24', curCode: 'GBP' });
  t.is(held.body.Order.PaymentTimeLimitDateTime, PAYMENT_LIMIT, 'held until the offer items’ payment time limit');
  t.is(held.body.TicketDocInfo, undefined, 'a hold has no tickets');
  t.regex(held.body.Order.OrderItem[0].Service[0].BookingRef.BookingID, /^[A-Z0-9]{6}$/);

  const pay = (amount: string) =>
    ndc('OrderChange', { Order: { OrderID: orderId }, PaymentFunctions: { PaymentProcessingDetails: { Amount: { amount, curCode: 'GBP' } } } });
  const refused = await pay('1686.24');
  t.is(refused.status, 200);
  t.is(refused.body.Errors[0].Code, '727');
  t.is(refused.body.Errors[0].DescText, 'Invalid amount/ currency');
  t.is(refused.body.Order.OrderID, orderId, 'the order is named beside the error');

  const reshop = await ndc('OrderReshop', { Order: { OrderID: orderId } });
  t.deepEqual(reshop.body.ReshopResults.RepricedOffer.TotalPrice.TotalAmount, { amount: '1749.93', curCode: 'GBP' });
  t.deepEqual((await ndc('OrderReshop', { Order: { OrderID: orderId } })).body.ReshopResults, { NoChangeInd: true }, 'told once, the new price stands');

  const paid = await pay('1749.93');
  t.is(paid.body.Errors, undefined);
  t.is(paid.body.TicketDocInfo.length, 4);
  t.regex(paid.body.TicketDocInfo[0].TicketDocument[0].TicketDocNbr, /^932\d{10}$/);
  t.is(paid.body.Order.PaymentTimeLimitDateTime, undefined, 'paid: no deadline');
  t.is((await pay('1749.93')).body.Errors[0].Code, '395', 'paid once only');
  const retrieved = await ndc('OrderRetrieve', { Order: { OrderID: orderId } });
  t.deepEqual(retrieved.body.Order.TotalPrice.TotalAmount, { amount: '1749.93', curCode: 'GBP' });
  t.is(retrieved.body.TicketDocInfo.length, 4);
  t.is((await ndc('OrderRetrieve', { Order: { OrderID: 'VS932NOSUCH' } })).body.Errors[0].Code, '129');
});

test('sandbox: OrderCreate refuses names that are not letters (314), a missing surname (151) or given name (152), and ages that do not fit (73)', async (t) => {
  const create = (change: (passengers: OrderRequest['passengers']) => OrderRequest['passengers']) => ndc('OrderCreate', orderCreate(orderFor(fixture(), change)));
  const named = (surname: string) => (passengers: OrderRequest['passengers']) => passengers.map((passenger, index) => (index === 0 ? { ...passenger, lastName: surname } : passenger));
  t.is((await create(named(MAGIC_SURNAME_INVALID))).body.Errors[0].Code, '314');
  t.is((await create(named('R2D2'))).body.Errors[0].Code, '314');
  t.is((await create((passengers) => passengers.slice(1))).body.Errors[0].Code, '151');
  t.is((await create((passengers) => passengers.map((passenger) => ({ ...passenger, firstName: '' })))).body.Errors[0].Code, '152');
  const grownChild = (passengers: OrderRequest['passengers']) => passengers.map((passenger) => (passenger.providerPassengerId === 'CHILD_1' ? { ...passenger, bornOn: '2000-01-01' } : passenger));
  t.is((await create(grownChild)).body.Errors[0].Code, '73');
  t.is((await create((passengers) => passengers)).status, 200);
});

test('adapter: createOrder holds, payOrder pays; a repriced hold says the new total with its order, and is paid once agreed', async (t) => {
  const order = orderFor(fixture());
  const [departure] = departuresOf(order.offer);
  t.true((departure?.at.getTime() ?? 0) > Date.now(), `the booked flight departs ahead, at ${departure?.local}`);
  const plain = await adapter.createOrder(order);
  t.like(plain, { status: 'held', amount: '1686.24', currency: 'GBP', paymentRequiredBy: PAYMENT_LIMIT, tickets: [] });
  t.regex(plain.pnr ?? '', /^[A-Z0-9]{6}$/);
  const payment = { orderId: plain.orderId, reference: 'ours', raw: fixture(), amount: '1686.24', currency: 'GBP' };
  const ticketed = await adapter.payOrder(payment);
  t.like(ticketed, { orderId: plain.orderId, status: 'confirmed', amount: '1686.24', paymentRequiredBy: null });
  t.is(ticketed.tickets.length, 4);
  t.deepEqual(await adapter.payOrder(payment), ticketed, 'paying twice answers the paid order');

  const repriced = await adapter.createOrder(orderFor(fixture({ flight: MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking })));
  t.is(repriced.amount, '1686.24');
  const said = await t.throwsAsync(adapter.payOrder({ ...payment, orderId: repriced.orderId }), { instanceOf: PriceChangedError });
  t.like(said, { code: 'price_changed', orderId: repriced.orderId, previousTotalAmount: '1686.24', newTotalAmount: '1749.93' });
  t.notRegex(said?.message ?? '', VENDOR_WORDS);
  const agreed = await adapter.payOrder({ ...payment, orderId: repriced.orderId, amount: '1749.93' });
  t.like(agreed, { status: 'confirmed', amount: '1749.93' });
  t.is(agreed.tickets.length, 4);

  const wrongAmount = await adapter.createOrder(orderFor(fixture()));
  const mismatch = await t.throwsAsync(adapter.payOrder({ ...payment, orderId: wrongAmount.orderId, amount: '1000.00' }), { instanceOf: ProviderRejectedError });
  t.is(mismatch?.code, 'payment_amount_mismatch', 'nothing repriced, so the amount itself was wrong');
});

test('adapter: an order refused for a passenger or a sold-out flight says so in our words', async (t) => {
  const invalid = await t.throwsAsync(
    adapter.createOrder(orderFor(fixture(), (passengers) => passengers.map((passenger, index) => (index === 0 ? { ...passenger, lastName: MAGIC_SURNAME_INVALID } : passenger)))),
    { instanceOf: ProviderRejectedError },
  );
  t.is(invalid?.code, 'invalid_passenger');
  t.regex(invalid?.message ?? '', /passport/);
  const tooOld = await t.throwsAsync(
    adapter.createOrder(orderFor(fixture(), (passengers) => passengers.map((passenger) => (passenger.providerPassengerId === 'INFANT_1' ? { ...passenger, bornOn: '2020-01-01' } : passenger)))),
    { instanceOf: ProviderRejectedError },
  );
  t.is(tooOld?.code, 'invalid_passenger');
  t.regex(tooOld?.message ?? '', /date of birth/);
  const soldOut = await t.throwsAsync(adapter.createOrder(orderFor(fixture({ flight: MAGIC_FLIGHT_NUMBERS.soldOut }))), { instanceOf: ProviderRejectedError });
  t.is(soldOut?.code, 'offer_no_longer_available');
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${running.url}/v1/flights/providers/${path}`, {
    ...init,
    headers: { 'x-api-key': apiKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers as object) },
  });

async function createOffer(native: Json): Promise<string> {
  const created = await call('provider_c/offers', { method: 'POST', body: JSON.stringify(native) });
  if (!created.ok) throw new Error(`creating the offer answered ${created.status}: ${await created.text()}`);
  return (await jsonOf(created)).offer_id;
}

test('REST: a provider_c offer is created, priced and its seat maps read; failures keep their meaning', async (t) => {
  const offerId = await createOffer(fixture());
  const priced = await call(`provider_c/offers/${offerId}/pricing`, { method: 'POST', body: '{}' });
  t.is(priced.status, 200);
  const body = await jsonOf(priced);
  t.false(body.price_changed);
  t.is(body.offer.total_amount, '1686.24');
  t.is(body.offer.id, offerId);

  const seatMaps = await call(`provider_c/offers/${offerId}/seat-maps`);
  t.is(seatMaps.status, 200);
  const [seatMap] = await jsonOf(seatMaps);
  t.like(seatMap, { offer_id: offerId, segment_id: 'SEG1' });
  t.is(Object.keys(seatMap.seat_map).length, 180);

  const changed = await jsonOf(await call(`provider_c/offers/${await createOffer(fixture({ flight: MAGIC_FLIGHT_NUMBERS.priceChange }))}/pricing`, { method: 'POST' }));
  t.true(changed.price_changed);
  t.is(changed.previous_total_amount, '1686.24');
  t.is(changed.offer.total_amount, '1749.93');

  const withdrawn = await call(`provider_c/offers/${await createOffer(fixture({ flight: MAGIC_FLIGHT_NUMBERS.expired }))}/pricing`, { method: 'POST' });
  t.is(withdrawn.status, 410);
  t.is((await jsonOf(withdrawn)).code, 'offer_expired');
  const soldOut = await call(`provider_c/offers/${await createOffer(fixture({ flight: MAGIC_FLIGHT_NUMBERS.soldOut }))}/pricing`, { method: 'POST' });
  t.is(soldOut.status, 422);
  const soldOutBody = await jsonOf(soldOut);
  t.is(soldOutBody.code, 'offer_no_longer_available');
  t.notRegex(JSON.stringify(soldOutBody), VENDOR_WORDS);
  const broken = await call(`provider_c/offers/${await createOffer(fixture({ flight: MAGIC_FLIGHT_NUMBERS.internalError }))}/pricing`, { method: 'POST' });
  t.is(broken.status, 502);
});
