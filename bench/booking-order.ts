/**
 * What every benchmark booking orders: one provider_b offer for its passengers, with passports, and no
 * seats or bags, so that the provider's part is one call (`POST /air/orders`, paid from the balance).
 * The CreateBookingRequest sent to the service and the native order sent straight to the sandbox are
 * both made from the same OrderRequest, so the two sides of the benchmark buy the same thing at the same
 * price; the native body is the adapter's own (orderBody), as the booking sends it.
 */
import type { OrderPassenger, OrderRequest } from '../core/flights/flight-provider.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { orderBody } from '../providers/flights/provider-b/order-map.js';

const NAMES = [
  ['Grace', 'Hopper', 'female'],
  ['Alan', 'Turing', 'male'],
] as const;

/** The order for `raw` (provider_b's own offer), with `reference` as our booking's id would be. */
export function benchOrder(raw: Record<string, unknown>, reference: string): OrderRequest {
  const { offer } = providerBOffers.normalize(raw, new Date());
  const passengers: OrderPassenger[] = offer.passengers.map((passenger, index) => {
    const [firstName, lastName, gender] = NAMES[index % NAMES.length] as (typeof NAMES)[number];
    return {
      providerPassengerId: passenger.id,
      type: passenger.type,
      title: null,
      firstName,
      middleName: null,
      lastName,
      bornOn: '1980-06-15',
      gender,
      email: null,
      phoneNumber: null,
      knownTravelerNumber: null,
      identityDocuments: [{ type: 'passport', uniqueIdentifier: `7${index}2468135`, issuingCountryCode: 'GB', expiresOn: '2035-03-31' }],
    };
  });
  return {
    reference,
    raw,
    offer,
    type: 'instant',
    passengers,
    contact: { email: 'grace@example.com', phoneNumber: '+442071838750', firstName: 'Grace', lastName: 'Hopper', title: null },
    seats: [],
    services: [],
    amount: offer.total_amount,
    currency: offer.total_currency,
  };
}

/** `POST /air/orders` as the booking's adapter sends it. */
export function nativeOrderBody(order: OrderRequest): unknown {
  return orderBody(order, []);
}
