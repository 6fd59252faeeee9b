/**
 * provider_c's orders beyond the booking contract: the NDC requests its sandbox refuses (wrong amount,
 * unknown order, wrong credentials, a seat not for sale, a service it does not sell), an offer expired at
 * booking, orders kept in the database (a second sandbox instance on the same database reads, pays and
 * cancels what the first booked; one whose clock passed the payment time limit finds the hold lapsed),
 * the 727 → OrderReshop → pay-at-the-new-total path, cancel as OrderReshop's quote accepted with
 * OrderChange, 395 as "already paid", and a slow OrderCreate whose caller hung up booking nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import test from 'ava';
import Koa from 'koa';
import { ConflictError, GoneError, NotFoundError, PriceChangedError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError } from '../core/errors.js';
import type { OrderRequest } from '../core/flights/flight-provider.js';
import { ProviderCAdapter } from '../providers/flights/provider-c/adapter.js';
import { orderCreateRequest } from '../providers/flights/provider-c/order-request.js';
import { providerCSandbox } from '../providers/flights/provider-c/sandbox.js';
import { WireOffer } from '../providers/flights/provider-c/wire.js';
import { bookingCase } from './booking-contract/provider-c.js';
import type { BookingPath } from './booking-contract/case.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

let running: RunningService;
const servers: http.Server[] = [];
const sandbox = () => `${running.config.sandboxUrl}/flights/provider_c`;
/** Words of the airline's own that must never reach a caller. */
const VENDOR_WORDS = /No Order ID|Timed-out|AirShoppingRQ|Invalid amount|Advance Seat|Ancillary|ticketed\b.*PNR|Payment Time Limit|NDC/i;

const adapterAt = (baseUrl: string, options: { token?: string; bookingSeconds?: number } = {}) => {
  const capabilities = running.service.providers.capabilities('provider_c');
  return new ProviderCAdapter({
    baseUrl,
    token: options.token ?? 'ndc_test_orders',
    capabilities: options.bookingSeconds ? { ...capabilities, booking_timeout_seconds: options.bookingSeconds } : capabilities,
    clock: { now: () => new Date() },
  });
};
const adapter = () => adapterAt(sandbox());
const request = (path: BookingPath, type: 'instant' | 'hold' = 'instant') => bookingCase.request(running, path, randomUUID(), type);
const pay = (order: { orderId: string }, request: OrderRequest, amount = request.amount) =>
  adapter().payOrder({ orderId: order.orderId, reference: request.reference, raw: request.raw, amount, currency: request.currency });

/** A request to the sandbox itself, as an NDC client would send it. */
async function ndc(path: string, body: unknown, options: { bearer?: string; base?: string } = {}): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${options.base ?? sandbox()}/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.bearer ?? 'ndc_test_orders'}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await jsonOf(response) };
}
const orderCreate = (order: OrderRequest) => orderCreateRequest(order, WireOffer.parse(order.raw), undefined);
const payment = (orderId: string, amount: string) => ({ Order: { OrderID: orderId }, PaymentFunctions: { PaymentProcessingDetails: { Amount: { amount, curCode: 'GBP' } } } });

