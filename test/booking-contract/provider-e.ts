/**
 * provider_e's part in the booking contract: its adapter against its sandbox, and order requests built
 * from the native offers its sandbox serves (GET /v3.0/flights/offers/{id}, as a partner would hold them),
 * normalized with its normalizer. The normal path books the EK76 CDG–DXB family fare (refundable less a
 * penalty) with a bag and seats from the adapter's seat maps; the magic offers (the BA117 LHR–JFK fare,
 * non-refundable, under another id) and the magic last name steer the rest.
 */
import type { OrderPassenger, OrderRequest } from '../../core/flights/flight-provider.js';
import type { Offer } from '../../core/flights/offer-schemas.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../core/money/money.js';
import { ProviderEAdapter } from '../../providers/flights/provider-e/adapter.js';
import { providerEOffers } from '../../providers/flights/provider-e/normalizer.js';
import { MAGIC_LAST_NAME, MAGIC_OFFERS } from '../../providers/flights/provider-e/sandbox.js';
import { jsonOf } from '../helpers/http.js';
import type { RunningService } from '../helpers/service.js';
import { sandboxUrl, type BookingCase, type BookingPath } from './case.js';

const LHR_JFK = 'hKFzrWJhMTE3LWxoci1qZmuhZKgyMDI2MDYwMaFjo0dCUKFmqE9MTk5DMFMx';
const CDG_DXB = 'hKFzrGVrNzYtY2RnLWR4YqFkqDIwMjYwNjE1oWOjRVVSoWaoVExYU0ZGUjE';

const OFFERS: Record<BookingPath, string> = {
  normal: CDG_DXB,
  nonRefundable: LHR_JFK,
  invalidPassenger: LHR_JFK,
  soldOut: MAGIC_OFFERS.soldOut,
  priceChangedAtBooking: MAGIC_OFFERS.priceChangeAtBooking,
  providerError: MAGIC_OFFERS.error,
  slow: MAGIC_OFFERS.slowAtBooking,
};

const adapterFor = (running: RunningService, capabilities = running.service.providers.capabilities('provider_e')) =>
  new ProviderEAdapter({ baseUrl: sandboxUrl(running, 'provider_e'), token: 'liteapi_test_contract', capabilities, clock: { now: () => new Date() } });

export const bookingCase: BookingCase = {
  providerId: 'provider_e',
  adapter: (running, capabilities) => adapterFor(running, capabilities),
  async request(running, path, reference, type) {
    const response = await fetch(`${sandboxUrl(running, 'provider_e')}/v3.0/flights/offers/${encodeURIComponent(OFFERS[path])}`, { headers: { 'x-api-key': 'liteapi_test_partner' } });
    const raw = (await jsonOf(response)).data.offer as Record<string, unknown>;
    const { offer } = providerEOffers.normalize(raw, new Date());
    const seats = path === 'normal' ? await chooseSeats(running, raw, offer) : [];
    // A bag for the first passenger where the offer sells one for them.
    const bag = path === 'normal' ? offer.available_services?.find((service) => service.type === 'baggage' && service.passenger_ids.includes(offer.passengers[0]?.id ?? '')) : undefined;
    const services = bag ? [{ id: bag.id, quantity: 1 }] : [];
    const currency = offer.total_currency;
    const extras = [...seats.map((seat) => seat.price ?? '0'), ...(bag ? [bag.total_amount] : [])];
    const amount = fromMinorUnits(extras.reduce((sum, price) => sum + toMinorUnits(price, currency), toMinorUnits(offer.total_amount, currency)), currency);
    return {
      reference,
      raw,
      offer,
      type,
      passengers: offer.passengers.map((passenger, index) => traveller(passenger, index, path === 'invalidPassenger' ? MAGIC_LAST_NAME : 'Lovelace')),
      contact: { email: 'ada@example.com', phoneNumber: '+447700900123', firstName: 'Ada', lastName: 'Lovelace', title: 'ms' },
      seats,
      services,
      amount,
      currency,
    } satisfies OrderRequest;
  },
};

/** For every seated passenger, on every segment: a priced seat for the first, free ones for the others. */
async function chooseSeats(running: RunningService, raw: Record<string, unknown>, offer: Offer): Promise<OrderRequest['seats']> {
  const seated = offer.passengers.filter((passenger) => passenger.type !== 'infant_without_seat');
  const chosen: OrderRequest['seats'] = [];
  for (const map of await adapterFor(running).seatMaps(raw, offer.id)) {
    const available = Object.values(map.seat_map).filter((seat) => seat.is_available);
    const priced = available.filter((seat) => map.pricing[seat.seat_number]);
    const free = available.filter((seat) => !map.pricing[seat.seat_number]);
    seated.forEach((passenger, index) => {
      const seat = (index === 0 ? priced[0] : free[index]) ?? free[0];
      if (!seat) return;
      const price = map.pricing[seat.seat_number];
      chosen.push({ segmentId: map.segment_id, providerPassengerId: passenger.id, seatNumber: seat.seat_number, price: price ? toDecimalString(price.amount, price.currency) : null });
    });
  }
  return chosen;
}

/** A traveller of the passenger's type, born long enough ago (or recently enough) to be one. */
function traveller(passenger: Offer['passengers'][number], index: number, lastName: string): OrderPassenger {
  const yearsOld = { adult: 40, child: 8, infant_without_seat: 1 }[passenger.type as 'adult' | 'child' | 'infant_without_seat'];
  const born = new Date(Date.now() - yearsOld * 365.25 * 86_400_000).toISOString().slice(0, 10);
  return {
    providerPassengerId: passenger.id,
    type: passenger.type as OrderPassenger['type'],
    title: null,
    firstName: ['Ada', 'Byron', 'Allegra'][index] ?? 'Ada',
    middleName: null,
    lastName,
    bornOn: born,
    gender: index === 1 ? 'male' : 'female',
    email: null,
    phoneNumber: null,
    knownTravelerNumber: null,
    identityDocuments: [{ type: 'passport', uniqueIdentifier: `53340123${index}`, issuingCountryCode: 'GB', expiresOn: '2031-04-30' }],
  };
}
