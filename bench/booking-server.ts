/**
 * The service for the booking benchmark, with its sandboxes and the card vault on its own port, as
 * `npm start` serves them in sandbox mode: a partner whose plan is too large to limit a benchmark, and
 * ten travelers of it, each signed in through the hosted pages with a card saved from the vault (the
 * card fields' path), so that every booking takes the whole path a partner's would.
 */
import { startService } from '../test/helpers/service.js';
import { createPartnerClient } from '../test/helpers/oauth.js';
import { booker } from '../test/helpers/bookings.js';
import { vaultToken } from '../test/helpers/cards.js';
import type { BenchTraveler, BookingTarget } from './booking-calls.js';
import { reportToParent } from './child.js';
import { freshDatabase } from './fresh-database.js';

export const TRAVELERS = 10;
/** provider_b's LHR–JFK fare for two adults: what every benchmark booking books. */
const OFFER = 'off_0000AuPyAJY1KPrmYbBxIm';

const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : undefined;
// Without DATABASE_URL, the embedded database in the run's data directory: fresh too.
const running = await startService({ LOG_LEVEL: 'info' }, database ? { database } : { embedded: true });
const { config, service } = running;
// The background jobs run as `npm start` runs them (recovery, sweeps, deliveries): their cost is the service's.
await service.startBackgroundWork();
await service.partners.setPlan({ id: 'benchmark', requests_per_second: 1_000_000, burst: 1_000_000, requests_per_day: 1_000_000_000 });
const partner = await createPartnerClient(running, 'Benchmark Bookings', 'benchmark');
const travelers: BenchTraveler[] = await Promise.all(
  Array.from({ length: TRAVELERS }, async () => {
    const traveler = await booker(running, partner);
    return { token: traveler.token, cardId: traveler.cardId, vaultToken: await vaultToken(running, traveler.browser) };
  }),
);
const processor = config.processor as BookingTarget['processor'];
const provider = config.providerB as BookingTarget['provider'];
const offer = await fetch(`${provider.url}/air/offers/${OFFER}`, { headers: { authorization: `Bearer ${provider.token}`, 'duffel-version': 'v2' } });
const target: BookingTarget = {
  url: running.url,
  apiKey: partner.apiKey,
  processor,
  provider,
  nativeOffer: ((await offer.json()) as { data: Record<string, unknown> }).data,
};
reportToParent({ target, travelers, database: database ? 'PostgreSQL of DATABASE_URL (a fresh database beside it)' : 'the embedded database' });

process.on('disconnect', async () => {
  await running.close();
  await database?.drop();
  process.exit(0);
});
