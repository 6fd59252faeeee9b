/**
 * Normalization alone, as `npm run bench` measures it (bench/normalization-rate.ts: the same fixtures and
 * loop, inputs parsed before timing), for profiling one provider at a time:
 *
 *   node dist/bench/normalization.js [provider_a ...]
 *   node --cpu-prof dist/bench/normalization.js provider_a
 *
 * Prints offers a second by the clock and by the process's CPU time: on a busy machine the second says
 * more. BENCH_SECONDS (default 2) per provider.
 */
import { NORMALIZATION_CASES, normalizationRate } from './normalization-rate.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const chosen = process.argv.slice(2);
console.log(`Node.js ${process.version}: offers normalized and checked a second, on one core`);
for (const [provider, normalizer, native] of NORMALIZATION_CASES) {
  if (chosen.length > 0 && !chosen.includes(provider)) continue;
  const rate = normalizationRate(normalizer, native, seconds);
  console.log(`  ${provider}: ${rate.perSecond.toFixed(0)} offers/s (${rate.perCpuSecond.toFixed(0)} per CPU second)`);
}
