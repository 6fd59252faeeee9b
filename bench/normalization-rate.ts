/**
 * How fast one normalizer turns a provider's native offer into a schema-checked Offer, as createProviderOffer
 * does (normalize, then the Offer checked): shared by `npm run bench` and bench/normalization.ts.
 *
 * The inputs are parsed from the fixture's text before the clock starts, many distinct copies as request
 * bodies would be, so the figure is the normalizer's alone: copying an input per loop (structuredClone)
 * cost a third to a half of each loop. The copies are reused round after round because a normalizer never
 * writes to its input; the run checks that, and refuses a figure that would rest on a changed input.
 */
import fs from 'node:fs';
import type { OfferNormalizer } from '../core/flights/offer-normalizer.js';
import { Offer } from '../core/flights/offer-schemas.js';
import { providerAOffers } from '../providers/flights/provider-a/normalizer.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { providerCOffers } from '../providers/flights/provider-c/normalizer.js';
import { providerDOffers } from '../providers/flights/provider-d/normalizer.js';
import { providerEOffers } from '../providers/flights/provider-e/normalizer.js';

/** Offers a second one core normalizes and validates, for each provider (issue 25). */
export const NORMALIZATION_GOAL = 10_000;

const WARM_UP_MS = 500;

/** Distinct inputs cycled through, as distinct request bodies are (not one object always hot in the cache): a few megabytes. */
const COPIES = 256;

const fixture = (path: string): string => fs.readFileSync(new URL(`../providers/flights/${path}`, import.meta.url), 'utf8');

/** Each provider's normalizer and the native offer (as JSON text) it is measured on. */
export const NORMALIZATION_CASES: [provider: string, normalizer: OfferNormalizer, native: string][] = [
  ['provider_a', providerAOffers, fixture('provider-a/fixtures/lhr-cdg-return-gbp.json')],
  ['provider_b', providerBOffers, fixture('provider-b/fixtures/lhr-jfk-gbp.json')],
  ['provider_c', providerCOffers, fixture('provider-c/fixtures/lhr-jfk-family-gbp.json')],
  ['provider_d', providerDOffers, fixture('provider-d/fixtures/lhr-jfk-gbp-checked.json')],
  ['provider_e', providerEOffers, fixture('provider-e/fixtures/lhr-jfk-gbp.json')],
];

export interface NormalizationRate {
  /** Offers a second by the clock. */
  perSecond: number;
  /** Offers a second of the process's CPU time: the steadier figure on a shared machine. */
  perCpuSecond: number;
}

/** Normalizes and checks `native` (JSON text) for about `seconds`, after a warm-up. */
export function normalizationRate(normalizer: OfferNormalizer, native: string, seconds: number): NormalizationRate {
  const inputs = Array.from({ length: COPIES }, () => JSON.parse(native) as unknown);
  const now = new Date();
  const once = (input: unknown) => Offer.parse(normalizer.normalize(input, now).offer);
  // Warmed up for a while, not a count of rounds: the optimizing compiler works on a background thread, and
  // on a busy machine it takes long to get to zod's large generated checks.
  const warmUntil = performance.now() + WARM_UP_MS;
  for (let i = 0; i < 200 || performance.now() < warmUntil; i++) once(inputs[i % COPIES]);
  let count = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    once(inputs[count % COPIES]);
    count++;
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (inputs.some((input) => JSON.stringify(input) !== JSON.stringify(JSON.parse(native)))) {
    throw new Error(`${normalizer.providerId}'s normalizer changed its input: a figure measured on reused inputs would be wrong`);
  }
  return { perSecond: count / elapsed, perCpuSecond: count / ((cpu.user + cpu.system) / 1e6) };
}
