/**
 * Normalization of every provider's native offers: golden files (native fixture in, the expected
 * normalized Offer out, reviewed by hand), the native schema's field paths on malformed input, and a
 * property test: every fixture and generated variations of it normalize to a schema-valid Offer whose
 * amounts keep their currency's minor units.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import type { OfferNormalizer } from '../core/flights/offer-normalizer.js';
import { Offer } from '../core/flights/offer-schemas.js';
import { MAX_WHOLE_DIGITS, minorUnits } from '../core/money/money.js';
import { ValidationError } from '../core/errors.js';
import { providerAOffers } from '../providers/flights/provider-a/normalizer.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { providerCOffers } from '../providers/flights/provider-c/normalizer.js';
import { providerDOffers } from '../providers/flights/provider-d/normalizer.js';
import { providerEOffers } from '../providers/flights/provider-e/normalizer.js';

/** When the golden files were made: offers without an expiry of their own live from then. */
const NOW = new Date('2026-05-20T09:00:00Z');
const CURRENCIES = ['GBP', 'USD', 'EUR', 'JPY', 'KWD'] as const;
/** The first whole amount past the bound of every amount (core/money). */
const MAX_WHOLE = 10n ** BigInt(MAX_WHOLE_DIGITS);

type Native = Record<string, unknown>;

interface ProviderCase {
  normalizer: OfferNormalizer;
  fixtures: string;
  /** A malformed copy of a fixture, and the native paths that must be named. */
  breakIt(native: Native): { broken: Native; paths: string[] };
  /** A variation of a fixture: another currency, loosely written amounts, more passengers. */
  vary(native: Native, currency: string, total: string, base: string, passengers: number): Native;
  /** The provider writes money as JSON numbers (floats): they are rounded to the currency, not refused. */
  floatMoney?: true;
}

