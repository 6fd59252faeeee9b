/**
 * One contract, every adapter: the same tests run against provider_a to provider_e, each adapter talking
 * to its own sandbox over real HTTP. For each provider a native offer is fetched or built the way a partner
 * would get it, on the magic value that steers each path (the README lists them): pricing answers a
 * schema-valid Offer; a changed price comes back changed; sold out, expired, a 5xx, a slow answer and
 * wrong credentials become the same domain errors everywhere, never in the provider's words; seat maps
 * exist exactly where the capabilities say seats are sold.
 *
 * The order step (price change at booking, invalid passengers) is played against each sandbox in its own
 * dialect: the booking flow's adapters come with bookings, and will be held to the same outcomes.
 */
import fs from 'node:fs';
import test from 'ava';
import { GoneError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError } from '../core/errors.js';
import type { FlightProvider } from '../core/flights/flight-provider.js';
import { Offer, SeatMap } from '../core/flights/offer-schemas.js';
import { ProviderAAdapter } from '../providers/flights/provider-a/adapter.js';
import { MAGIC_FLIGHT_NUMBERS as A_MAGIC } from '../providers/flights/provider-a/sandbox.js';
import { ProviderBAdapter } from '../providers/flights/provider-b/adapter.js';
import { MAGIC_OFFERS as B_MAGIC } from '../providers/flights/provider-b/sandbox.js';
import { ProviderCAdapter } from '../providers/flights/provider-c/adapter.js';
import { MAGIC_FLIGHT_NUMBERS as C_MAGIC } from '../providers/flights/provider-c/sandbox.js';
import { ProviderDAdapter } from '../providers/flights/provider-d/adapter.js';
import { MAGIC_DESTINATIONS as D_MAGIC } from '../providers/flights/provider-d/catalogue.js';
import { ProviderEAdapter } from '../providers/flights/provider-e/adapter.js';
import { MAGIC_OFFERS as E_MAGIC } from '../providers/flights/provider-e/sandbox.js';
import { providerAOffers } from '../providers/flights/provider-a/normalizer.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { providerCOffers } from '../providers/flights/provider-c/normalizer.js';
import { providerDOffers } from '../providers/flights/provider-d/normalizer.js';
import { providerEOffers } from '../providers/flights/provider-e/normalizer.js';
import { jsonOf, type Json } from './helpers/http.js';
import { startService, uniquePrefix, type RunningService } from './helpers/service.js';

type Native = Record<string, unknown>;
type Path = 'normal' | 'priceChange' | 'soldOut' | 'expired' | 'slow' | 'error';
type OrderPath = 'normal' | 'priceChangeAtBooking' | 'invalidPassenger';
/** How an order went at the provider, read from its own answer. */
type OrderOutcome = 'placed' | 'price_changed' | 'invalid_passenger' | `unexpected: ${string}`;

interface ContractCase {
  providerId: string;
  /** The adapter, against the sandbox, with the sandbox's credentials or the ones given. */
  adapter(credentials?: string): FlightProvider;
  /** A native offer that takes `path` when priced. */
  offer(path: Path): Promise<Native>;
  /**
   * Orders an offer at the sandbox in the provider's own dialect (hold, reprice and pay where it has
   * those steps), on the magic value for `path`. The booking flow's adapters come with bookings; this
   * shows every sandbox plays the order's failure paths the same way.
   */
  order(path: OrderPath): Promise<OrderOutcome>;
}

/** Calls a sandbox: JSON in and out, with the provider's own credentials header. */
async function native(providerId: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${sandbox(providerId)}/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await jsonOf(response) };
}
const lastName = (path: OrderPath) => (path === 'invalidPassenger' ? 'INVALID' : 'Lovelace');

