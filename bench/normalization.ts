/**
 * Normalization alone, as bench/run.ts measures it (the same loop and fixtures: native offer cloned,
 * normalized, the Offer checked), for profiling one provider at a time:
 *
 *   node --import tsx bench/normalization.ts [provider_a ...]
 *   node --cpu-prof --import tsx bench/normalization.ts provider_a
 *
 * Prints offers a second by the clock and by the process's CPU time: on a busy machine the second says
 * more. BENCH_SECONDS (default 2) per provider.
 */
import fs from 'node:fs';
import type { OfferNormalizer } from '../core/flights/offer-normalizer.js';
import { Offer } from '../core/flights/offer-schemas.js';
import { providerAOffers } from '../providers/flights/provider-a/normalizer.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { providerCOffers } from '../providers/flights/provider-c/normalizer.js';
import { providerDOffers } from '../providers/flights/provider-d/normalizer.js';
import { providerEOffers } from '../providers/flights/provider-e/normalizer.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 2);

const fixture = (path: string): unknown => JSON.parse(fs.readFileSync(new URL(`../providers/flights/${path}`, import.meta.url), 'utf8'));

const normalizers: Record<string, [OfferNormalizer, unknown]> = {
  provider_a: [providerAOffers, fixture('provider-a/fixtures/lhr-cdg-return-gbp.json')],
  provider_b: [providerBOffers, fixture('provider-b/fixtures/lhr-jfk-gbp.json')],
  provider_c: [providerCOffers, fixture('provider-c/fixtures/lhr-jfk-family-gbp.json')],
  provider_d: [providerDOffers, fixture('provider-d/fixtures/lhr-jfk-gbp-checked.json')],
  provider_e: [providerEOffers, fixture('provider-e/fixtures/lhr-jfk-gbp.json')],
};

const chosen = process.argv.slice(2);
console.log(`Node.js ${process.version}: offers normalized and checked a second, on one core`);
for (const [provider, [normalizer, native]] of Object.entries(normalizers)) {
  if (chosen.length > 0 && !chosen.includes(provider)) continue;
  const once = () => Offer.parse(normalizer.normalize(structuredClone(native), new Date()).offer);
  for (let i = 0; i < 200; i++) once();
  let count = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    once();
    count++;
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  console.log(`  ${provider}: ${(count / elapsed).toFixed(0)} offers/s (${(count / ((cpu.user + cpu.system) / 1e6)).toFixed(0)} per CPU second)`);
}
