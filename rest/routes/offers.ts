import { z } from 'zod';
import {
  Offer,
  OfferPassengerDetails,
  OfferPassengerMapping,
  PassengerUpdateRequest,
  PricingResult,
  SaveOfferPassengersRequest,
  SeatMap,
} from '../../core/flights/offer-schemas.js';
import type { OfferService } from '../../core/flights/offers.js';
import { NATIVE_OFFER_EXAMPLE, OFFER_PASSENGER_MAPPING_EXAMPLE } from '../../core/flights/offer-examples.js';
import { ProviderPathParams } from '../../core/flights/schemas.js';
import type { Actor } from '../../core/actor.js';
import type { Owner } from '../../core/flights/owner.js';
import type { PartnerIdentity } from '../../core/partners/schemas.js';
import { defineRoute, JSON_TEXT, type ErrorExample, type Route } from '../route-table.js';

/**
 * Over REST the partner's key says whose offers these are; with a traveler's token the traveler acts,
 * within the partner's offers (the first use of an offer no traveler has claimed makes it theirs).
 */
function callerOf(partner: PartnerIdentity | undefined, actor: Actor | undefined): Owner {
  return { partnerId: (partner as PartnerIdentity).partnerId, userId: actor?.userId, door: 'rest' };
}

const ProviderOfferInput = z.record(z.string(), z.unknown()).meta({
  id: 'ProviderOfferInput',
  description: "The provider's own offer object, verbatim, in its native format (the example: provider_b's).",
  examples: [NATIVE_OFFER_EXAMPLE],
});

const OFFER_ID = '8d3f6b2a-91c4-4e7d-b5a8-0f2c6e9d1b47';

const CreateOfferResponse = z
  .object({ offer_id: z.uuid().describe('Our id of the offer: name it in every later call.') })
  .meta({ id: 'CreateOfferResponse', examples: [{ offer_id: OFFER_ID }] });

const OfferPathParams = ProviderPathParams.extend({
  offer_id: z.string().meta({ description: 'The `offer_id` that creating the offer returned.', examples: [OFFER_ID] }),
});

const SavedOfferPassengers = z
  .object({ passengers: z.array(OfferPassengerMapping) })
  .meta({ id: 'SavedOfferPassengers', examples: [{ passengers: [OFFER_PASSENGER_MAPPING_EXAMPLE] }] });

/** The answers these routes give, as the service words them. */
const problems = {
  providerNotFound: {
    code: 'provider_not_found',
    message: 'There is no flight provider "provider_x". Known providers: provider_a, provider_b, provider_c, provider_d, provider_e.',
  },
  offerNotFound: {
    code: 'offer_not_found',
    message: `There is no offer ${OFFER_ID} of provider_b that you can reach: create one first (createProviderOffer over REST, or create_offer from a search_flights result).`,
  },
  offerExpired: { code: 'offer_expired', message: 'This offer expired at 2027-02-18T09:30:00.000Z: search again or ask the provider for a new offer.' },
  offerChanged: { code: 'offer_changed', message: 'The offer changed while this request ran: read it again, then retry.' },
  nativeInvalid: {
    code: 'validation_error',
    message: 'The request is not valid: see `fields` for each rule that failed.',
    fields: { total_amount: { field: 'total_amount', rule: 'required', message: 'total_amount is required' } },
  },
  // A provider whose system is not configured here (no PROVIDER_A_URL outside sandbox mode).
  notSupported: { code: 'provider_not_supported', message: 'Calls to provider_a are not supported yet.' },
} satisfies Record<string, ErrorExample>;

const PricingRequest = z
  .strictObject({
    passengers: z
      .array(z.strictObject({ type: z.enum(['adult', 'child', 'infant_without_seat']) }))
      .optional()
      .describe('Accepted for the providers that price by passenger type; the offer’s own passengers are priced.'),
  })
  .meta({ id: 'PricingRequest', examples: [{ passengers: [{ type: 'adult' }] }] });