const CASES: ProviderCase[] = [
  {
    normalizer: providerAOffers,
    fixtures: 'providers/flights/provider-a/fixtures',
    breakIt(native) {
      const broken = structuredClone(native) as Native & { price: Native; itineraries: { segments: Native[] }[] };
      broken.price.grandTotal = 96.4;
      (broken.itineraries[0]?.segments[0] as Native).carrierCode = 'British Airways';
      delete (broken as Native).validatingAirlineCodes;
      return { broken, paths: ['price.grandTotal', 'itineraries.0.segments.0.carrierCode', 'validatingAirlineCodes'] };
    },
    vary(native, currency, total, base, passengers) {
      const variant = structuredClone(native) as Native & { travelerPricings: Native[] };
      // Base never above the total, as fares go.
      const [low, high] = [base, total].sort((a, b) => Number(a) - Number(b)) as [string, string];
      variant.price = { currency, total: high, base: low, grandTotal: high };
      const template = variant.travelerPricings[0] as Native;
      variant.travelerPricings = Array.from({ length: passengers }, (_, index) => ({
        ...structuredClone(template),
        travelerId: String(index + 1),
        price: { currency, total: high },
      }));
      return variant;
    },
  },
  {
    normalizer: providerBOffers,
    fixtures: 'providers/flights/provider-b/fixtures',
    breakIt(native) {
      const broken = structuredClone(native) as Native & { slices: { segments: Native[] }[] };
      broken.total_amount = 512.46;
      (broken.slices[0]?.segments[0] as Native).departing_at = 'tomorrow';
      delete (broken as Native).owner;
      return { broken, paths: ['total_amount', 'slices.0.segments.0.departing_at', 'owner'] };
    },
    vary(native, currency, total, base, passengers) {
      return {
        ...structuredClone(native),
        total_amount: total,
        total_currency: currency,
        base_amount: base,
        base_currency: currency,
        tax_amount: null,
        passengers: Array.from({ length: passengers }, (_, index) => ({ id: `pas_generated${index}`, type: 'adult' })),
        available_services: [{ id: 'ase_generated', type: 'baggage', total_amount: base, total_currency: currency, passenger_ids: [], segment_ids: [] }],
      };
    },
  },
  {
    normalizer: providerCOffers,
    fixtures: 'providers/flights/provider-c/fixtures',
    breakIt(native) {
      const broken = structuredClone(native) as Native & { TotalPrice: { TotalAmount: Native }; DataLists: { PaxList: Native[] } };
      broken.TotalPrice.TotalAmount.amount = 1686.24;
      delete (broken.DataLists.PaxList[0] as Native).PTC;
      delete (broken as Native).OwnerCode;
      return { broken, paths: ['TotalPrice.TotalAmount.amount', 'DataLists.PaxList.0.PTC', 'OwnerCode'] };
    },
    vary(native, currency, total, base, passengers) {
      const variant = structuredClone(native) as Native & { OfferItem: Native[]; DataLists: Native };
      const money = (amount: string) => ({ amount, curCode: currency });
      const [low, high] = [base, total].sort((a, b) => Number(a) - Number(b)) as [string, string];
      const paxIds = Array.from({ length: passengers }, (_, index) => `ADULT_${index + 1}`);
      variant.TotalPrice = { TotalAmount: money(high) };
      variant.DataLists.PaxList = paxIds.map((PaxID) => ({ PaxID, PTC: 'ADT' }));
      const template = variant.OfferItem[0] as Native & { FareDetail: Native };
      variant.OfferItem = paxIds.map((id, index) => ({
        ...structuredClone(template),
        OfferItemID: `ITEM${index}`,
        Price: { BaseAmount: money(index === 0 ? low : '0'), TotalAmount: money(index === 0 ? high : '0') },
        FareDetail: { ...structuredClone(template.FareDetail), PaxRefID: [id] },
      }));
      return variant;
    },
  },
  {
    normalizer: providerDOffers,
    fixtures: 'providers/flights/provider-d/fixtures',
    floatMoney: true,
    breakIt(native) {
      const broken = structuredClone(native) as Native & { data: (Native & { route: Native[] })[] };
      (broken.data[0] as Native).price = '512.46';
      (broken.data[0]?.route[0] as Native).local_departure = '01/06/2026 08:25';
      delete (broken as Native).currency;
      return { broken, paths: ['data.0.price', 'data.0.route.0.local_departure', 'currency'] };
    },
    vary(native, currency, total, base, passengers) {
      const variant = structuredClone(native) as Native & { data: Native[] };
      delete variant.check_flights;
      variant.currency = currency;
      variant.search_params = { seats: { adults: passengers, children: 0, infants: 0 } };
      variant.data = [{ ...(variant.data[0] as Native), price: Number(total), conversion: { [currency]: Number(total) }, bags_price: { '1': Number(base) } }];
      return variant;
    },
  },
  {
    normalizer: providerEOffers,
    fixtures: 'providers/flights/provider-e/fixtures',
    floatMoney: true,
    breakIt(native) {
      const broken = structuredClone(native) as Native & { pricing: { display: Native }; journeys: { legs: Native[] }[] };
      broken.pricing.display.total = '512.46';
      (broken.journeys[0]?.legs[0] as Native).departure = '2026-06-01T08:25:00+01:00';
      delete (broken as Native).validatingCarrier;
      return { broken, paths: ['pricing.display.total', 'journeys.0.legs.0.departure', 'validatingCarrier'] };
    },
    vary(native, currency, total, base, passengers) {
      const [low, high] = [base, total].sort((a, b) => Number(a) - Number(b)) as [string, string];
      return {
        ...structuredClone(native),
        pricing: { display: { total: Number(high), base: Number(low), currency } },
        passengers: Array.from({ length: passengers }, (_, index) => ({ passengerRef: `P${index + 1}`, type: 'ADT' })),
        servicesAttachable: [{ serviceId: 'generated-bag', type: 'BAGGAGE', description: 'Checked bag', price: { amount: Number(base), currency } }],
      };
    },
  },
];

function fixturesOf(providerCase: ProviderCase): { name: string; native: Native }[] {
  return fs
    .readdirSync(providerCase.fixtures)
    .filter((file) => file.endsWith('.json') && !file.endsWith('.offer.json'))
    .map((file) => ({ name: file, native: JSON.parse(fs.readFileSync(path.join(providerCase.fixtures, file), 'utf8')) as Native }));
}

/**
 * A decimal amount in `currency` written loosely, as providers do: fewer fraction digits than the
 * currency has, or more but only trailing zeros.
 */
function looseAmount(currency: string) {
  const digits = minorUnits(currency) as number;
  return fc
    .tuple(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 10 ** Math.max(digits, 1) - 1 }), fc.integer({ min: 0, max: digits }), fc.integer({ min: 0, max: 2 }))
    .map(([whole, fraction, shown, zeros]) => {
      const text = String(fraction).padStart(digits, '0').slice(0, shown) + '0'.repeat(zeros);
      return text === '' ? String(whole) : `${whole}.${text}`;
    });
}

