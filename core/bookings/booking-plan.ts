/**
 * A booking request checked against its offer, before anything is stored or charged (decisions §4): the
 * passengers are the offer's (each once, of its type, within the provider's limit, with documents where
 * the offer needs them), seats are from the offer's seat maps and free, services are the offer's, a hold
 * only where the provider holds, and the currency is the offer's. What comes out is everything the saga
 * needs: the order's passengers, seats and services, and the exact amount in minor units.
 */
import { UnprocessableError, ValidationError, type FieldError } from '../errors.js';
import type { OrderPassenger } from '../flights/flight-provider.js';
import type { BookableOffer } from '../flights/offers.js';
import type { Offer, SeatMap } from '../flights/offer-schemas.js';
import type { ProviderCapabilities } from '../flights/schemas.js';
import { boundProblem, fromMinorUnits, maxAmount, toDecimalString, toMinorUnits, withinBound } from '../money/money.js';
import { travelerTypeOn } from '../passengers/traveler-type.js';
import type { BookingPassengerInput, CreateBookingRequest } from './schemas.js';

export interface PlannedPassenger extends OrderPassenger {
  userPassengerId: string | null;
  fareBasisCode: string | null;
  nationality: string | null;
  position: number;
}

export interface PlannedSeat {
  segmentId: string;
  providerPassengerId: string;
  seatNumber: string;
  row: string;
  column: string;
  /** Decimal string in the offer's currency; null when free. */
  price: string | null;
}

export interface BookingPlan {
  passengers: PlannedPassenger[];
  seats: PlannedSeat[];
  services: { id: string; quantity: number }[];
  amountMinor: bigint;
  /** The same amount as a decimal string in `currency`: what the provider is paid. */
  amount: string;
  currency: string;
  orderType: 'instant' | 'hold';
}

const OFFER_TYPE_OF = { adult: 'adult', child: 'child', infant: 'infant_without_seat' } as const;

export function planBooking(input: {
  request: CreateBookingRequest;
  offer: BookableOffer;
  capabilities: ProviderCapabilities;
  providerId: string;
  /** The offer's seat maps, when seats were chosen. */
  seatMaps: SeatMap[] | undefined;
}): BookingPlan {
  const { request, capabilities, providerId } = input;
  const offer = input.offer.offer;
  const orderType = request.order_type ?? 'instant';
  if (orderType === 'hold' && !capabilities.supports_hold_booking) {
    throw new UnprocessableError(`${providerId} does not hold orders (its capabilities say supports_hold_booking: false): book with order_type instant.`, 'hold_not_supported');
  }
  if ((request.seat_selections?.length ?? 0) > 0 && !capabilities.supports_seat_selection) {
    throw new UnprocessableError(`${providerId} does not sell seats (supports_seat_selection: false): book without seat_selections.`, 'seat_selection_not_supported');
  }
  if ((request.services?.length ?? 0) > 0 && !capabilities.supports_bag_selection) {
    throw new UnprocessableError(`${providerId} does not sell extras with the order (supports_bag_selection: false): book without services.`, 'services_not_supported');
  }
  const problems: FieldError[] = [];
  if (request.currency !== offer.total_currency) {
    problems.push({ field: 'currency', rule: 'offer_currency', message: `the offer is priced in ${offer.total_currency}: send currency ${offer.total_currency}` });
  }
  const passengers = planPassengers(request, input.offer, capabilities, problems);
  const seats = planSeats(request, offer, passengers, input.seatMaps ?? [], problems);
  const services = planServices(request, offer, problems);
  if (problems.length > 0) throw new ValidationError(problems);

  const currency = offer.total_currency;
  const seatsMinor = seats.reduce((sum, seat) => sum + (seat.price === null ? 0n : toMinorUnits(seat.price, currency)), 0n);
  const amountMinor = toMinorUnits(offer.total_amount, currency) + services.totalMinor + seatsMinor;
  checkTotal(amountMinor, toMinorUnits(offer.total_amount, currency), services.totalMinor, currency);
  return { passengers, seats, services: services.chosen, amountMinor, amount: fromMinorUnits(amountMinor, currency), currency, orderType };
}

