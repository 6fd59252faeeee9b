/**
 * Our order request in provider_d's words: save_booking's body. Its passengers are taken by position
 * (the offer's passenger ids are those positions), the first one is the booking's contact (its e-mail
 * and phone), titles are Mr or Ms only, and bags go as the check's hold-bag combinations, each for the
 * passengers it is bought for. `client_reference` is invented: Kiwi documents no client reference.
 */
import { ProviderRejectedError } from '../../../core/errors.js';
import type { OrderPassenger, OrderRequest } from '../../../core/flights/flight-provider.js';
import { combinationId } from './map.js';
import type { WireBagCombination, WireCheckFlights, WireOffer } from './wire.js';

const CATEGORIES = { adult: 'adult', child: 'child', infant_without_seat: 'infant' } as const;

export function saveBookingBody(request: OrderRequest, native: WireOffer, check: WireCheckFlights & { session_id: string }) {
  const passengers = [...request.passengers].sort((a, b) => Number(a.providerPassengerId) - Number(b.providerPassengerId));
  return {
    booking_token: (native.data[0] as WireOffer['data'][number]).booking_token,
    session_id: check.session_id,
    client_reference: request.reference,
    lang: 'en',
    locale: 'en',
    passengers: passengers.map((passenger, index) => nativePassenger(passenger, index === 0 ? request.contact : undefined)),
    baggage: baggageOf(request.services, check.baggage?.combinations.hold_bag ?? [], passengers),
  };
}

function nativePassenger(passenger: OrderPassenger, contact: OrderRequest['contact'] | undefined) {
  const document = passenger.identityDocuments.find((item) => item.type === 'passport') ?? passenger.identityDocuments[0];
  return {
    name: [passenger.firstName, passenger.middleName].filter(Boolean).join(' '),
    surname: passenger.lastName,
    title: titleOf(passenger),
    birthday: passenger.bornOn,
    category: CATEGORIES[passenger.type],
    nationality: document?.issuingCountryCode,
    cardno: document?.uniqueIdentifier,
    expiration: document?.expiresOn,
    // The first passenger is whom the provider writes to: the booking's contact, unless they have their own.
    email: passenger.email ?? contact?.email,
    phone: passenger.phoneNumber ?? contact?.phoneNumber,
  };
}

/** Mr or Ms, from the title or else the gender; none is left for the provider to refuse. */
function titleOf(passenger: OrderPassenger): 'Mr' | 'Ms' | undefined {
  const title = passenger.title?.toLowerCase().replace(/\.$/, '');
  if (title === 'mr') return 'Mr';
  if (title === 'ms' || title === 'mrs' || title === 'miss') return 'Ms';
  return passenger.gender === 'male' ? 'Mr' : passenger.gender === 'female' ? 'Ms' : undefined;
}

/**
 * Each chosen bag option is a hold-bag combination of the check, bought `quantity` times: once for each
 * of the next passengers with a seat who has none yet (infants carry no bags of their own).
 */
function baggageOf(services: OrderRequest['services'], combinations: WireBagCombination[], passengers: OrderPassenger[]) {
  const free = passengers.map((passenger, index) => ({ passenger, index })).filter(({ passenger }) => passenger.type !== 'infant_without_seat');
  return services.map((service) => {
    const combination = combinations.find((item) => combinationId(item) === service.id);
    const chosen = free.splice(0, service.quantity);
    if (!combination || chosen.length < service.quantity) {
      throw new ProviderRejectedError(
        `The bag option ${service.id} is not sold for this offer now, or not that many times: price the offer again and choose from its available_services.`,
        'service_not_available',
        'provider_d: the hold-bag combination is not offered',
      );
    }
    return { combination: { category: combination.category, indices: combination.indices }, passengers: chosen.map(({ index }) => index) };
  });
}
