/**
 * A bounded load of bookings against a running service or topology, with autocannon: `rate` bookings a
 * second for `seconds`, each on an offer of its own made beforehand (createProviderOffer), by travelers
 * taken in turn, each with a fresh idempotency key. It reports bookings a second, latency p50/p99 and
 * errors, and the keys it sent, so that a test can find every booking it asked for.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { bookingBody, booker } from '../test/helpers/bookings.js';
import { createPartnerClient } from '../test/helpers/oauth.js';
import type { RunningService } from '../test/helpers/service.js';
import { benchOrder } from './booking-order.js';
import { createOffer, type BenchTraveler } from './booking-calls.js';

/** What the load needs of a topology: where, as whom, and provider_b's offer to book. */
export interface LoadTarget {
  url: string;
  apiKey: string;
  travelers: Pick<BenchTraveler, 'token' | 'cardId'>[];
  nativeOffer: Record<string, unknown>;
}

/** provider_b's LHR–JFK fare for two adults: what every load booking books (as the benchmark's). */
const OFFER = 'off_0000AuPyAJY1KPrmYbBxIm';

/**
 * A partner on a plan too large to limit the load, `travelers` travelers of it signed in through the
 * hosted pages with a card saved from the vault, and provider_b's offer: everything `bookingLoad` needs.
 */
export async function prepareLoadTarget(running: RunningService, travelers = 4): Promise<LoadTarget & { partnerId: string }> {
  await running.service.partners.setPlan({ id: 'load', requests_per_second: 100_000, burst: 100_000, requests_per_day: 100_000_000 });
  const partner = await createPartnerClient(running, `Load ${randomUUID().slice(0, 8)}`, 'load');
  const signedIn = await Promise.all(Array.from({ length: travelers }, () => booker(running, partner)));
  const provider = running.config.providerB as { url: string; token: string };
  const offer = await fetch(`${provider.url}/air/offers/${OFFER}`, { headers: { authorization: `Bearer ${provider.token}`, 'duffel-version': 'v2' } });
  return {
    url: running.url,
    apiKey: partner.apiKey,
    partnerId: partner.partnerId,
    travelers: signedIn.map((each) => ({ token: each.token, cardId: each.cardId })),
    nativeOffer: ((await offer.json()) as { data: Record<string, unknown> }).data,
  };
}

export interface LoadOptions {
  /** Bookings a second asked for. */
  rate: number;
  seconds: number;
  /** Connections kept open to the balancer. */
  connections?: number;
}

export interface LoadReport {
  requested: number;
  /** Answered 201 (a booking confirmed, or a failure recorded and answered as such is not counted here). */
  booked: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Every answer, by status. */
  statuses: Record<string, number>;
  /** Requests that got no answer at all (the instance died under them, or the connection broke). */
  unanswered: number;
  /** Of those, how many autocannon saw time out. */
  timeouts: number;
  /** Every idempotency key sent, with its traveler's token: a test looks each booking up by it. */
  sent: { key: string; traveler: number }[];
}

export async function bookingLoad(target: LoadTarget, options: LoadOptions): Promise<LoadReport> {
  const total = Math.ceil(options.rate * options.seconds);
  const offers: string[] = [];
  // Made before the clock starts, a few at a time: the load times bookings, not offers.
  for (let start = 0; start < total; start += 10) {
    offers.push(...(await Promise.all(Array.from({ length: Math.min(10, total - start) }, () => createOffer(target)))));
  }
  const sent: LoadReport['sent'] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  const result = await autocannon({
    url: target.url,
    connections: options.connections ?? 8,
    overallRate: options.rate,
    amount: total,
    timeout: 60,
    requests: [
      {
        method: 'POST',
        path: '/v1/flights/providers/provider_b/bookings',
        setupRequest: (request) => {
          const index = next++;
          const travelerIndex = index % target.travelers.length;
          const traveler = target.travelers[travelerIndex] as LoadTarget['travelers'][number];
          const key = randomUUID();
          sent.push({ key, traveler: travelerIndex });
          const offerId = offers[index % offers.length] as string;
          return {
            ...request,
            headers: { 'x-api-key': target.apiKey, authorization: `Bearer ${traveler.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(bookingBody(offerId, benchOrder(target.nativeOffer, key), traveler, { key })),
          };
        },
        onResponse: (status) => {
          statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
        },
      },
    ],
  });
  const booked = statuses['201'] ?? 0;
  return {
    requested: total,
    booked,
    perSecond: booked / (result.duration || options.seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    statuses,
    unanswered: total - Object.values(statuses).reduce((sum, count) => sum + count, 0),
    timeouts: result.timeouts,
    sent,
  };
}

export function describeLoad(report: LoadReport): string {
  const others = Object.entries(report.statuses).filter(([status]) => status !== '201');
  return [
    `${report.booked} of ${report.requested} bookings answered 201, ${report.perSecond.toFixed(1)} a second`,
    `latency p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms`,
    `other answers: ${others.length === 0 ? 'none' : others.map(([status, count]) => `${count} × ${status}`).join(', ')}`,
    `no answer: ${report.unanswered} (of which ${report.timeouts} timed out)`,
  ].join('\n');
}
