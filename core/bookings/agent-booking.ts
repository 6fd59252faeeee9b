/**
 * create_booking's lookup (specification: Agent tool endpoint, "internal user/offer/payment lookup plus
 * createProviderBooking"). An agent names an offer and what the traveler chose; what it leaves out is
 * taken from the traveler's own records: the default card, the saved passengers matched to the offer's
 * passengers (saveOfferPassengers), the profile's contact details. What cannot be taken is refused with
 * what to send instead: a booking is never made on a guess about who travels.
 */
import { randomUUID } from 'node:crypto';
import { UnprocessableError } from '../errors.js';
import type { Offer } from '../flights/offer-schemas.js';
import type { BookableOffer, OfferService } from '../flights/offers.js';
import type { PassengerService } from '../passengers/service.js';
import type { IdentityDocument } from '../passengers/schemas.js';
import type { PaymentMethodService } from '../payment-methods/service.js';
import type { UserService } from '../users/service.js';
import { parseOrThrow } from '../validation.js';
import type { PurchaseGate } from './purchase-gate.js';
import { CreateBookingRequest, type AgentBookingRequest, type BookingPassengerInput, type BookingResponse } from './schemas.js';
import type { Booker, BookingService } from './service.js';

export interface AgentBookingDeps {
  bookings: BookingService;
  offers: OfferService;
  paymentMethods: PaymentMethodService;
  passengers: PassengerService;
  users: UserService;
  /** The purchase gate of each call: the traveler's spending limit and confirmation (core/purchases). */
  purchases: PurchaseGates;
}

export interface PurchaseGates {
  /** `itinerary`: the offer's slices, shown to the traveler with the purchase. */
  gateFor(booker: Booker, confirmationId: string | undefined, itinerary: Offer['slices']): PurchaseGate;
}

/** Saved document types a booking passes on, by the name BookingPassengerInput gives them. */
const DOCUMENT_TYPE_OF: Partial<Record<IdentityDocument['document_type'], 'passport' | 'tax_id' | 'known_traveler_number' | 'passenger_redress_number'>> = {
  passport: 'passport',
  tax_id: 'tax_id',
  known_traveler_number: 'known_traveler_number',
  redress_number: 'passenger_redress_number',
};

export class AgentBooking {
  constructor(private readonly deps: AgentBookingDeps) {}

  /**
   * Books for the token's traveler: always theirs, and the offer theirs too (an unclaimed one is claimed
   * here). Never on the agent's word alone: the purchase passes the gate (spending limit, then the
   * traveler's confirmation on our page) before any card is touched.
   */
  async create(booker: Booker, input: AgentBookingRequest): Promise<BookingResponse> {
    // A repeat of the agent's key answers its booking, whatever has changed since (the offer expired, the
    // default card or the saved passengers changed): the request would no longer be built the same.
    // It charges nothing more, so it needs no confirmation either.
    const made = input.idempotency_key && (await this.deps.bookings.madeWithKey(booker, input.provider_id, input.offer_id, input.idempotency_key));
    if (made) return made;
    const { request, offer } = await this.#request(booker, input);
    const gate = this.deps.purchases.gateFor(booker, input.confirmation_id, offer.offer.slices);
    return (await this.deps.bookings.create(booker, input.provider_id, request, gate)).response;
  }

