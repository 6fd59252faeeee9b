/**
 * provider_a's part in the booking contract: its fixtures as a partner would post them (as its sandbox's
 * Flight Offers Search serves them today: flights weeks ahead, still ticketable), normalized with its
 * normalizer, steered by the first segment's flight number (magic-values.ts). The refundable family fare
 * (CDG–DXB, SAVER: refund less a 100.00 penalty) takes every path but the non-refundable one, which books
 * the BASIC London–Paris return. On `normal` the adult and the child get seats from the adapter's seat
 * maps (one chargeable); the lap infant has none.
 */
import type { OrderPassenger, OrderRequest } from '../../core/flights/flight-provider.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../core/money/money.js';
import { ProviderAAdapter } from '../../providers/flights/provider-a/adapter.js';
import { MAGIC_FLIGHT_NUMBERS, MAGIC_INVALID_LAST_NAME } from '../../providers/flights/provider-a/magic-values.js';
import { providerAOffers } from '../../providers/flights/provider-a/normalizer.js';
import { datedFixture } from '../../providers/flights/provider-a/sandbox.js';
import type { RunningService } from '../helpers/service.js';
import { sandboxUrl, type BookingCase, type BookingPath } from './case.js';

const FLIGHTS: Partial<Record<BookingPath, string>> = {
  soldOut: MAGIC_FLIGHT_NUMBERS.soldOut,
  priceChangedAtBooking: MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking,
  providerError: MAGIC_FLIGHT_NUMBERS.systemError,
  slow: MAGIC_FLIGHT_NUMBERS.slow,
};

const adapterOf = (running: RunningService, capabilities = running.service.providers.capabilities('provider_a')) =>
  new ProviderAAdapter({ baseUrl: sandboxUrl(running, 'provider_a'), token: 'amadeus_test_contract', capabilities, clock: { now: () => new Date() } });

export const bookingCase: BookingCase = {
  providerId: 'provider_a',
  adapter: (running, capabilities) => adapterOf(running, capabilities),
  async request(running, path, reference, type) {
    const native = providerANative(path === 'nonRefundable' ? 'lhr-cdg-return-gbp' : 'cdg-dxb-family-eur', FLIGHTS[path]);
    const { offer } = providerAOffers.normalize(native, new Date());
    const seats = path === 'normal' ? await chooseSeats(running, native, offer.id, offer.total_currency) : [];
    const currency = offer.total_currency;
    const amount = fromMinorUnits(
      seats.reduce((sum, seat) => sum + toMinorUnits(seat.price ?? '0', currency), toMinorUnits(offer.total_amount, currency)),
      currency,
    );
    return {
      reference,
      raw: native,
      offer,
      type,
      passengers: offer.passengers.map((passenger, index) => traveler(passenger.id, passenger.type, index === 0 && path === 'invalidPassenger')),
      contact: { email: 'ada@example.com', phoneNumber: '+447700900123', firstName: 'Ada', lastName: 'Lovelace', title: 'ms' },
      seats,
      services: [],
      amount,
      currency,
    } satisfies OrderRequest;
  },
};

/** A fixture as the sandbox serves it today, optionally on a magic flight number (as a partner edits it). */
export function providerANative(name: string, flight?: string): Record<string, unknown> {
  const native = datedFixture(name, new Date());
  if (flight) (native.itineraries[0]?.segments[0] as { number: string }).number = flight;
  return native;
}

/** From the first segment's seat map, economy seats for every traveler who has a seat: a chargeable one first. */
export async function chooseSeats(running: RunningService, native: Record<string, unknown>, offerId: string, currency: string): Promise<OrderRequest['seats']> {
  const [map] = await adapterOf(running).seatMaps(native, offerId);
  if (!map) throw new Error('provider_a gave no seat map');
  const free = Object.values(map.seat_map).filter((seat) => seat.is_available && Number(seat.row) >= 30);
  const charged = free.find((seat) => map.pricing[seat.seat_number]);
  const plain = free.find((seat) => !map.pricing[seat.seat_number]);
  const travelers = ((native as { travelerPricings: { travelerId: string; travelerType: string }[] }).travelerPricings ?? []).filter((item) => item.travelerType !== 'HELD_INFANT');
  return travelers.map((item, index) => {
    const seat = index === 0 ? charged : plain;
    if (!seat) throw new Error('no free seat to choose');
    const price = map.pricing[seat.seat_number];
    return { segmentId: map.segment_id, providerPassengerId: item.travelerId, seatNumber: seat.seat_number, price: price ? toDecimalString(price.amount, currency) : null };
  });
}

/** A birthday `years` before today: a child stays a child, an infant an infant, whatever day the tests run. */
const bornYearsAgo = (years: number) => new Date(Date.now() - years * 365.25 * 86_400_000).toISOString().slice(0, 10);

const PEOPLE = {
  adult: { firstName: 'Ada', bornOn: '1985-12-10', gender: 'female' },
  child: { firstName: 'Byron', bornOn: bornYearsAgo(7), gender: 'male' },
  infant_without_seat: { firstName: 'Ida', bornOn: bornYearsAgo(0.75), gender: 'female' },
} as const;

export function traveler(id: string, type: OrderPassenger['type'], invalid = false): OrderPassenger {
  const person = PEOPLE[type];
  return {
    providerPassengerId: id,
    type,
    title: null,
    firstName: person.firstName,
    middleName: null,
    lastName: invalid ? MAGIC_INVALID_LAST_NAME : 'Lovelace',
    bornOn: person.bornOn,
    gender: person.gender,
    email: type === 'adult' ? 'ada@example.com' : null,
    phoneNumber: type === 'adult' ? '+447700900123' : null,
    knownTravelerNumber: null,
    identityDocuments: [{ type: 'passport', uniqueIdentifier: `X${id}234567Q`, issuingCountryCode: 'GB', expiresOn: '2031-01-01' }],
  };
}
