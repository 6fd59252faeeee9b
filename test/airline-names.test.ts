/**
 * Every carrier the sandboxes fly has a name: whichever provider an offer comes through (provider_a,
 * provider_c and provider_d send only codes), its owner and each segment's marketing and operating
 * carrier are named, so a booking's airline_name is never null for a sandbox flight (EI through
 * provider_d was). Walks every sandbox's native fixtures through the normalizers the service wires, and
 * every airline of provider_d's search catalogue.
 */
import fs from 'node:fs';
import test from 'ava';
import { airlineName } from '../core/flights/airline-names.js';
import { OFFER_NORMALIZERS, SEARCH_NORMALIZER } from '../modules/offers.js';
import { ROUTES } from '../providers/flights/provider-d/catalogue.js';
import { nativeFixtures } from '../providers/flights/sandbox-fixtures.js';

const PROVIDERS = fs.readdirSync(new URL('../providers/flights/', import.meta.url)).filter((name) => name.startsWith('provider-'));

test('every sandbox fixture normalizes to named carriers: owner, marketing and operating', (t) => {
  t.true(PROVIDERS.length >= 5);
  let offers = 0;
  for (const directory of PROVIDERS) {
    const normalizer = OFFER_NORMALIZERS.find((candidate) => candidate.providerId === directory.replace('-', '_'));
    if (!normalizer) return t.fail(`no normalizer for ${directory}`);
    for (const native of nativeFixtures<unknown>(new URL(`../providers/flights/${directory}/fixtures/`, import.meta.url))) {
      const { offer } = normalizer.normalize(native, new Date('2024-01-01T00:00:00Z'));
      offers += 1;
      const where = `${directory} ${offer.id}`;
      t.truthy(offer.owner.name, `${where}: owner ${offer.owner.iata_code} has a name`);
      for (const segment of offer.slices.flatMap((slice) => slice.segments)) {
        t.truthy(segment.marketing_carrier.name, `${where}: marketing ${segment.marketing_carrier.iata_code}`);
        t.truthy(segment.operating_carrier.name, `${where}: operating ${segment.operating_carrier.iata_code}`);
      }
    }
  }
  t.true(offers >= 15, 'every fixture was walked');
});

test('provider_d search results name their carriers (EI included), as the flight search normalizes them', (t) => {
  const airlines = new Set(Object.values(ROUTES).flatMap((options) => options.flatMap((option) => option.flights.map((flight) => flight.airline))));
  t.true(airlines.has('EI'));
  for (const code of airlines) t.truthy(airlineName(code), `${code} has a name`);
  t.is(SEARCH_NORMALIZER.providerId, 'provider_d');
  const native = nativeFixtures<unknown>(new URL('../providers/flights/provider-d/fixtures/', import.meta.url));
  const viaDublin = native.map((item) => SEARCH_NORMALIZER.normalize(item, new Date('2024-01-01T00:00:00Z')).offer).find((offer) => offer.owner.iata_code === 'EI');
  t.is(viaDublin?.owner.name, 'Aer Lingus');
});

test('a name the provider gave is kept; an unknown code stays unnamed rather than guessed', (t) => {
  t.is(airlineName('BA'), 'British Airways');
  t.is(airlineName('ZZ'), undefined);
});