  /** The CreateBookingRequest the agent's input means for this traveler, and the offer it books. */
  async #request(booker: Booker, input: AgentBookingRequest): Promise<{ request: CreateBookingRequest; offer: BookableOffer }> {
    const offer = await this.deps.offers.bookable(booker, input.provider_id, input.offer_id);
    const passengers = input.passengers ?? (await this.#savedPassengers(booker.userId, offer.offer.passengers, offer.savedPassengers));
    const paymentMethodId = input.payment_method_id ?? (await this.deps.paymentMethods.chargeable(booker.userId, undefined)).id;
    // Checked as a partner's body is: saved details and the profile must meet the booking's own rules.
    const request = parseOrThrow(CreateBookingRequest, {
      offer_id: offer.id,
      passengers,
      contact_info: input.contact ?? (await this.#profileContact(booker.userId, passengers[0] as BookingPassengerInput)),
      payment_method_id: paymentMethodId,
      currency: offer.offer.total_currency,
      user_id: booker.userId,
      idempotency_key: input.idempotency_key ?? `agent-${randomUUID()}`,
      ...(input.bag_selections ? { services: input.bag_selections } : {}),
      ...(input.seat_selections ? { seat_selections: input.seat_selections } : {}),
      ...(input.order_type ? { order_type: input.order_type } : {}),
      ...(input.expected_total ? { expected_total: input.expected_total } : {}),
    });
    return { request, offer };
  }

  /** Each passenger of the offer as the saved passenger matched to it; every one must be matched. */
  async #savedPassengers(userId: string, offerPassengers: { id: string }[], matched: ReadonlyMap<string, string>): Promise<BookingPassengerInput[]> {
    const unmatched = offerPassengers.filter((passenger) => !matched.has(passenger.id)).map((passenger) => passenger.id);
    if (unmatched.length > 0) {
      throw new UnprocessableError(
        `No saved passenger is matched to the offer's passenger${unmatched.length > 1 ? 's' : ''} ${unmatched.join(', ')}: ask the traveler who travels and send every passenger of the offer in passengers (first_name, last_name, born_on, gender, and a passport where the offer needs one), or have the partner match saved passengers to the offer (saveOfferPassengers).`,
        'passenger_details_required',
      );
    }
    return Promise.all(offerPassengers.map((passenger) => this.#fromSaved(userId, passenger.id, matched.get(passenger.id) as string)));
  }

  async #fromSaved(userId: string, providerPassengerId: string, savedId: string): Promise<BookingPassengerInput> {
    const [saved, documents] = await Promise.all([this.deps.passengers.get(userId, savedId), this.deps.passengers.listDocuments(userId, savedId)]);
    const identityDocuments = documents
      // The primary document of a type first: it is the one the traveler travels on.
      .sort((a, b) => Number(b.is_primary) - Number(a.is_primary))
      .flatMap((document) => {
        const type = DOCUMENT_TYPE_OF[document.document_type];
        return type && document.expires_on
          ? [{ type, unique_identifier: document.document_number, issuing_country_code: document.issuing_country_code, expires_on: document.expires_on }]
          : [];
      })
      .slice(0, 5);
    return {
      provider_passenger_id: providerPassengerId,
      first_name: saved.first_name,
      ...(saved.middle_name ? { middle_name: saved.middle_name } : {}),
      last_name: saved.last_name,
      born_on: saved.date_of_birth,
      gender: saved.gender,
      ...(saved.email ? { email: saved.email } : {}),
      ...(saved.phone_number ? { phone_number: saved.phone_number } : {}),
      ...(saved.known_traveler_number ? { known_traveler_number: saved.known_traveler_number } : {}),
      ...(identityDocuments.length > 0 ? { identity_documents: identityDocuments } : {}),
    };
  }

  /** The profile's e-mail and phone; its name, or else the first passenger's. */
  async #profileContact(userId: string, firstPassenger: BookingPassengerInput): Promise<CreateBookingRequest['contact_info']> {
    const user = await this.deps.users.getUser(userId);
    const missing = [user.email ? undefined : 'e-mail address', user.phone_number ? undefined : 'phone number'].filter(Boolean);
    if (missing.length > 0) {
      throw new UnprocessableError(
        `The traveler's profile has no ${missing.join(' and no ')} for the airline to reach them: ask the traveler and send contact (email, phone_number as +447700900123, first_name, last_name).`,
        'contact_required',
      );
    }
    return {
      email: user.email as string,
      phone_number: user.phone_number as string,
      first_name: user.first_name ?? firstPassenger.first_name,
      last_name: user.last_name ?? firstPassenger.last_name,
    };
  }
}