export function offerRoutes(deps: { offers: OfferService }): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/flights/providers/{provider}/offers',
      operationId: 'createProviderOffer',
      summary: "Hand us a provider's offer",
      description:
        "Send the provider's offer exactly as the provider gave it. It is checked against the provider's native format (a 400 names the path of each problem), normalized to the Offer, and kept for your application until it expires. API key only: your secret key, or a publishable key from a page of one of its origins (CORS answers those origins).",
      tags: ['Offers'],
      auth: 'api_key',
      params: ProviderPathParams,
      body: ProviderOfferInput,
      status: 201,
      responses: { 201: { description: 'The offer is kept; use `offer_id` from now on.', schema: CreateOfferResponse } },
      errors: [400, 404, 410],
      errorExamples: { 400: problems.nativeInvalid, 404: problems.providerNotFound, 410: problems.offerExpired },
      handler: async ({ params, body, partner, actor }) => ({
        body: await deps.offers.create(callerOf(partner, actor), params.provider, body),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/flights/providers/{provider}/offers/{offer_id}',
      operationId: 'getProviderOffer',
      summary: 'An offer, normalized',
      description:
        "The offer as every provider's offers look (amounts as decimal strings with their currency's minor units), with the provider's own under `raw_offer`. After `expires_at` it answers 410 `offer_expired`. API key only: your secret key, or a publishable key from a page of one of its origins (CORS answers those origins).",
      tags: ['Offers'],
      auth: 'api_key',
      params: OfferPathParams,
      responses: { 200: { description: 'The offer.', schema: Offer } },
      errors: [404, 410],
      errorExamples: { 404: problems.offerNotFound, 410: problems.offerExpired },
      // The stored JSON as it is, sent as the body: no objects to build from it and serialize again.
      handler: async ({ params, partner, actor }) => ({
        body: await deps.offers.getJson(callerOf(partner, actor), params.provider, params.offer_id),
        headers: JSON_TEXT,
      }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/flights/providers/{provider}/offers/{offer_id}',
      operationId: 'replaceProviderOffer',
      summary: 'Replace an offer with a newer one from the provider',
      description:
        "Send the provider's newer offer verbatim (after a price change, say): it is checked and normalized like a new one and takes the place of the old one, under the same `offer_id`.",
      tags: ['Offers'],
      auth: 'api_key_and_bearer',
      scope: 'bookings.write',
      params: OfferPathParams,
      body: ProviderOfferInput,
      responses: { 200: { description: 'The offer was replaced.', schema: CreateOfferResponse } },
      errors: [400, 404, 409, 410],
      errorExamples: { 400: problems.nativeInvalid, 404: problems.offerNotFound, 409: problems.offerChanged, 410: problems.offerExpired },
      handler: async ({ params, body, partner, actor }) => ({
        body: await deps.offers.replace(callerOf(partner, actor), params.provider, params.offer_id, body),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/flights/providers/{provider}/offers/{offer_id}/passengers',
      operationId: 'saveOfferPassengers',
      summary: "Say who travels as which of the offer's passengers",
      description:
        "Maps the traveler's saved passengers to the passengers inside the offer (`passengers[].id`). The whole list is replaced at once.",
      tags: ['Offers'],
      auth: 'api_key_and_bearer',
      scope: 'bookings.write',
      params: OfferPathParams,
      body: SaveOfferPassengersRequest,
      responses: { 200: { description: 'The mapping as kept.', schema: SavedOfferPassengers } },
      errors: [404, 410],
      errorExamples: {
        400: {
          code: 'validation_error',
          message: 'The request is not valid: see `fields` for each rule that failed.',
          fields: {
            'passengers.0.provider_passenger_id': {
              field: 'passengers.0.provider_passenger_id',
              rule: 'offer_passenger',
              message: 'pas_0000XyZ is not a passenger of this offer: use one of pas_0000B2kQ7cRfX9pLmN4sTv',
            },
          },
        },
        404: problems.offerNotFound,
        410: problems.offerExpired,
      },
      handler: async ({ params, body, partner, actor }) => ({
        body: await deps.offers.savePassengers({ ...callerOf(partner, actor), userId: (actor as Actor).userId }, params.provider, params.offer_id, body.passengers),
      }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/flights/providers/{provider}/offers/{offer_id}/passengers/{passenger_id}',
      operationId: 'updateOfferPassenger',
      summary: "Give the provider a passenger's details",
      description:
        "Sends one passenger's details (names, loyalty accounts, documents) to the provider for the offer, where its capabilities say `supports_offer_passenger_update` (422 `passenger_update_not_supported` otherwise). Empty fields are ignored. `{passenger_id}` is the passenger's id inside the offer.",
      tags: ['Offers'],
      auth: 'api_key_and_bearer',
      scope: 'bookings.write',
      params: OfferPathParams.extend({ passenger_id: z.string().describe("The passenger's id inside the offer.") }),
      body: PassengerUpdateRequest,
      responses: { 200: { description: "The offer's passenger as the provider now holds it.", schema: OfferPassengerDetails } },
      errors: [404, 410, 422, 501, 502, 504],
      errorExamples: {
        404: {
          code: 'offer_passenger_not_found',
          message: 'pas_0000XyZ is not a passenger of this offer: its passengers are pas_0000B2kQ7cRfX9pLmN4sTv.',
        },
        410: problems.offerExpired,
        422: {
          code: 'passenger_update_not_supported',
          message:
            'provider_c takes passenger details only with the booking (its capabilities say supports_offer_passenger_update: false): send them when you book.',
        },
        501: problems.notSupported,
      },
      handler: async ({ params, body, partner, actor }) => ({
        body: await deps.offers.updatePassenger(
          callerOf(partner, actor),
          params.provider,
          params.offer_id,
          params.passenger_id,
          body,
        ),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/flights/providers/{provider}/offers/{offer_id}/pricing',
      operationId: 'priceProviderOffer',
      summary: 'Price the offer with the provider now',
      description:
        'Asks the provider for the current price of the offer and keeps its answer. If the price moved, `price_changed` is true and `previous_total_amount` says what it was: show the traveler the new total before booking. `provider_a` needs this step before booking; the others offer it.',
      tags: ['Offers'],
      auth: 'api_key_and_bearer',
      scope: 'bookings.write',
      params: OfferPathParams,
      body: PricingRequest.optional(),
      responses: { 200: { description: 'The offer as priced now.', schema: PricingResult } },
      errors: [404, 409, 410, 422, 501, 502, 504],
      errorExamples: {
        404: problems.offerNotFound,
        409: problems.offerChanged,
        410: problems.offerExpired,
        422: {
          code: 'offer_no_longer_available',
          message: 'The airline no longer sells this offer (sold out or withdrawn): search again for another one.',
          details: 'provider_b: sold out or withdrawn',
        },
        501: problems.notSupported,
      },
      handler: async ({ params, partner, actor }) => ({
        body: await deps.offers.price(callerOf(partner, actor), params.provider, params.offer_id),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/flights/providers/{provider}/offers/{offer_id}/seat-maps',
      operationId: 'getOfferSeatMaps',
      summary: 'The seat maps of an offer',
      description:
        'One seat map per segment: every seat with whether it can be taken, and its price where it has one. Only for providers whose capabilities say `supports_seat_selection` (422 `seat_selection_not_supported` otherwise).',
      tags: ['Offers'],
      auth: 'api_key_and_bearer',
      scope: 'bookings.write',
      params: OfferPathParams,
      responses: { 200: { description: 'The seat maps.', schema: z.array(SeatMap) } },
      errors: [404, 410, 422, 501, 502, 504],
      errorExamples: {
        404: problems.offerNotFound,
        410: problems.offerExpired,
        422: {
          code: 'seat_selection_not_supported',
          message: 'provider_d does not sell seats (its capabilities say supports_seat_selection: false): book without seat selection.',
        },
        501: problems.notSupported,
      },
      handler: async ({ params, partner, actor }) => ({
        body: await deps.offers.seatMaps(callerOf(partner, actor), params.provider, params.offer_id),
      }),
    }),
  ];
}
