/**
 * The booking benchmark (issues 13 and 25): what a booking costs above the systems it calls. One traveler,
 * then ten at once, book provider_b's offer, each waiting for its booking before the next, in interleaved
 * rounds:
 *
 * - the sandboxes alone: the processor's authorization, provider_b's order and the capture, called
 *   straight over HTTP in the saga's order (the baseline: what no booking service can go below);
 * - createProviderBooking over REST: each booking on an offer of its own, with its own idempotency key,
 *   paid with the traveler's saved card: the same three calls and everything the service adds.
 *
 * p50 and p99 are over every booking of the run; bookings per second is the median of the rounds'; CPU
 * time is the server process's (it serves the sandboxes too, so the baseline's CPU is theirs alone).
 *
 * BENCH_BOOKING_ROUNDS (default 3), BENCH_BOOKINGS (per traveler and round, default 10).
 */
import { randomUUID } from 'node:crypto';
import { createOffer, sandboxBooking, serviceBooking, type BenchTraveler, type BookingTarget } from './booking-calls.js';
import { percentile, underLoad, type LoadResult } from './load.js';
import { record, say } from './figures.js';
import { cpuOf, median, startServer } from './servers.js';

const rounds = Number(process.env.BENCH_BOOKING_ROUNDS ?? 3);
const perTraveler = Number(process.env.BENCH_BOOKINGS ?? 10);
const WARM_UP_PER_TRAVELER = 2;

interface Ready {
  target: BookingTarget;
  travelers: BenchTraveler[];
  database: string;
}

interface Side {
  name: string;
  results: LoadResult[];
  /** Server CPU microseconds per operation, per round. */
  cpu: number[];
}

export async function runBookingBench(): Promise<void> {
  const started = performance.now();
  const { child, ready } = await startServer<Ready>(new URL('./booking-server.ts', import.meta.url));
  const { target, travelers } = ready;
  try {
    say('');
    say(`Bookings on provider_b (${ready.database}): ${travelers.length} travelers signed in, each with a saved card, in ${seconds(performance.now() - started)} s.`);
    // One traveler at a time: the latency a booking adds; ten at once: what the server spends under load.
    for (const workers of [1, travelers.length]) {
      say(`Warming up, then ${rounds} interleaved rounds of ${perTraveler} bookings per traveler, ${workers} at once.`);
      const sandboxes: Side = { name: 'sandboxes alone (authorize, order, capture)', results: [], cpu: [] };
      const bookings: Side = { name: 'createProviderBooking (REST)', results: [], cpu: [] };
      const runSandboxes = (count: number) => underLoad(workers, count, (worker) => sandboxBooking(target, travelers[worker] as BenchTraveler, randomUUID()));
      const runBookings = async (count: number) => {
        // Offers are made before the clock starts: one per booking, as a partner makes one per checkout.
        const offers = await Promise.all(Array.from({ length: workers * count }, () => createOffer(target)));
        return () => underLoad(workers, count, (worker, index) => serviceBooking(target, travelers[worker] as BenchTraveler, offers[worker * count + index] as string, randomUUID()));
      };
      await runSandboxes(WARM_UP_PER_TRAVELER);
      await (await runBookings(WARM_UP_PER_TRAVELER))();
      for (let round = 0; round < rounds; round++) {
        await measure(sandboxes, () => runSandboxes(perTraveler));
        await measure(bookings, await runBookings(perTraveler));
      }
      report(sandboxes, bookings, workers);
    }
    say(`(booking benchmark: ${seconds(performance.now() - started)} s in all)`);
  } finally {
    child.disconnect();
  }

  async function measure(side: Side, run: () => Promise<LoadResult>): Promise<void> {
    const before = await cpuOf(child);
    const result = await run();
    const after = await cpuOf(child);
    side.results.push(result);
    side.cpu.push((after - before) / Math.max(1, result.millis.length + result.failures.length));
  }
}

/** Server CPU a booking may spend above the sandboxes' own, at ten travelers; p50 it may add, at one (issue 25). */
const CPU_OVERHEAD_GOAL_MS = 4;
const P50_OVERHEAD_GOAL_MS = 15;

function report(sandboxes: Side, bookings: Side, workers: number): void {
  const figures = (side: Side) => {
    const millis = side.results.flatMap((result) => result.millis);
    return {
      perSecond: median(side.results.map((result) => (result.millis.length / result.wallMs) * 1000)),
      p50: percentile(millis, 50),
      p99: percentile(millis, 99),
      cpuMs: median(side.cpu) / 1000,
      count: millis.length,
      failures: side.results.flatMap((result) => result.failures),
    };
  };
  const base = figures(sandboxes);
  const full = figures(bookings);
  say('');
  const travelers = workers === 1 ? 'one traveler at a time' : `${workers} concurrent travelers`;
  say(`| provider_b, ${travelers} | bookings/s | p50 ms | p99 ms | server CPU ms/booking | bookings | failures |`);
  say('|---|---|---|---|---|---|---|');
  for (const [side, own] of [
    [sandboxes, base],
    [bookings, full],
  ] as const) {
    say(`| ${side.name} | ${own.perSecond.toFixed(1)} | ${own.p50.toFixed(1)} | ${own.p99.toFixed(1)} | ${own.cpuMs.toFixed(1)} | ${own.count} | ${own.failures.length} |`);
  }
  say(`| overhead (booking − sandboxes) | | +${(full.p50 - base.p50).toFixed(1)} | +${(full.p99 - base.p99).toFixed(1)} | +${(full.cpuMs - base.cpuMs).toFixed(1)} | | |`);
  say('');
  say(
    `Booking overhead above the sandboxes' own latency: p50 +${(full.p50 - base.p50).toFixed(1)} ms, p99 +${(full.p99 - base.p99).toFixed(1)} ms; ` +
      `${full.perSecond.toFixed(1)} bookings/s, ${travelers} (the sandboxes alone: ${base.perSecond.toFixed(1)}/s).`,
  );
  if (workers === 1) record('booking p50 above the sandboxes, one traveler at a time', full.p50 - base.p50, 'ms', { at: 'most', value: P50_OVERHEAD_GOAL_MS });
  else record(`booking server CPU above the sandboxes, ${travelers}`, full.cpuMs - base.cpuMs, 'ms', { at: 'most', value: CPU_OVERHEAD_GOAL_MS });
  for (const [side, own] of [
    [sandboxes, base],
    [bookings, full],
  ] as const) {
    if (own.failures.length > 0) say(`Warning: ${own.failures.length} failed in ${side.name}, e.g. ${own.failures[0]}`);
  }
}

const seconds = (millis: number) => (millis / 1000).toFixed(1);