let running: RunningService;
const sandbox = (providerId: string) => `${running.config.sandboxUrl}/flights/${providerId}`;
const settings = (providerId: string, token: string) => ({
  baseUrl: sandbox(providerId),
  token,
  capabilities: running.service.providers.capabilities(providerId),
  clock: { now: () => new Date() },
});
const read = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8'));
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const CASES: ContractCase[] = [
  {
    providerId: 'provider_a',
    adapter: (credentials = 'amadeus_test_contract') => new ProviderAAdapter(settings('provider_a', credentials)),
    async offer(path) {
      const native = read('providers/flights/provider-a/fixtures/lhr-cdg-return-gbp.json');
      native.lastTicketingDate = '2099-01-01';
      delete native.lastTicketingDateTime;
      const flight = { normal: undefined, priceChange: A_MAGIC.priceChange, soldOut: A_MAGIC.soldOut, expired: A_MAGIC.expired, slow: A_MAGIC.slow, error: A_MAGIC.systemError }[path];
      if (flight) native.itineraries[0].segments[0].number = flight;
      return native;
    },
    async order(path) {
      const offer: Json = await this.offer('normal');
      if (path === 'priceChangeAtBooking') offer.itineraries[0].segments[0].number = A_MAGIC.priceChangeAtBooking;
      const travelers = offer.travelerPricings.map((traveler: Json) => ({ id: traveler.travelerId, name: { firstName: 'Ada', lastName: lastName(path) } }));
      const answer = await native('provider_a', 'v1/booking/flight-orders', { authorization: 'Bearer amadeus_test_contract' }, { data: { type: 'flight-order', flightOffers: [offer], travelers } });
      if (answer.status === 201) return 'placed';
      const code = answer.body.errors?.[0]?.code;
      return code === 37200 ? 'price_changed' : code === 477 ? 'invalid_passenger' : `unexpected: ${answer.status} ${code}`;
    },
  },
  {
    providerId: 'provider_b',
    adapter: (credentials = 'duffel_test_contract') => new ProviderBAdapter(settings('provider_b', credentials)),
    async offer(path) {
      const id = { normal: 'off_0000AuPyAJY1KPrmYbBxIm', priceChange: B_MAGIC.priceChange, soldOut: B_MAGIC.soldOut, expired: B_MAGIC.expired, slow: B_MAGIC.slow, error: B_MAGIC.error }[path];
      const response = await fetch(`${sandbox('provider_b')}/air/offers/${id}`, { headers: { authorization: 'Bearer duffel_test_partner', 'duffel-version': 'v2' } });
      return (await jsonOf(response)).data;
    },
    async order(path) {
      const offer: Json = await this.offer('normal');
      const id = path === 'priceChangeAtBooking' ? B_MAGIC.priceChangeAtBooking : offer.id;
      const answer = await native('provider_b', 'air/orders', { authorization: 'Bearer duffel_test_contract', 'duffel-version': 'v2' }, {
        data: {
          type: 'instant',
          selected_offers: [id],
          passengers: offer.passengers.map((passenger: Json) => ({ id: passenger.id, given_name: 'Ada', family_name: path === 'invalidPassenger' ? 'R2D2' : 'Lovelace' })),
          payments: [{ type: 'balance', currency: offer.total_currency, amount: offer.total_amount }],
        },
      });
      if (answer.status === 201) return 'placed';
      const code = answer.body.errors?.[0]?.code;
      return code === 'price_changed' ? 'price_changed' : code === 'invalid_passenger_name' ? 'invalid_passenger' : `unexpected: ${answer.status} ${code}`;
    },
  },
  {
    providerId: 'provider_c',
    adapter: (credentials = 'ndc_test_contract') => new ProviderCAdapter(settings('provider_c', credentials)),
    async offer(path) {
      const native = read('providers/flights/provider-c/fixtures/lhr-jfk-family-gbp.json');
      native.OfferExpirationTimeLimitDateTime = new Date(Date.now() + 60 * 60_000).toISOString();
      const flight = { normal: undefined, priceChange: C_MAGIC.priceChange, soldOut: C_MAGIC.soldOut, expired: C_MAGIC.expired, slow: C_MAGIC.slow, error: C_MAGIC.systemError }[path];
      if (flight) native.DataLists.DatedMarketingSegmentList[0].MarketingCarrierFlightNumberText = flight;
      return native;
    },
    async order(path) {
      const offer: Json = await this.offer('normal');
      if (path === 'priceChangeAtBooking') offer.DataLists.DatedMarketingSegmentList[0].MarketingCarrierFlightNumberText = C_MAGIC.priceChangeAtBooking;
      const births: Record<string, string> = { ADT: '1985-04-12', CHD: '2018-01-01', INF: '2025-09-01' };
      const PaxList = offer.DataLists.PaxList.map((pax: Json) => ({ PaxID: pax.PaxID, Individual: { GivenName: 'Ada', Surname: lastName(path), Birthdate: births[pax.PTC] } }));
      const auth = { authorization: 'Bearer ndc_test_contract' };
      // NDC: a hold first, then the payment of its total.
      const held = await native('provider_c', 'OrderCreate', auth, { PricedOffer: offer, DataLists: { PaxList } });
      const holdCode = held.body.Errors?.[0]?.Code;
      if (holdCode) return ['73', '151', '152'].includes(holdCode) ? 'invalid_passenger' : `unexpected: ${holdCode}`;
      const order = held.body.Order;
      const paid = await native('provider_c', 'OrderChange', auth, {
        Order: { OrderID: order.OrderID },
        PaymentFunctions: { PaymentProcessingDetails: { Amount: order.TotalPrice.TotalAmount } },
      });
      if (paid.body.TicketDocInfo) return 'placed';
      // The order id comes back with the refusal, so that the order can be repriced and paid.
      return paid.body.Errors?.[0]?.Code === '727' && paid.body.Order?.OrderID === order.OrderID ? 'price_changed' : `unexpected: ${paid.body.Errors?.[0]?.Code}`;
    },
  },
  {
    providerId: 'provider_d',
    adapter: (credentials = 'kiwi_test_contract') => new ProviderDAdapter(settings('provider_d', credentials)),
    async offer(path) {
      // Its offers come from its own search: the adapter's search is part of the contract.
      const destination = { normal: 'CDG', priceChange: D_MAGIC.priceChange, soldOut: D_MAGIC.soldOut, expired: D_MAGIC.expired, slow: D_MAGIC.slow, error: D_MAGIC.error }[path];
      const searcher = new ProviderDAdapter(settings('provider_d', 'kiwi_test_contract'));
      const [hit] = await searcher.search({
        origin: 'LHR',
        destination,
        departure_date: inDays(21),
        passengers: { adults: 1, children: 0, infants: 0 },
        cabin_class: 'economy',
        currency: 'GBP',
        max_results: 5,
      });
      return hit?.native as Native;
    },
    async order(path) {
      const auth = { apikey: 'kiwi_test_contract' };
      const destination = path === 'priceChangeAtBooking' ? D_MAGIC.priceChangeAtBooking : 'CDG';
      const searched = await native('provider_d', `v2/search?fly_from=LHR&fly_to=${destination}&date_from=${inDays(21).split('-').reverse().join('/')}`, auth);
      const bookingToken = searched.body.data[0].booking_token;
      // check_flights opens a session; the hold (save_booking) names it.
      const check = await native('provider_d', `v2/booking/check_flights?booking_token=${bookingToken}&bnum=0&adults=1&children=0&infants=0&currency=EUR`, auth);
      const held = await native('provider_d', 'v2/booking/save_booking', auth, {
        booking_token: bookingToken,
        session_id: check.body.session_id,
        passengers: [{ name: 'Ada', surname: lastName(path), title: 'Ms', birthday: '1985-04-12', category: 'adult', email: 'ada@example.com', nationality: 'GB' }],
        baggage: [],
      });
      if (held.status === 422 && /surname/.test(held.body.error)) return 'invalid_passenger';
      if (held.status !== 200) return `unexpected: ${held.status}`;
      return held.body.price_change ? 'price_changed' : 'placed';
    },
  },
  {
    providerId: 'provider_e',
    adapter: (credentials = 'liteapi_test_contract') => new ProviderEAdapter(settings('provider_e', credentials)),
    async offer(path) {
      const normal = read('providers/flights/provider-e/fixtures/lhr-jfk-gbp.json').offerId as string;
      const id = { normal, priceChange: E_MAGIC.priceChangeAtVerify, soldOut: E_MAGIC.soldOut, expired: E_MAGIC.expired, slow: E_MAGIC.slow, error: E_MAGIC.error }[path];
      const response = await fetch(`${sandbox('provider_e')}/v3.0/flights/offers/${encodeURIComponent(id)}`, { headers: { 'x-api-key': 'liteapi_test_partner' } });
      return (await jsonOf(response)).data.offer;
    },
    async order(path) {
      const auth = { 'x-api-key': 'liteapi_test_contract' };
      const offer: Json = await this.offer('normal');
      const offerId = path === 'priceChangeAtBooking' ? E_MAGIC.priceChangeAtBooking : offer.offerId;
      const passengers = offer.passengers.map((passenger: Json) => ({
        passengerRef: passenger.passengerRef,
        type: passenger.type,
        firstName: 'Ada',
        lastName: lastName(path),
        birthday: '1985-12-10',
        gender: 'F',
        document: { type: 'PASSPORT', number: '533401234', expiryDate: '2031-04-30', issuingCountry: 'GB' },
      }));
      const contact = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+447700900123' };
      const prebook = await native('provider_e', 'v3.0/flights/prebooks', auth, { offerId, contact, passengers });
      if (prebook.status === 400 && prebook.body.error?.details?.some((detail: Json) => /lastName/.test(detail.field))) return 'invalid_passenger';
      if (prebook.status !== 200) return `unexpected: ${prebook.status}`;
      if (prebook.body.data.changes?.pricing) return 'price_changed';
      const booked = await native('provider_e', 'v3.0/flights/bookings', auth, {
        prebookId: prebook.body.data.prebookId,
        payment: { method: 'TRANSACTION_ID', transactionId: prebook.body.data.transactionId },
      });
      return booked.status === 200 ? 'placed' : `unexpected: ${booked.status}`;
    },
  },
];