for (const providerCase of CASES) {
  const provider = providerCase.normalizer.providerId;
  const fixtures = fixturesOf(providerCase);

  for (const { name, native } of fixtures) {
    test(`${provider} golden: ${name}`, (t) => {
      const expected = JSON.parse(fs.readFileSync(path.join(providerCase.fixtures, name.replace('.json', '.offer.json')), 'utf8'));
      const { raw_offer: raw, ...offer } = Offer.parse(providerCase.normalizer.normalize(structuredClone(native), NOW).offer);
      t.deepEqual(offer, expected);
      t.deepEqual(raw, native, 'the native offer is kept as it was given');
    });
  }

  test(`${provider}: a malformed native offer is refused with the path of each problem`, (t) => {
    const { broken, paths } = providerCase.breakIt((fixtures[0] as { native: Native }).native);
    const error = t.throws(() => providerCase.normalizer.normalize(broken, NOW), { instanceOf: ValidationError });
    for (const field of paths) t.truthy(error?.fields[field], `${field} is named`);
  });

  test(`${provider} property: fixtures and variations normalize to a valid Offer with exact minor units`, (t) => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtures.map((item) => item.native)),
        fc.constantFrom(...CURRENCIES).chain((currency) => fc.tuple(fc.constant(currency), looseAmount(currency), looseAmount(currency))),
        fc.integer({ min: 1, max: 3 }),
        (native, [currency, total, base], passengers) => {
          const offer = Offer.parse(providerCase.normalizer.normalize(providerCase.vary(native, currency, total, base, passengers), NOW).offer);
          const digits = minorUnits(currency) as number;
          const exact = (amount: string | null) => amount === null || (amount.replace(/^-/, '').split('.')[1] ?? '').length === digits;
          return (
            exact(offer.total_amount) &&
            exact(offer.base_amount) &&
            exact(offer.tax_amount) &&
            offer.passengers.length === passengers &&
            (offer.available_services ?? []).every((service) => exact(service.total_amount))
          );
        },
      ),
      { numRuns: 300 },
    );
    t.pass();
  });

  test(`${provider} property: an amount past the bound (10^11 of its currency, to far past 2^63 minor units) is refused naming a native field, rule max`, (t) => {
    const whole = fc.oneof(fc.bigInt({ min: 10n ** 10n, max: 10n ** 12n }), fc.bigInt({ min: 10n ** 12n, max: 10n ** 30n }), fc.constantFrom(MAX_WHOLE - 1n, MAX_WHOLE, MAX_WHOLE + 1n));
    fc.assert(
      fc.property(fc.constantFrom(...fixtures.map((item) => item.native)), fc.constantFrom(...CURRENCIES), whole, fc.boolean(), (native, currency, amount, asTotal) => {
        // A large base is a large total too where the fixture's shape keeps base below the total.
        const variant = providerCase.vary(native, currency, asTotal ? amount.toString() : '10', asTotal ? '10' : amount.toString(), 1);
        try {
          Offer.parse(providerCase.normalizer.normalize(variant, NOW).offer);
          return amount < MAX_WHOLE;
        } catch (error) {
          return amount >= MAX_WHOLE && error instanceof ValidationError && Object.values(error.fields).some((field) => field.rule === 'max');
        }
      }),
      { numRuns: 200 },
    );
    t.pass();
  });

  if (providerCase.floatMoney) {
    test(`${provider}: a float more precise than its currency is rounded half away from zero`, (t) => {
      const native = providerCase.vary((fixtures[0] as { native: Native }).native, 'JPY', '15430.5', '8000', 1);
      t.is(providerCase.normalizer.normalize(native, NOW).offer.total_amount, '15431');
    });
    continue;
  }

  test(`${provider}: an amount more precise than its currency is refused, naming the native field`, (t) => {
    const native = providerCase.vary((fixtures[0] as { native: Native }).native, 'JPY', '15430.5', '8000', 1);
    const error = t.throws(() => providerCase.normalizer.normalize(native, NOW), { instanceOf: ValidationError });
    t.true(Object.values(error?.fields ?? {}).some((field) => field.rule === 'minor_units'));
  });
}
