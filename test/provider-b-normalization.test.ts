/**
 * provider_b (Duffel-like) normalization: golden files (native fixture in, the expected normalized Offer
 * out, reviewed by hand), the native schema's field paths on malformed input, and a property test:
 * every fixture and generated variations of it normalize to a schema-valid Offer whose amounts keep
 * their currency's minor units.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { Offer } from '../core/flights/offer-schemas.js';
import { minorUnits } from '../core/money/money.js';
import { toOffer } from '../providers/flights/provider-b/map.js';
import { WireOffer } from '../providers/flights/provider-b/wire.js';

const FIXTURES = 'providers/flights/provider-b/fixtures';
const natives = fs
  .readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json') && !file.endsWith('.offer.json'))
  .map((file) => ({ name: file, native: JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as Record<string, unknown> }));

for (const { name, native } of natives) {
  test(`golden: ${name}`, (t) => {
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, name.replace('.json', '.offer.json')), 'utf8'));
    const { raw_offer: raw, ...offer } = Offer.parse(toOffer(WireOffer.parse(native)));
    t.deepEqual(offer, expected);
    t.deepEqual(raw, native, 'the native offer is kept as it was given');
  });
}

test('a malformed native offer is refused with the path of each problem', (t) => {
  const { native } = natives.find((item) => item.name === 'lhr-jfk-gbp.json') as { native: Record<string, unknown> };
  const broken = structuredClone(native) as { total_amount: unknown; slices: { segments: { departing_at: unknown }[] }[] };
  broken.total_amount = 512.46;
  (broken.slices[0] as { segments: { departing_at: unknown }[] }).segments[0] = { ...broken.slices[0]?.segments[0], departing_at: 'tomorrow' };
  const result = WireOffer.safeParse(broken);
  t.false(result.success);
  const paths = result.error?.issues.map((issue) => issue.path.join('.')) ?? [];
  t.true(paths.includes('total_amount'));
  t.true(paths.includes('slices.0.segments.0.departing_at'));
});

const CURRENCIES = ['GBP', 'USD', 'EUR', 'JPY', 'KWD'] as const;

/** A decimal amount written loosely (too few or too many fraction digits), as providers do. */
const looseAmount = fc
  .tuple(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 4 }))
  .map(([whole, fraction, digits]) => (digits === 0 ? String(whole) : `${whole}.${String(fraction).padStart(4, '0').slice(0, digits)}`));

test('property: fixtures and variations normalize to a valid Offer with exact minor units', (t) => {
  fc.assert(
    fc.property(
      fc.constantFrom(...natives.map((item) => item.native)),
      fc.constantFrom(...CURRENCIES),
      looseAmount,
      looseAmount,
      looseAmount,
      fc.integer({ min: 1, max: 3 }),
      (native, currency, total, base, service, passengers) => {
        const variant = structuredClone(native) as Record<string, unknown> & { passengers: { id: string }[] };
        Object.assign(variant, {
          total_amount: total,
          total_currency: currency,
          base_amount: base,
          base_currency: currency,
          tax_amount: null,
          passengers: Array.from({ length: passengers }, (_, index) => ({ id: `pas_generated${index}`, type: 'adult' })),
          available_services: [
            { id: 'ase_generated', type: 'baggage', total_amount: service, total_currency: currency, passenger_ids: [], segment_ids: [] },
          ],
        });
        const offer = Offer.parse(toOffer(WireOffer.parse(variant)));
        const digits = minorUnits(currency) as number;
        const exact = (amount: string) => (amount.split('.')[1] ?? '').length === digits;
        return exact(offer.total_amount) && exact(offer.base_amount as string) && (offer.available_services ?? []).every((s) => exact(s.total_amount));
      },
    ),
    { numRuns: 300 },
  );
  t.pass();
});