/** Another instance of the sandbox on the same database, with its own clock. */
async function secondSandbox(now: () => Date = () => new Date()): Promise<string> {
  const app = new Koa();
  app.use(providerCSandbox({ db: running.service.db.knex, clock: { now } }).routes());
  const server = http.createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/flights/provider_c`;
}

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await running?.close();
});

test('sandbox: OrderCreate holds the order with its seats and answers the first order again for the same CorrelationID', async (t) => {
  const order = await request('normal');
  const body = orderCreateRequest(order, WireOffer.parse(order.raw), (await ndc('SeatAvailability', { PricedOffer: order.raw })).body as never);
  const held = await ndc('OrderCreate', body);
  t.is(held.status, 200);
  t.is(held.body.Order.StatusCode, 'OPENED');
  t.truthy(held.body.Order.PaymentTimeLimitDateTime);
  t.deepEqual(held.body.Order.TotalPrice.TotalAmount, { amount: order.amount, curCode: 'GBP' }, 'the fares and the priced seat');
  const seatItems = held.body.Order.OrderItem.filter((item: Json) => item.Service[0].SeatAssignment);
  t.is(seatItems.length, 2);
  t.is((await ndc('OrderCreate', body)).body.Order.OrderID, held.body.Order.OrderID);
  const rows = await running.service.db.knex('flight_sandbox_orders').where({ provider_id: 'provider_c', reference: order.reference });
  t.is(rows.length, 1);
  t.is(rows[0].status, 'HELD');
});

test('sandbox: OrderCreate refuses a seat not for sale (290), two seats for one passenger (290), a service it does not sell (76H) and a missing offer item (912)', async (t) => {
  const order = await request('normal');
  const seats = (await ndc('SeatAvailability', { PricedOffer: order.raw })).body;
  const create = (change: (body: Json) => void) => {
    const body = orderCreateRequest(order, WireOffer.parse(order.raw), seats as never) as Json;
    change(body);
    return ndc('OrderCreate', body);
  };
  const occupied = seats.SeatMap[0].CabinCompartment.flatMap((cabin: Json) => cabin.SeatRow.flatMap((row: Json) => row.Seat.map((seat: Json) => ({ ...seat, RowNumber: row.RowNumber })))).find((seat: Json) => seat.OccupationStatusCode === 'O');
  const taken = await create((body) => {
    Object.assign(body.CreateOrder.AcceptSelectedQuotedOfferList.SelectedPricedOffer[1].SelectedOfferItem[0].SelectedSeat, { SeatRowNumber: occupied.RowNumber, ColumnID: occupied.ColumnID });
  });
  t.is(taken.body.Errors[0].Code, '290');
  const twice = await create((body) => {
    body.CreateOrder.AcceptSelectedQuotedOfferList.SelectedPricedOffer[1].SelectedOfferItem[1].PaxRefID = ['ADULT_1'];
  });
  t.is(twice.body.Errors[0].Code, '290');
  const bag = await create((body) => {
    body.CreateOrder.AcceptSelectedQuotedOfferList.SelectedPricedOffer[0].SelectedOfferItem.push({ OfferItemRefID: 'BAG-EXTRA', PaxRefID: ['ADULT_1'], SelectedALaCarteOfferItem: { Qty: 1 } });
  });
  t.is(bag.body.Errors[0].Code, '76H');
  const partial = await create((body) => {
    body.CreateOrder.AcceptSelectedQuotedOfferList.SelectedPricedOffer[0].SelectedOfferItem.pop();
  });
  t.is(partial.body.Errors[0].Code, '912');

  const seatError = await t.throwsAsync(adapter().createOrder({ ...order, seats: [{ ...(order.seats[0] as OrderRequest['seats'][number]), seatNumber: `${occupied.RowNumber}${occupied.ColumnID}` }] }), { instanceOf: ProviderRejectedError });
  t.is(seatError?.code, 'seat_unavailable');
  const serviceError = await t.throwsAsync(adapter().createOrder({ ...order, reference: randomUUID(), services: [{ id: 'BAG-EXTRA', quantity: 1 }] }), { instanceOf: ProviderRejectedError });
  t.is(serviceError?.code, 'service_unavailable');
  t.notRegex(`${seatError?.message} ${serviceError?.message}`, VENDOR_WORDS);
});

test('sandbox: a wrong amount is 727 with the OrderID; an unknown order is 129 everywhere; a wrong token is 401', async (t) => {
  const order = await request('normal');
  const held = await adapter().createOrder(order);
  const wrong = await ndc('OrderChange', payment(held.orderId, '1.00'));
  t.is(wrong.body.Errors[0].Code, '727');
  t.is(wrong.body.Order.OrderID, held.orderId);
  t.is((await adapter().retrieveOrder(held.orderId)).status, 'held', 'nothing was paid');
  const mismatch = await t.throwsAsync(pay(held, order, '1.00'), { instanceOf: ProviderRejectedError });
  t.is(mismatch?.code, 'payment_amount_mismatch', 'the order did not reprice: the amount was wrong');

  for (const [path, body] of [
    ['OrderRetrieve', { Order: { OrderID: 'VS932NOSUCH00' } }],
    ['OrderReshop', { Order: { OrderID: 'VS932NOSUCH00' } }],
    ['OrderChange', payment('VS932NOSUCH00', '1686.24')],
  ] as const) {
    t.is((await ndc(path, body)).body.Errors[0].Code, '129', path);
  }
  for (const call of [adapter().retrieveOrder('VS932NOSUCH00'), adapter().cancelOrder('VS932NOSUCH00'), pay({ orderId: 'VS932NOSUCH00' }, order)]) {
    const error = await t.throwsAsync(call, { instanceOf: NotFoundError });
    t.is(error?.code, 'provider_order_not_found');
  }

  const refused = await ndc('OrderCreate', orderCreate(order), { bearer: 'not-a-sandbox-key' });
  t.is(refused.status, 401);
  const unauthorized = await t.throwsAsync(adapterAt(sandbox(), { token: 'not-a-sandbox-key' }).createOrder(await request('normal')), { instanceOf: ProviderUnavailableError });
  t.notRegex(unauthorized?.message ?? '', /credentials|authentication/i);
});

test('adapter: an offer expired at booking is offer_expired (its time limit passed, or the airline withdrew it)', async (t) => {
  const order = await request('normal');
  const stale = { ...order, seats: [], raw: { ...order.raw, OfferExpirationTimeLimitDateTime: new Date(Date.now() - 60_000).toISOString() } };
  const expired = await t.throwsAsync(adapter().createOrder(stale), { instanceOf: GoneError });
  t.is(expired?.code, 'offer_expired');
  t.notRegex(expired?.message ?? '', VENDOR_WORDS);
  const withdrawn = structuredClone(order.raw) as Json;
  withdrawn.DataLists.DatedMarketingSegmentList[0].MarketingCarrierFlightNumberText = '9934';
  t.is((await t.throwsAsync(adapter().createOrder({ ...order, seats: [], raw: withdrawn }), { instanceOf: GoneError }))?.code, 'offer_expired');
  t.is(await running.service.db.knex('flight_sandbox_orders').where({ reference: order.reference }).first(), undefined, 'nothing was booked');
});

test('adapter: 727 → OrderReshop → price_changed with the OrderID and both totals; paid at the new total; paying again is the paid order (395)', async (t) => {
  const order = await request('priceChangedAtBooking');
  const held = await adapter().createOrder(order);
  t.is(held.status, 'held');
  const changed = await t.throwsAsync(pay(held, order), { instanceOf: PriceChangedError });
  t.like(changed, { orderId: held.orderId, previousTotalAmount: '1686.24', newTotalAmount: '1749.93', currency: 'GBP', code: 'price_changed' });
  t.notRegex(changed?.message ?? '', VENDOR_WORDS);
  const paid = await pay(held, order, '1749.93');
  t.like(paid, { orderId: held.orderId, status: 'confirmed', amount: '1749.93', paymentRequiredBy: null });
  t.is(paid.tickets.length, 4);

  const again = await ndc('OrderChange', payment(held.orderId, '1749.93'));
  t.is(again.body.Errors[0].Code, '395', 'the airline says already ticketed');
  t.deepEqual(await pay(held, order, '1749.93'), paid, 'the adapter reads that as the paid order');
});

test('sandbox: cancel is OrderReshop (a quote refunding the fare less its fees) then OrderChange AcceptCancelledOffer; accepting again answers the closed order', async (t) => {
  const order = await request('normal');
  const held = await adapter().createOrder(order);
  await pay(held, order);
  const quote = await ndc('OrderReshop', { Order: { OrderID: held.orderId }, UpdateOrder: { CancelOrderRef: { OrderRefID: held.orderId } } });
  const [offer] = quote.body.ReshopResults.ReshopOffers;
  const refunds = offer.DeleteOrderItem.map((item: Json) => item.PriceDifferential.DiffPrice.DueByAirlineAmount.amount);
  // Adults 2 × (586.81 − 150), the child 415.81 − 120, the infant in full, both seats in full.
  t.deepEqual(refunds, ['873.62', '295.81', '96.81', order.seats[0]?.price, '0.00']);
  t.is((await adapter().retrieveOrder(held.orderId)).status, 'confirmed', 'a quote cancels nothing');

  const accept = { Order: { OrderID: held.orderId, OwnerCode: 'VS' }, ChangeOrderChoice: { AcceptCancelledOffer: { OfferID: offer.OfferID, OwnerCode: 'VS' } } };
  const wrongOffer = await ndc('OrderChange', { ...accept, ChangeOrderChoice: { AcceptCancelledOffer: { OfferID: 'someone-else', OwnerCode: 'VS' } } });
  t.is(wrongOffer.body.Errors[0].Code, '913');
  const closed = await ndc('OrderChange', accept);
  t.is(closed.body.Order.StatusCode, 'CLOSED');
  t.true(closed.body.Order.OrderItem.every((item: Json) => item.Service.every((service: Json) => service.StatusCode === 'CANCELLED')));
  t.deepEqual((await ndc('OrderChange', accept)).body, closed.body);

  const cancellation = await adapter().cancelOrder(held.orderId);
  t.like(cancellation, { orderId: held.orderId, refundAmount: (1266.24 + Number(order.seats[0]?.price)).toFixed(2), refundCurrency: 'GBP', cancelledAt: closed.body.Order.CancellationDateTime });
  t.deepEqual((await adapter().retrieveOrder(held.orderId)).seats, [], 'a cancelled order holds no seats');
  const payAfter = await t.throwsAsync(pay(held, order), { instanceOf: ConflictError });
  t.is(payAfter?.code, 'order_cancelled');
});

test('adapter: a hold cancelled before payment refunds nothing, and can no longer be paid', async (t) => {
  const order = await request('normal', 'hold');
  const held = await adapter().createOrder(order);
  const cancellation = await adapter().cancelOrder(held.orderId);
  t.like(cancellation, { refundAmount: null, refundCurrency: null });
  const error = await t.throwsAsync(pay(held, order), { instanceOf: ConflictError });
  t.is(error?.code, 'order_cancelled');
});

test('database: a second sandbox instance (and a fresh adapter) reads, pays and cancels what the first booked; past the payment time limit the hold has lapsed', async (t) => {
  const order = await request('normal', 'hold');
  const held = await adapter().createOrder(order);
  const elsewhere = adapterAt(await secondSandbox());
  t.like(await elsewhere.retrieveOrder(held.orderId), { orderId: held.orderId, status: 'held', pnr: held.pnr, amount: held.amount, seats: held.seats });
  const paid = await elsewhere.payOrder({ orderId: held.orderId, reference: order.reference, raw: order.raw, amount: order.amount, currency: order.currency });
  t.is(paid.status, 'confirmed');
  t.is((await adapter().retrieveOrder(held.orderId)).status, 'confirmed', 'the first instance sees the payment');
  t.truthy((await elsewhere.cancelOrder(held.orderId)).refundAmount);

  const later = await request('normal', 'hold');
  const hold = await adapter().createOrder(later);
  const afterDeadline = adapterAt(await secondSandbox(() => new Date(Date.parse(hold.paymentRequiredBy ?? '') + 1000)));
  const lapsed = await t.throwsAsync(afterDeadline.payOrder({ orderId: hold.orderId, reference: later.reference, raw: later.raw, amount: later.amount, currency: later.currency }), { instanceOf: GoneError });
  t.is(lapsed?.code, 'order_expired');
  t.notRegex(lapsed?.message ?? '', VENDOR_WORDS);
  t.is((await adapter().retrieveOrder(hold.orderId)).status, 'cancelled', 'the airline cancelled it');
});

test('sandbox: a slow OrderCreate whose caller hung up (booking timeout) books nothing', async (t) => {
  const order = await request('slow');
  const started = Date.now();
  const error = await t.throwsAsync(adapterAt(sandbox(), { bookingSeconds: 1 }).createOrder(order), { instanceOf: ProviderTimeoutError });
  t.regex(error?.message ?? '', /within 1 s/);
  t.true(Date.now() - started < 3000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(await running.service.db.knex('flight_sandbox_orders').where({ reference: order.reference }).first(), undefined);
});
