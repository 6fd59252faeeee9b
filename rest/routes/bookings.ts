/**
 * Bookings of a provider's offers (specification: Flights booking rows; decisions §2, §3, §4, §9). The
 * partner's key and the traveler's token: a booking is always that traveler's. `bookings.write` books,
 * retries, confirms a hold and cancels; `bookings.read` reads. Another traveler's booking is 403.
 */
import { z } from 'zod';
import type { Actor } from '../../core/actor.js';
import type { Booker, BookingService } from '../../core/bookings/service.js';
import { BookingResponse, CancelBookingRequest, CancellationResult, CreateBookingRequest, RetryBookingRequest } from '../../core/bookings/schemas.js';
import { ForbiddenError } from '../../core/errors.js';
import { ProviderPathParams } from '../../core/flights/schemas.js';
import type { PartnerIdentity } from '../../core/partners/schemas.js';
import { defineRoute, type ErrorExample, type Route } from '../route-table.js';

const BOOKING_ID = '3c9e1f7a-5b2d-4e8c-9a1f-7d6b5c4e3a21';
const BookingPath = ProviderPathParams.extend({
  booking_id: z.string().meta({ description: 'The booking’s `id`.', examples: [BOOKING_ID] }),
});

const PROBLEMS: Record<string, ErrorExample> = {
  declined: { code: 'card_declined', message: 'The card was declined by its bank: ask the traveler for another card.', details: 'insufficient_funds' },
  priceChanged: {
    code: 'price_changed',
    message: "The airline's total changed from 1686.24 to 1749.93 GBP: show the traveler the new total, then retry with order_id VS932GXF77323 (retryProviderBooking).",
  },
  idempotency: {
    code: 'idempotency_conflict',
    message: 'The idempotency_key checkout-7d1f2a9c was used for another request (booking 3c9e1f7a-5b2d-4e8c-9a1f-7d6b5c4e3a21): send the same body to read that booking, or a new key for a new booking.',
  },
  expired: { code: 'offer_expired', message: 'This offer expired at 2026-11-23T10:45:00.000Z: search again or ask the provider for a new offer.' },
  soldOut: { code: 'offer_no_longer_available', message: 'The airline no longer sells this offer (sold out or withdrawn): search again for another one.', details: 'provider_b: sold out or withdrawn' },
  notOwner: { code: 'not_booking_owner', message: `Booking ${BOOKING_ID} is not this traveler's: only its traveler (or an administrator) reaches it.` },
  notFound: { code: 'booking_not_found', message: `There is no booking ${BOOKING_ID}: list the traveler's trips with GET /v1/users/me/bookings.` },
  unavailable: { code: 'provider_unavailable', message: 'provider_b is not answering as expected just now: try again in a moment.' },
  timeout: { code: 'provider_timeout', message: 'provider_b did not answer within 60 s: try again in a moment.' },
};

export interface BookingRouteDeps {
  bookings: BookingService;
}

/** The traveler of the token books, within the partner of the key. */
function bookerOf(partner: PartnerIdentity | undefined, actor: Actor | undefined): Booker & { isAdmin: boolean } {
  const traveler = actor as Actor;
  return { partnerId: partner?.partnerId, userId: traveler.userId, clientId: traveler.clientId, door: 'rest', isAdmin: traveler.isAdmin };
}

/** `user_id` in the body is the token's traveler (or `me`): a booking is never made for someone else. */
function checkUser(actor: Actor | undefined, userId: string): void {
  const traveler = actor as Actor;
  if (userId !== 'me' && userId.toLowerCase() !== traveler.userId.toLowerCase()) {
    throw new ForbiddenError('user_id must be the traveler of the access token (or `me`): a booking is always that traveler’s.', 'not_your_user');
  }
}

