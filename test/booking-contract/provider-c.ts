/**
 * provider_c in the booking contract: its NDC sandbox, steered by the flight number of the offer's first
 * segment (sandbox-magic.ts) and by a surname. The offer is the fixture as the sandbox serves it today
 * (datedFixture): flights weeks ahead, not yet expired, its payment time limit a day ahead. A
 * non-refundable fare is the same offer whose CancelRestrictions allow no cancelling (no magic value: the
 * fare's own condition).
 */
import type { OrderPassenger, OrderRequest } from '../../core/flights/flight-provider.js';
import type { Offer } from '../../core/flights/offer-schemas.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../core/money/money.js';
import { ProviderCAdapter } from '../../providers/flights/provider-c/adapter.js';
import { providerCOffers } from '../../providers/flights/provider-c/normalizer.js';
import { datedFixture, MAGIC_FLIGHT_NUMBERS, MAGIC_SURNAME_INVALID } from '../../providers/flights/provider-c/sandbox.js';
import type { Json } from '../helpers/http.js';
import type { RunningService } from '../helpers/service.js';
import { sandboxUrl, type BookingCase, type BookingPath } from './case.js';

type Native = Json;

const FLIGHTS: Partial<Record<BookingPath, string>> = {
  soldOut: MAGIC_FLIGHT_NUMBERS.soldOut,
  priceChangedAtBooking: MAGIC_FLIGHT_NUMBERS.priceChangeAtBooking,
  providerError: MAGIC_FLIGHT_NUMBERS.systemError,
  slow: MAGIC_FLIGHT_NUMBERS.slow,
};

/** Names and birth dates that fit each passenger type on the travel day (the infant's is set from that day). */
const PEOPLE: Record<string, { firstName: string; lastName: string; bornOn?: string; gender: 'male' | 'female' }> = {
  ADULT_1: { firstName: 'Ada', lastName: 'Lovelace', bornOn: '1985-04-12', gender: 'female' },
  ADULT_2: { firstName: 'Charles', lastName: 'Babbage', bornOn: '1979-12-26', gender: 'male' },
  CHILD_1: { firstName: 'Byron', lastName: 'Lovelace', bornOn: '2018-01-01', gender: 'male' },
  INFANT_1: { firstName: 'Annabella', lastName: 'Lovelace', gender: 'female' },
};

const adapterOf = (running: RunningService, capabilities = running.service.providers.capabilities('provider_c')) =>
  new ProviderCAdapter({ baseUrl: sandboxUrl(running, 'provider_c'), token: 'ndc_test_contract', capabilities, clock: { now: () => new Date() } });

/** The fixture as the sandbox serves it now: valid for 30 minutes, payable for a day. */
export function providerCNative(path: BookingPath): Native {
  const native: Native = datedFixture('lhr-jfk-family-gbp', new Date());
  for (const item of native.OfferItem) {
    if (path === 'nonRefundable') for (const component of item.FareDetail.FareComponent) component.CancelRestrictions = { AllowedModificationInd: false };
  }
  const flight = FLIGHTS[path];
  if (flight) native.DataLists.DatedMarketingSegmentList[0].MarketingCarrierFlightNumberText = flight;
  return native;
}

export function providerCPassengers(offer: Offer, invalid = false): OrderPassenger[] {
  // Under two on the travel day, whichever day the calendar moved the flight to: born 365 days before it.
  const travelDay = Date.parse(`${offer.slices[0]?.segments[0]?.departing_at.slice(0, 10)}T00:00:00Z`);
  const infantBornOn = new Date(travelDay - 365 * 86_400_000).toISOString().slice(0, 10);
  return offer.passengers.map((passenger, index) => {
    const person = PEOPLE[passenger.id] ?? { firstName: 'Alex', lastName: 'Traveller', bornOn: '1990-01-01', gender: 'male' as const };
    return {
      providerPassengerId: passenger.id,
      type: passenger.type,
      title: null,
      firstName: person.firstName,
      middleName: null,
      lastName: invalid && index === 0 ? MAGIC_SURNAME_INVALID : person.lastName,
      bornOn: person.bornOn ?? infantBornOn,
      gender: person.gender,
      email: null,
      phoneNumber: null,
      knownTravelerNumber: null,
      identityDocuments: [],
    };
  });
}

/** A seat with a price for the first adult and a free one for the child, from the adapter's own seat maps. */
async function chooseSeats(running: RunningService, native: Native, offer: Offer): Promise<OrderRequest['seats']> {
  const maps = await adapterOf(running).seatMaps(native, offer.id);
  const map = maps[0];
  if (!map) return [];
  const free = Object.values(map.seat_map).filter((seat) => seat.is_available);
  const priced = free.find((seat) => map.pricing[seat.seat_number]);
  const unpriced = free.find((seat) => !map.pricing[seat.seat_number]);
  const seats: OrderRequest['seats'] = [];
  if (priced) seats.push({ segmentId: map.segment_id, providerPassengerId: 'ADULT_1', seatNumber: priced.seat_number, price: toDecimalString(map.pricing[priced.seat_number]?.amount ?? 0, offer.total_currency) });
  if (unpriced) seats.push({ segmentId: map.segment_id, providerPassengerId: 'CHILD_1', seatNumber: unpriced.seat_number, price: null });
  return seats;
}

export const bookingCase: BookingCase = {
  providerId: 'provider_c',
  adapter: (running, capabilities) => adapterOf(running, capabilities),
  async request(running, path, reference, type) {
    const native = providerCNative(path);
    const { offer } = providerCOffers.normalize(native, new Date());
    const seats = path === 'normal' ? await chooseSeats(running, native, offer) : [];
    const currency = offer.total_currency;
    const total = seats.reduce((sum, seat) => sum + (seat.price ? toMinorUnits(seat.price, currency) : 0n), toMinorUnits(offer.total_amount, currency));
    return {
      reference,
      raw: native,
      offer,
      type,
      passengers: providerCPassengers(offer, path === 'invalidPassenger'),
      contact: { email: 'ada@example.com', phoneNumber: '+447700900123', firstName: 'Ada', lastName: 'Lovelace', title: null },
      seats,
      services: [],
      amount: fromMinorUnits(total, currency),
      currency,
    };
  },
};
