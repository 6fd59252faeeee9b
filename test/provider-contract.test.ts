/**
 * One contract, every adapter: the same tests run against provider_a to provider_e, each adapter talking
 * to its own sandbox over real HTTP. For each provider a native offer is fetched or built the way a partner
 * would get it, on the magic value that steers each path (the README lists them): pricing answers a
 * schema-valid Offer; a changed price comes back changed; sold out, expired, a 5xx, a slow answer and
 * wrong credentials become the same domain errors everywhere, never in the provider's words; seat maps
 * exist exactly where the capabilities say seats are sold.
 *
 * The order steps have their own contract: test/booking-contract.test.ts.
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

interface ContractCase {
  providerId: string;
  /** The adapter, against the sandbox, with the sandbox's credentials or the ones given. */
  adapter(credentials?: string): FlightProvider;
  /** A native offer that takes `path` when priced. */
  offer(path: Path): Promise<Native>;
}


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
      // Found with its Flight Offers Search, as a partner would; a magic path is the same offer on a magic flight number.
      const search = `${sandbox('provider_a')}/v2/shopping/flight-offers?originLocationCode=LHR&destinationLocationCode=CDG`;
      const native = (await jsonOf(await fetch(search, { headers: { authorization: 'Bearer amadeus_test_partner' } }))).data[0];
      const flight = { normal: undefined, priceChange: A_MAGIC.priceChange, soldOut: A_MAGIC.soldOut, expired: A_MAGIC.expired, slow: A_MAGIC.slow, error: A_MAGIC.systemError }[path];
      if (flight) native.itineraries[0].segments[0].number = flight;
      return native;
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
  },
  {
    providerId: 'provider_c',
    adapter: (credentials = 'ndc_test_contract') => new ProviderCAdapter(settings('provider_c', credentials)),
    async offer(path) {
      const id = encodeURIComponent('d2sr9k1Qx7|6f7c2f1e-5b9a-4d2e-9f0a-3c1b2a4d5e6f');
      const native = (await jsonOf(await fetch(`${sandbox('provider_c')}/Offers/${id}`, { headers: { authorization: 'Bearer ndc_test_partner' } }))).PricedOffer;
      const flight = { normal: undefined, priceChange: C_MAGIC.priceChange, soldOut: C_MAGIC.soldOut, expired: C_MAGIC.expired, slow: C_MAGIC.slow, error: C_MAGIC.systemError }[path];
      if (flight) native.DataLists.DatedMarketingSegmentList[0].MarketingCarrierFlightNumberText = flight;
      return native;
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

}
