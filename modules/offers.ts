/**
 * Flights: the five providers' adapters (or their sandboxes), offers made from their native formats,
 * flight search through provider_d, the REST routes and the agent tools on them.
 */
import type Router from '@koa/router';
import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { FlightProvider } from '../core/flights/flight-provider.js';
import { withAirlineNames } from '../core/flights/airline-names.js';
import { FlightSearchService } from '../core/flights/flight-search.js';
import { OfferService } from '../core/flights/offers.js';
import { ProviderCatalog } from '../core/flights/provider-catalog.js';
import { OFFER_TOOLS } from '../mcp/tools/index.js';
import type { FlightSandboxDeps } from '../providers/flights/sandbox-orders.js';
import { ProviderAAdapter } from '../providers/flights/provider-a/adapter.js';
import { providerAOffers } from '../providers/flights/provider-a/normalizer.js';
import { ProviderBAdapter } from '../providers/flights/provider-b/adapter.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { ProviderCAdapter } from '../providers/flights/provider-c/adapter.js';
import { providerCOffers } from '../providers/flights/provider-c/normalizer.js';
import { ProviderDAdapter } from '../providers/flights/provider-d/adapter.js';
import { providerDOffers } from '../providers/flights/provider-d/normalizer.js';
import { ProviderEAdapter } from '../providers/flights/provider-e/adapter.js';
import { providerEOffers } from '../providers/flights/provider-e/normalizer.js';
import { flightProviderRoutes } from '../rest/routes/flight-providers.js';
import { offerRoutes } from '../rest/routes/offers.js';
import type { Capability, SharedPieces } from './capability.js';

export interface Offers extends Capability {
  providers: ProviderCatalog;
  flightSearch: FlightSearchService;
  offers: OfferService;
  /** The adapters of the providers whose systems are configured (or sandboxed): bookings order through them. */
  adapters: FlightProvider[];
}

/** Every provider's normalizer, naming the carriers a provider sends only codes for. */
export const OFFER_NORMALIZERS = [providerAOffers, providerBOffers, providerCOffers, providerDOffers, providerEOffers].map(withAirlineNames);

/** The flight search's (provider_d's), named the same way. */
export const SEARCH_NORMALIZER = withAirlineNames(providerDOffers);

export async function offersModule(shared: SharedPieces): Promise<Offers> {
  const { config, db, clock } = shared;
  const providers = await ProviderCatalog.load(db.knex);
  const adapters = flightAdapters(config, providers, clock);
  const offers = new OfferService({
    db: db.knex,
    clock,
    providers,
    normalizers: OFFER_NORMALIZERS,
    adapters,
    secrets: shared.secrets,
  });
  const sandboxDeps = { db: db.knex, clock };
  const searcher = adapters.find((adapter) => adapter instanceof ProviderDAdapter);
  const flightSearch = new FlightSearchService({ db: db.knex, clock, providers, normalizer: SEARCH_NORMALIZER, searcher, offers });
  return {
    providers,
    flightSearch,
    offers,
    adapters,
    routes: [...flightProviderRoutes({ providers }), ...offerRoutes({ offers })],
    tools: OFFER_TOOLS,
    toolServices: { offers, flightSearch, providers },
    sandboxes: config.sandbox ? await flightSandboxes(sandboxDeps) : [],
    sweepers: [() => flightSearch.sweepExpired()],
  };
}

/** Sandbox mode only: loaded then, so that a production start never reads the sandboxes' code and catalogs. */
async function flightSandboxes(deps: FlightSandboxDeps): Promise<Router[]> {
  const [a, b, c, d, e] = await Promise.all([
    import('../providers/flights/provider-a/sandbox.js'),
    import('../providers/flights/provider-b/sandbox.js'),
    import('../providers/flights/provider-c/sandbox.js'),
    import('../providers/flights/provider-d/sandbox.js'),
    import('../providers/flights/provider-e/sandbox.js'),
  ]);
  return [a.providerASandbox(deps), b.providerBSandbox(deps), c.providerCSandbox(deps), d.providerDSandbox(deps), e.providerESandbox(deps)];
}

/** The adapters of the flight providers whose systems are configured (or sandboxed). */
function flightAdapters(config: Config, providers: ProviderCatalog, clock: Clock): FlightProvider[] {
  const adapters: FlightProvider[] = [];
  if (config.providerA) {
    adapters.push(new ProviderAAdapter({ baseUrl: config.providerA.url, token: config.providerA.token, capabilities: providers.capabilities('provider_a'), clock }));
  }
  if (config.providerB) {
    adapters.push(new ProviderBAdapter({ baseUrl: config.providerB.url, token: config.providerB.token, capabilities: providers.capabilities('provider_b'), clock }));
  }
  if (config.providerC) {
    adapters.push(new ProviderCAdapter({ baseUrl: config.providerC.url, token: config.providerC.token, capabilities: providers.capabilities('provider_c'), clock }));
  }
  if (config.providerD) {
    adapters.push(new ProviderDAdapter({ baseUrl: config.providerD.url, token: config.providerD.token, capabilities: providers.capabilities('provider_d'), clock }));
  }
  if (config.providerE) {
    adapters.push(new ProviderEAdapter({ baseUrl: config.providerE.url, token: config.providerE.token, capabilities: providers.capabilities('provider_e'), clock }));
  }
  return adapters;
}
