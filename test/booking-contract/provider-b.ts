/**
 * provider_b in the booking contract: offers as a partner gets them from its API (`GET /air/offers/{id}`),
 * normalized by its normalizer; the refundable LHR–CDG fare (two adults, a bag and a seat each) for the
 * normal path, the non-refundable LHR–JFK fare, and the magic offers and names of its sandbox.
 */
import type { OrderPassenger, OrderRequest } from '../../core/flights/flight-provider.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../core/money/money.js';
import { ProviderBAdapter } from '../../providers/flights/provider-b/adapter.js';
import { providerBOffers } from '../../providers/flights/provider-b/normalizer.js';
import { MAGIC_OFFERS } from '../../providers/flights/provider-b/sandbox.js';
import { jsonOf } from '../helpers/http.js';
import type { RunningService } from '../helpers/service.js';
import { sandboxUrl, type BookingCase, type BookingPath } from './case.js';

const PROVIDER_ID = 'provider_b';
export const REFUNDABLE_OFFER = 'off_0000AuR3BA304FlexGbp01';
export const NON_REFUNDABLE_OFFER = 'off_0000AuPyAJY1KPrmYbBxIm';

const OFFERS: Record<BookingPath, string> = {
  normal: REFUNDABLE_OFFER,
  nonRefundable: NON_REFUNDABLE_OFFER,
  invalidPassenger: REFUNDABLE_OFFER,
  soldOut: MAGIC_OFFERS.soldOut,
  priceChangedAtBooking: MAGIC_OFFERS.priceChangeAtBooking,
  providerError: MAGIC_OFFERS.error,
  slow: MAGIC_OFFERS.slow,
};

const adapterFor = (running: RunningService, capabilities = running.service.providers.capabilities(PROVIDER_ID)) =>
  new ProviderBAdapter({ baseUrl: sandboxUrl(running, PROVIDER_ID), token: 'duffel_test_contract', capabilities, clock: { now: () => new Date() } });

/** The native offer as provider_b's API serves it to a partner. */
export async function nativeOffer(running: RunningService, id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandboxUrl(running, PROVIDER_ID)}/air/offers/${id}`, { headers: { authorization: 'Bearer duffel_test_partner', 'duffel-version': 'v2' } });
  return (await jsonOf(response)).data;
}

const NAMES = [
  ['Ada', 'Lovelace', 'female'],
  ['Charles', 'Babbage', 'male'],
  ['Mary', 'Somerville', 'female'],
] as const;

/** Builds the order request for `offerId` the way a partner would, with `lastName` for the first passenger. */
export async function orderRequest(
  running: RunningService,
  offerId: string,
  reference: string,
  type: 'instant' | 'hold',
  options: { lastName?: string; extras?: boolean } = {},
): Promise<OrderRequest> {
  const raw = await nativeOffer(running, offerId);
  const { offer } = providerBOffers.normalize(raw, new Date());
  const currency = offer.total_currency;
  const passengers: OrderPassenger[] = offer.passengers.map((passenger, index) => {
    const [firstName, lastName, gender] = NAMES[index % NAMES.length] as (typeof NAMES)[number];
    return {
      providerPassengerId: passenger.id,
      type: passenger.type,
      title: null,
      firstName,
      middleName: null,
      lastName: index === 0 && options.lastName ? options.lastName : lastName,
      bornOn: '1985-12-10',
      gender,
      email: null,
      phoneNumber: null,
      knownTravelerNumber: null,
      identityDocuments: [{ type: 'passport', uniqueIdentifier: `5${index}1234567`, issuingCountryCode: 'GB', expiresOn: '2034-01-31' }],
    };
  });
  const seats: OrderRequest['seats'] = [];
  const services: OrderRequest['services'] = [];
  if (options.extras) {
    // A seat for each passenger from the seat maps (a priced front-row one where there is one), and the first bag.
    for (const seatMap of await adapterFor(running).seatMaps(raw, offer.id)) {
      const free = Object.values(seatMap.seat_map).filter((seat) => seat.is_available);
      const ordered = [...free.filter((seat) => seatMap.pricing[seat.seat_number]), ...free.filter((seat) => !seatMap.pricing[seat.seat_number])];
      passengers.forEach((passenger, index) => {
        const seat = ordered[index];
        if (!seat) return;
        const price = seatMap.pricing[seat.seat_number];
        seats.push({ segmentId: seatMap.segment_id, providerPassengerId: passenger.providerPassengerId, seatNumber: seat.seat_number, price: price ? toDecimalString(price.amount, price.currency) : null });
      });
    }
    const bag = offer.available_services?.find((service) => service.type === 'baggage');
    if (bag) services.push({ id: bag.id, quantity: 1 });
  }
  const extras = [
    ...seats.map((seat) => seat.price ?? '0'),
    ...services.map(({ id, quantity }) => {
      const service = offer.available_services?.find((item) => item.id === id);
      return fromMinorUnits(toMinorUnits(service?.total_amount ?? '0', currency) * BigInt(quantity), currency);
    }),
  ];
  const amount = fromMinorUnits(extras.reduce((sum, item) => sum + toMinorUnits(item, currency), toMinorUnits(offer.total_amount, currency)), currency);
  return {
    reference,
    raw,
    offer,
    type,
    passengers,
    contact: { email: 'ada@example.com', phoneNumber: '+442080160508', firstName: 'Ada', lastName: 'Lovelace', title: null },
    seats,
    services,
    amount,
    currency,
  };
}

export const bookingCase: BookingCase = {
  providerId: PROVIDER_ID,
  adapter: (running, capabilities) => adapterFor(running, capabilities),
  request: (running, path, reference, type) =>
    orderRequest(running, OFFERS[path], reference, type, { extras: path === 'normal', ...(path === 'invalidPassenger' ? { lastName: 'R2D2' } : {}) }),
};