export function bookingRoutes(deps: BookingRouteDeps): Route[] {
  const common = { tags: ['Bookings'], auth: 'api_key_and_bearer' as const };
  return [
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/flights/providers/{provider}/bookings',
      operationId: 'createProviderBooking',
      summary: 'Book an offer, paid with a saved card',
      description: [
        'Checks the request against the offer (passengers, seats from its seat maps, services, hold support, currency), authorizes the card for the total, places the provider order, captures and confirms. `total_amount` is what the card is charged: the offer plus seats and services.',
        'Before anything is priced, stored or charged, the offer’s flights must be inside the provider’s window (its capabilities), each local time read in its airport’s time zone: a first flight that has left is 422 `flight_departed`, one leaving sooner than `min_advance_booking_hours` 422 `departure_too_soon`, and a flight further ahead than `max_advance_booking_days` 422 `departure_too_far_ahead`; the message names the flight.',
        'Idempotent by `idempotency_key` per traveler: the same key and body answers the first booking (200, also while it is still running: the answer waits for it); the same key with another body is 409 `idempotency_conflict`.',
        '`order_type: hold` (where `supports_hold_booking`) stops at `booking_created` with the authorization held until `payment_required_by`: pay it with confirmProviderBooking, or it lapses and the authorization is voided.',
        'A price that moved is 409 `price_changed` with `order_id`, `previous_total_amount`, `new_total_amount` and `currency`: nothing is charged; with an `order_id`, retryProviderBooking pays that order at the new total.',
      ].join('\n\n'),
      scope: 'bookings.write',
      params: ProviderPathParams,
      body: CreateBookingRequest,
      status: 201,
      responses: {
        201: { description: 'Booked: `confirmed`, or `booking_created` for a hold.', schema: BookingResponse },
        200: { description: 'A repeat of the idempotency key with the same body: the first booking.', schema: BookingResponse },
      },
      errors: [402, 404, 409, 410, 422, 502, 504],
      errorExamples: { 402: PROBLEMS.declined, 409: PROBLEMS.priceChanged, 410: PROBLEMS.expired, 422: PROBLEMS.soldOut, 502: PROBLEMS.unavailable, 504: PROBLEMS.timeout },
      handler: async ({ params, body, partner, actor }) => {
        checkUser(actor, body.user_id);
        const { response, replayed } = await deps.bookings.create(bookerOf(partner, actor), params.provider, body);
        return { status: replayed ? 200 : 201, body: response };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/flights/providers/{provider}/bookings/retry',
      operationId: 'retryProviderBooking',
      summary: 'Pay an order at its new price, after price_changed',
      description:
        'Send the failed attempt’s request again with the `order_id` of its `price_changed` error: the card is authorized for the new total and the held order is paid (provider_c’s reprice and pay; provider_d and provider_e too). A retry already done answers its booking.',
      scope: 'bookings.write',
      params: ProviderPathParams,
      body: RetryBookingRequest,
      responses: { 200: { description: 'The booking, confirmed at the new total.', schema: BookingResponse } },
      errors: [402, 404, 409, 422, 502, 504],
      errorExamples: { 402: PROBLEMS.declined, 502: PROBLEMS.unavailable, 504: PROBLEMS.timeout },
      handler: async ({ params, body, partner, actor }) => {
        checkUser(actor, body.user_id);
        return { body: await deps.bookings.retry(bookerOf(partner, actor), params.provider, body) };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/flights/providers/{provider}/bookings/{booking_id}',
      operationId: 'getProviderBooking',
      summary: 'A booking',
      description: 'The traveler’s own booking; another traveler’s is 403.',
      scope: 'bookings.read',
      params: BookingPath,
      responses: { 200: { description: 'The booking.', schema: BookingResponse } },
      errors: [404],
      errorExamples: { 403: PROBLEMS.notOwner, 404: PROBLEMS.notFound },
      handler: async ({ params, partner, actor }) => ({ body: await deps.bookings.get(bookerOf(partner, actor), params.provider, params.booking_id) }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/v1/flights/providers/{provider}/bookings/{booking_id}/confirm',
      operationId: 'confirmProviderBooking',
      summary: 'Pay a hold',
      description: 'Captures the authorization held for the hold, then pays the provider (decisions §9). Before `payment_required_by` only.',
      scope: 'bookings.write',
      params: BookingPath,
      responses: { 200: { description: 'The booking, confirmed.', schema: BookingResponse } },
      errors: [402, 404, 409, 422, 502, 504],
      errorExamples: { 403: PROBLEMS.notOwner, 404: PROBLEMS.notFound },
      handler: async ({ params, partner, actor }) => ({ body: await deps.bookings.confirmHold(bookerOf(partner, actor), params.provider, params.booking_id) }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/v1/flights/providers/{provider}/bookings/{booking_id}',
      operationId: 'cancelProviderBooking',
      summary: 'Cancel a booking',
      description:
        'The traveler’s own, or any with an administrator’s unscoped token. A confirmed booking is cancelled at the provider and the traveler refunded what the provider refunds under the fare’s conditions (`refund_amount` null when nothing); an unpaid hold’s authorization is voided. Cancelling again answers the same result.',
      scope: 'bookings.write',
      params: BookingPath,
      body: CancelBookingRequest.optional(),
      responses: { 200: { description: 'The cancellation.', schema: CancellationResult } },
      errors: [404, 409, 502, 504],
      errorExamples: { 403: PROBLEMS.notOwner, 404: PROBLEMS.notFound },
      handler: async ({ params, body, partner, actor }) => ({
        body: await deps.bookings.cancel(bookerOf(partner, actor), params.provider, params.booking_id, body?.reason),
      }),
    }),
  ];
}