function planPassengers(request: CreateBookingRequest, bookable: BookableOffer, capabilities: ProviderCapabilities, problems: FieldError[]): PlannedPassenger[] {
  const offer = bookable.offer;
  if (request.passengers.length > capabilities.max_passengers) {
    problems.push({ field: 'passengers', rule: 'max_passengers', message: `the provider books at most ${capabilities.max_passengers} passengers at once` });
  }
  if (request.passengers.length !== offer.passengers.length) {
    problems.push({ field: 'passengers', rule: 'offer_passengers', message: `the offer is for ${offer.passengers.length} passengers (${offer.passengers.map((item) => item.id).join(', ')}): send each of them once` });
    return [];
  }
  const named = request.passengers.map((passenger) => passenger.provider_passenger_id || passenger.id || undefined);
  const byPosition = named.every((id) => id === undefined);
  const departure = offer.slices[0]?.segments[0]?.departing_at.slice(0, 10) ?? new Date().toISOString().slice(0, 10);
  const seen = new Set<string>();
  const planned: PlannedPassenger[] = [];
  request.passengers.forEach((passenger, index) => {
    const field = `passengers.${index}`;
    const offerPassenger = byPosition ? offer.passengers[index] : offer.passengers.find((item) => item.id === named[index]);
    if (!offerPassenger) {
      problems.push({
        field: `${field}.provider_passenger_id`,
        rule: 'offer_passenger',
        message: `name a passenger of the offer (${offer.passengers.map((item) => item.id).join(', ')}) in provider_passenger_id, or leave every one out to take them in order`,
      });
      return;
    }
    if (seen.has(offerPassenger.id)) problems.push({ field: `${field}.provider_passenger_id`, rule: 'unique', message: `${offerPassenger.id} appears twice: each passenger once` });
    seen.add(offerPassenger.id);
    const ageType = travelerTypeOn(passenger.born_on, departure);
    if (OFFER_TYPE_OF[ageType] !== offerPassenger.type) {
      problems.push({ field: `${field}.born_on`, rule: 'passenger_type', message: `${offerPassenger.id} is an ${offerPassenger.type} passenger of the offer; born on ${passenger.born_on} makes them ${ageType} at departure (${departure})` });
    }
    if (passenger.type !== undefined && passenger.type !== offerPassenger.type) {
      problems.push({ field: `${field}.type`, rule: 'passenger_type', message: `${offerPassenger.id} is ${offerPassenger.type} in the offer` });
    }
    if (passenger.traveler_type !== undefined && OFFER_TYPE_OF[passenger.traveler_type] !== offerPassenger.type) {
      problems.push({ field: `${field}.traveler_type`, rule: 'passenger_type', message: `${offerPassenger.id} is ${offerPassenger.type} in the offer` });
    }
    if (offer.passenger_identity_documents_required && !(passenger.identity_documents ?? []).some((document) => document.type === 'passport')) {
      problems.push({ field: `${field}.identity_documents`, rule: 'required', message: 'the airline needs a passport for every passenger of this offer: send identity_documents with a passport' });
    }
    for (const [documentIndex, document] of (passenger.identity_documents ?? []).entries()) {
      if (document.expires_on < departure) {
        problems.push({ field: `${field}.identity_documents.${documentIndex}.expires_on`, rule: 'valid_at_departure', message: `the document expires before departure (${departure})` });
      }
    }
    planned.push(toPlanned(passenger, offerPassenger.id, offerPassenger.type, bookable.savedPassengers.get(offerPassenger.id) ?? null, fareBasisOf(offer, offerPassenger.id), planned.length));
  });
  return planned;
}

function toPlanned(
  passenger: BookingPassengerInput,
  providerPassengerId: string,
  type: PlannedPassenger['type'],
  userPassengerId: string | null,
  fareBasisCode: string | null,
  position: number,
): PlannedPassenger {
  return {
    providerPassengerId,
    type,
    title: passenger.title ?? null,
    firstName: passenger.first_name,
    middleName: passenger.middle_name ?? null,
    lastName: passenger.last_name,
    bornOn: passenger.born_on,
    gender: passenger.gender ?? null,
    email: passenger.email ?? null,
    phoneNumber: passenger.phone_number ?? null,
    knownTravelerNumber: passenger.known_traveler_number ?? null,
    identityDocuments: (passenger.identity_documents ?? []).map((document) => ({
      type: document.type,
      uniqueIdentifier: document.unique_identifier,
      issuingCountryCode: document.issuing_country_code,
      expiresOn: document.expires_on,
    })),
    userPassengerId,
    fareBasisCode,
    nationality: null,
    position,
  };
}

function fareBasisOf(offer: Offer, providerPassengerId: string): string | null {
  for (const slice of offer.slices) {
    for (const segment of slice.segments) {
      const found = segment.passengers.find((item) => item.passenger_id === providerPassengerId)?.fare_basis_code;
      if (found) return found;
    }
  }
  return null;
}

