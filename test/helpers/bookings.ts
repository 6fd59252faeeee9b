/**
 * Bookings over REST the way a partner makes them: the provider's native offer (built by that provider's
 * booking-contract case, on the magic value of a path) created as our offer, a traveler with a saved card
 * from the vault, and a CreateBookingRequest naming the offer's passengers, seats and services.
 */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import type { OrderRequest } from '../../core/flights/flight-provider.js';
import { bookingCase as providerA } from '../booking-contract/provider-a.js';
import { bookingCase as providerB } from '../booking-contract/provider-b.js';
import { bookingCase as providerC } from '../booking-contract/provider-c.js';
import { bookingCase as providerD } from '../booking-contract/provider-d.js';
import { bookingCase as providerE } from '../booking-contract/provider-e.js';
import type { BookingCase, BookingPath } from '../booking-contract/case.js';
import { asPartner, cardTraveler, saveCard, type CardTraveler } from './cards.js';
import { jsonOf, type Json } from './http.js';
import type { PartnerClient } from './oauth.js';
import type { RunningService } from './service.js';

export const BOOKING_CASES: Record<string, BookingCase> = {
  provider_a: providerA,
  provider_b: providerB,
  provider_c: providerC,
  provider_d: providerD,
  provider_e: providerE,
};

export const BOOKING_SCOPES = 'bookings.read bookings.write payments.read payments.write';

export interface Booker extends CardTraveler {
  /** The traveler's default card. */
  cardId: string;
}

/** A traveler of `partner` (or a new partner) with both booking scopes and a saved default card (Visa 4242 unless given). */
export async function booker(running: RunningService, partner?: PartnerClient, card: { number?: string } = {}, scope = BOOKING_SCOPES): Promise<Booker> {
  const traveler = await cardTraveler(running, scope, partner);
  const cardId = await saveCard(running, traveler, card, true);
  return { ...traveler, cardId };
}

export interface PreparedBooking {
  /** Our offer id, made over REST with the traveler's partner key. */
  offerId: string;
  /** What the provider will be paid: the offer plus seats and services. */
  order: OrderRequest;
  /** The CreateBookingRequest. */
  body: Json;
}

/** Creates the provider's offer for `path` over REST and builds the booking body for it. */
export async function prepareBooking(
  running: RunningService,
  who: Booker,
  providerId: string,
  path: BookingPath = 'normal',
  options: { type?: 'instant' | 'hold'; key?: string } = {},
): Promise<PreparedBooking> {
  const order = await (BOOKING_CASES[providerId] as BookingCase).request(running, path, randomUUID(), options.type ?? 'instant');
  const created = await fetch(`${running.url}/v1/flights/providers/${providerId}/offers`, {
    method: 'POST',
    headers: { 'x-api-key': who.partner.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(order.raw),
  });
  const createdBody = await jsonOf(created);
  assert.equal(created.status, 201, `no offer: ${created.status} ${JSON.stringify(createdBody)}`);
  return { offerId: createdBody.offer_id, order, body: bookingBody(createdBody.offer_id, order, who, options) };
}

export function bookingBody(offerId: string, order: OrderRequest, who: Pick<Booker, 'cardId'>, options: { type?: 'instant' | 'hold'; key?: string } = {}): Json {
  return {
    offer_id: offerId,
    passengers: order.passengers.map((passenger) => ({
      provider_passenger_id: passenger.providerPassengerId,
      first_name: passenger.firstName,
      last_name: passenger.lastName,
      born_on: passenger.bornOn,
      ...(passenger.gender ? { gender: passenger.gender } : {}),
      ...(passenger.title ? { title: passenger.title.toLowerCase() } : {}),
      ...(passenger.identityDocuments.length > 0
        ? {
            identity_documents: passenger.identityDocuments.map((document) => ({
              type: document.type,
              unique_identifier: document.uniqueIdentifier,
              issuing_country_code: document.issuingCountryCode,
              expires_on: document.expiresOn,
            })),
          }
        : {}),
    })),
    contact_info: { email: order.contact.email, phone_number: order.contact.phoneNumber, first_name: order.contact.firstName, last_name: order.contact.lastName },
    payment_method_id: who.cardId,
    currency: order.currency,
    user_id: 'me',
    idempotency_key: options.key ?? `test-${randomUUID()}`,
    ...(options.type ? { order_type: options.type } : {}),
    ...(order.seats.length > 0 ? { seat_selections: order.seats.map((seat) => ({ segment_id: seat.segmentId, passenger_id: seat.providerPassengerId, seat_number: seat.seatNumber })) } : {}),
    ...(order.services.length > 0 ? { services: order.services } : {}),
  };
}

/** POST a booking as the traveler's partner. */
export function book(running: RunningService, who: { partner: { apiKey: string }; token: string }, providerId: string, body: Json, path = '') {
  return asPartner(running, who, `/v1/flights/providers/${providerId}/bookings${path}`, { body });
}

/** The processor sandbox's own record of a payment intent. */
export async function intentRecord(running: RunningService, intentId: string): Promise<Json> {
  return running.service.db.knex('processor_sandbox_payment_intents').where({ id: intentId }).first();
}

/** The provider sandbox's own record of an order. */
export async function sandboxOrder(running: RunningService, providerId: string, orderId: string): Promise<Json> {
  return running.service.db.knex('flight_sandbox_orders').where({ provider_id: providerId, id: orderId }).first();
}