/** To read a native offer's price before pricing. */
const NORMALIZERS = Object.fromEntries([providerAOffers, providerBOffers, providerCOffers, providerDOffers, providerEOffers].map((item) => [item.providerId, item]));

/** Words the sandboxes use that must never reach a caller. */
const VENDOR_WORDS = /SEGMENT SELL|SYSTEM ERROR|Offer no longer available|No available flights|Internal server error|Expired booking token|not found or expired|no availability|unauthori[sz]ed|apikey|invalid_authentication/i;

test.before(async () => {
  running = await startService({}, { rateLimitKeyPrefix: uniquePrefix() });
});
test.after.always(async () => {
  await running?.close();
});

for (const contract of CASES) {
  const id = contract.providerId;

  test(`${id}: pricing answers a schema-valid Offer of the same flights`, async (t) => {
    const native = await contract.offer('normal');
    const { offer, providerOfferId } = await contract.adapter().price(native);
    t.notThrows(() => Offer.parse(offer));
    t.is(offer.provider_id, id);
    t.truthy(providerOfferId);
    t.true(Date.parse(offer.expires_at) > Date.now(), 'a priced offer has not expired');
    t.truthy(offer.raw_offer, 'the provider’s own offer comes back to be kept');
  });

  test(`${id}: a price changed at pricing comes back changed, higher`, async (t) => {
    const adapter = contract.adapter();
    const native = await contract.offer('priceChange');
    const before = NORMALIZERS[id]?.normalize(native, new Date()).offer.total_amount;
    const { offer } = await adapter.price(native);
    t.true(Number(offer.total_amount) > Number(before), `${offer.total_amount} after ${before}`);
  });

  test(`${id}: sold out is 422 offer_no_longer_available, in our words`, async (t) => {
    const error = await t.throwsAsync(contract.adapter().price(await contract.offer('soldOut')), { instanceOf: ProviderRejectedError });
    t.is(error?.code, 'offer_no_longer_available');
    t.regex(error?.message ?? '', /search again/);
    t.notRegex(error?.message ?? '', VENDOR_WORDS);
  });

  test(`${id}: an offer the provider calls expired is 410 offer_expired`, async (t) => {
    const error = await t.throwsAsync(contract.adapter().price(await contract.offer('expired')), { instanceOf: GoneError });
    t.is(error?.code, 'offer_expired');
    t.notRegex(error?.message ?? '', VENDOR_WORDS);
  });

  test(`${id}: a provider error is provider_unavailable`, async (t) => {
    const error = await t.throwsAsync(contract.adapter().price(await contract.offer('error')), { instanceOf: ProviderUnavailableError });
    t.is(error?.code, 'provider_unavailable');
    t.notRegex(error?.message ?? '', VENDOR_WORDS);
  });

  test(`${id}: wrong credentials are provider_unavailable, not the provider’s authentication error`, async (t) => {
    const error = await t.throwsAsync(contract.adapter('not-a-sandbox-key').price(await contract.offer('normal')), { instanceOf: ProviderUnavailableError });
    t.notRegex(error?.message ?? '', VENDOR_WORDS);
  });

  test(`${id}: an answer slower than its pricing timeout is provider_timeout at that timeout`, async (t) => {
    const seconds = running.service.providers.capabilities(id).pricing_timeout_seconds;
    const native = await contract.offer('slow');
    const started = Date.now();
    const error = await t.throwsAsync(contract.adapter().price(native), { instanceOf: ProviderTimeoutError });
    const waited = Date.now() - started;
    t.regex(error?.message ?? '', new RegExp(`within ${seconds} s`));
    t.true(waited >= seconds * 1000 - 500 && waited < seconds * 1000 + 2500, `gave up after ${waited} ms, at the ${seconds} s timeout`);
  });

  test(`${id}: seat maps exist exactly where the capabilities say seats are sold`, async (t) => {
    const adapter = contract.adapter();
    if (!running.service.providers.capabilities(id).supports_seat_selection) {
      t.is(adapter.seatMaps, undefined);
      return;
    }
    const maps = await (adapter.seatMaps as NonNullable<FlightProvider['seatMaps']>)(await contract.offer('normal'), 'our-offer-id');
    t.true(maps.length > 0);
    for (const map of maps) {
      t.notThrows(() => SeatMap.parse(map));
      t.is(map.offer_id, 'our-offer-id');
      const seats = Object.values(map.seat_map);
      t.true(seats.some((seat) => seat.is_available) && seats.some((seat) => seat.is_occupied) && seats.some((seat) => seat.is_blocked));
      t.true(seats.every((seat) => [seat.is_available, seat.is_occupied, seat.is_blocked].filter(Boolean).length === 1), 'each seat is in one state');
    }
    await t.throwsAsync((adapter.seatMaps as NonNullable<FlightProvider['seatMaps']>)(await contract.offer('error'), 'x'), { instanceOf: ProviderUnavailableError });
  });

  test(`${id}: the order: placed; a price changed since pricing is said; an invalid passenger is refused`, async (t) => {
    t.is(await contract.order('normal'), 'placed');
    t.is(await contract.order('priceChangeAtBooking'), 'price_changed');
    t.is(await contract.order('invalidPassenger'), 'invalid_passenger');
  });
}