function planSeats(request: CreateBookingRequest, offer: Offer, passengers: PlannedPassenger[], seatMaps: SeatMap[], problems: FieldError[]): PlannedSeat[] {
  const seats: PlannedSeat[] = [];
  const taken = new Set<string>();
  (request.seat_selections ?? []).forEach((selection, index) => {
    const field = `seat_selections.${index}`;
    const map = seatMaps.find((item) => item.segment_id === selection.segment_id);
    const passenger = passengers.find((item) => item.providerPassengerId === selection.passenger_id);
    if (!map) {
      problems.push({ field: `${field}.segment_id`, rule: 'offer_segment', message: `no seat map of the offer has segment ${selection.segment_id}: read them with getOfferSeatMaps (get_seat_map)` });
      return;
    }
    if (!passenger) {
      problems.push({ field: `${field}.passenger_id`, rule: 'offer_passenger', message: `${selection.passenger_id} is not a passenger of this booking` });
      return;
    }
    if (passenger.type === 'infant_without_seat') problems.push({ field: `${field}.passenger_id`, rule: 'has_seat', message: 'an infant travels on a lap and has no seat of their own' });
    const seat = map.seat_map[selection.seat_number];
    if (!seat?.is_available) {
      problems.push({ field: `${field}.seat_number`, rule: 'available_seat', message: `seat ${selection.seat_number} is not available on segment ${selection.segment_id}: choose one whose is_available is true` });
      return;
    }
    const perPassenger = `${selection.segment_id}/${selection.passenger_id}`;
    const perSeat = `${selection.segment_id}/${selection.seat_number}`;
    if (taken.has(perPassenger) || taken.has(perSeat)) {
      problems.push({ field, rule: 'unique', message: 'one seat per passenger and segment, and each seat once' });
      return;
    }
    taken.add(perPassenger).add(perSeat);
    const price = map.pricing[selection.seat_number];
    // The seat map is the provider's answer: an absurd price is refused, not stored (numeric(14,3)).
    const priceProblem = price && price.amount > 0 ? boundProblem(toMinorUnits(price.amount, offer.total_currency), offer.total_currency, `${field}.seat_number`) : undefined;
    if (priceProblem) {
      problems.push({ ...priceProblem, message: `seat ${selection.seat_number} is priced ${price?.amount} ${offer.total_currency} in the seat map, beyond the largest amount taken (${maxAmount(offer.total_currency)}): choose another seat` });
      return;
    }
    seats.push({
      segmentId: selection.segment_id,
      providerPassengerId: selection.passenger_id,
      seatNumber: selection.seat_number,
      row: seat.row,
      column: seat.column,
      price: price && price.amount > 0 ? toDecimalString(price.amount, offer.total_currency) : null,
    });
  });
  return seats;
}

function planServices(request: CreateBookingRequest, offer: Offer, problems: FieldError[]): { chosen: { id: string; quantity: number }[]; totalMinor: bigint } {
  let totalMinor = 0n;
  const chosen: { id: string; quantity: number }[] = [];
  (request.services ?? []).forEach((selection, index) => {
    const service = offer.available_services?.find((item) => item.id === selection.id);
    if (!service) {
      problems.push({ field: `services.${index}.id`, rule: 'offer_service', message: `${selection.id} is not one of the offer's available_services (get_bags lists them)` });
      return;
    }
    if (chosen.some((item) => item.id === selection.id)) {
      problems.push({ field: `services.${index}.id`, rule: 'unique', message: 'each service once, with its quantity' });
      return;
    }
    const maximum = service.maximum_quantity ?? 1;
    if (selection.quantity > maximum) problems.push({ field: `services.${index}.quantity`, rule: 'maximum_quantity', message: `at most ${maximum} of ${selection.id}` });
    if (service.total_currency !== offer.total_currency) {
      problems.push({ field: `services.${index}.id`, rule: 'offer_currency', message: `${selection.id} is priced in ${service.total_currency}, the offer in ${offer.total_currency}` });
      return;
    }
    totalMinor += toMinorUnits(service.total_amount, offer.total_currency) * BigInt(selection.quantity);
    chosen.push({ id: selection.id, quantity: selection.quantity });
  });
  return { chosen, totalMinor };
}

/**
 * The booking's total is held to the bound of every amount (core/money: MAX_WHOLE_DIGITS), so that its
 * minor units stay exact wherever it goes (the processor's Number, the booking's JSON total). Each part is
 * within it; their sum may not be. The field named is what took it over: the offer itself (one stored
 * before the bound), or the services, or the seats.
 */
function checkTotal(amountMinor: bigint, offerMinor: bigint, servicesMinor: bigint, currency: string): void {
  if (withinBound(amountMinor, currency)) return;
  const field = !withinBound(offerMinor, currency) ? 'offer_id' : !withinBound(offerMinor + servicesMinor, currency) ? 'services' : 'seat_selections';
  throw new ValidationError([
    {
      field,
      rule: 'max',
      message: `the booking's total would be ${fromMinorUnits(amountMinor, currency)} ${currency}, beyond the largest amount taken (${maxAmount(currency)} ${currency}): ${field === 'offer_id' ? 'this offer cannot be booked; ask the provider for a new one' : `book with fewer ${field === 'services' ? 'services' : 'paid seats'}`}`,
    },
  ]);
}
