/**
 * provider_d in the booking contract: offers from its own search (LHR to CDG, or to a magic destination
 * that steers the path), checked with check_flights as a partner's offer is when it is created, except
 * the sold-out one, whose check says so before any order could be placed. The normal path books a family
 * (an adult and a child) in GBP with one hold bag; provider_d sells no seats.
 */
import type { OrderPassenger, OrderRequest } from '../../core/flights/flight-provider.js';
import type { ProviderCapabilities } from '../../core/flights/schemas.js';
import { fromMinorUnits, toMinorUnits } from '../../core/money/money.js';
import { ProviderDAdapter } from '../../providers/flights/provider-d/adapter.js';
import { MAGIC_DESTINATIONS, MAGIC_INVALID_SURNAME } from '../../providers/flights/provider-d/catalogue.js';
import { providerDOffers } from '../../providers/flights/provider-d/normalizer.js';
import type { RunningService } from '../helpers/service.js';
import { sandboxUrl, type BookingCase, type BookingPath } from './case.js';

const DESTINATIONS: Record<BookingPath, string> = {
  normal: 'CDG',
  soldOut: MAGIC_DESTINATIONS.soldOut,
  invalidPassenger: 'CDG',
  priceChangedAtBooking: MAGIC_DESTINATIONS.priceChangeAtBooking,
  providerError: MAGIC_DESTINATIONS.errorAtBooking,
  slow: MAGIC_DESTINATIONS.slowAtBooking,
  nonRefundable: MAGIC_DESTINATIONS.nonRefundable,
};
/** The bag the normal path buys: one hold bag, as check_flights names its combination. */
const ONE_HOLD_BAG = 'hold_bag:0';

export const adapterOf = (running: RunningService, capabilities: ProviderCapabilities) =>
  new ProviderDAdapter({ baseUrl: sandboxUrl(running, 'provider_d'), token: running.config.providerD?.token ?? 'kiwi_test_contract', capabilities, clock: { now: () => new Date() } });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export const bookingCase: BookingCase = {
  providerId: 'provider_d',
  adapter: adapterOf,
  async request(running, path, reference, type) {
    const family = path === 'normal';
    // Sold out is said by the check itself: that offer could never have been created, so it is booked as searched.
    const raw = await searchedOffer(running, DESTINATIONS[path], { family, priced: path !== 'soldOut' });
    return orderRequest(raw, { reference, type, services: family ? [{ id: ONE_HOLD_BAG, quantity: 1 }] : [], invalidSurname: path === 'invalidPassenger' });
  },
};

/** provider_d's offer to `destination` as its search gives it, and checked by check_flights where `priced`. */
export async function searchedOffer(running: RunningService, destination: string, options: { family?: boolean; priced?: boolean } = {}): Promise<Record<string, unknown>> {
  const partner = adapterOf(running, running.service.providers.capabilities('provider_d'));
  const [hit] = await partner.search({
    origin: 'LHR',
    destination,
    departure_date: inDays(21),
    passengers: { adults: 1, children: options.family ? 1 : 0, infants: 0 },
    cabin_class: 'economy',
    currency: 'GBP',
    max_results: 5,
  });
  if (!hit) throw new Error(`provider_d's search found nothing to ${destination}`);
  return options.priced === false ? hit.native : ((await partner.price(hit.native)).offer.raw_offer as Record<string, unknown>);
}

/**
 * An order request for a native offer: normalized as the service stores it, every passenger of the
 * offer with a passport, and the amount the offer's total plus the chosen services.
 */
export function orderRequest(
  raw: Record<string, unknown>,
  options: { reference: string; type?: 'instant' | 'hold'; services?: { id: string; quantity: number }[]; invalidSurname?: boolean },
): OrderRequest {
  const { offer } = providerDOffers.normalize(raw, new Date());
  const services = options.services ?? [];
  const currency = offer.total_currency;
  const servicesTotal = services.reduce((sum, chosen) => {
    const service = offer.available_services?.find((item) => item.id === chosen.id);
    if (!service) throw new Error(`the offer sells no ${chosen.id}`);
    return sum + toMinorUnits(service.total_amount, currency) * BigInt(chosen.quantity);
  }, 0n);
  const passengers: OrderPassenger[] = offer.passengers.map((passenger, index) => ({
    providerPassengerId: passenger.id,
    type: passenger.type,
    title: passenger.type === 'adult' ? 'ms' : null,
    firstName: passenger.type === 'adult' ? 'Ada' : 'Byron',
    middleName: null,
    lastName: options.invalidSurname && index === 0 ? MAGIC_INVALID_SURNAME : 'Lovelace',
    bornOn: passenger.type === 'adult' ? '1985-12-10' : '2016-05-01',
    gender: passenger.type === 'adult' ? 'female' : 'male',
    email: null,
    phoneNumber: null,
    knownTravelerNumber: null,
    identityDocuments: [{ type: 'passport', uniqueIdentifier: `P${5550001 + index}`, issuingCountryCode: 'GB', expiresOn: '2034-06-30' }],
  }));
  return {
    reference: options.reference,
    raw,
    offer,
    type: options.type ?? 'instant',
    passengers,
    contact: { email: 'ada@example.com', phoneNumber: '+447700900123', firstName: 'Ada', lastName: 'Lovelace', title: 'ms' },
    seats: [],
    services,
    amount: fromMinorUnits(toMinorUnits(offer.total_amount, currency) + servicesTotal, currency),
    currency,
  };
}
