/**
 * Checkout sessions (decisions §12): the checkout button, or the partner's backend, opens the hosted
 * checkout for one of the partner's offers; the partner's backend reads the session to confirm a sale.
 */
import { CheckoutSession, CheckoutSessionHeaders, CheckoutSessionPath, CreateCheckoutSessionRequest, CreatedCheckoutSession, CHECKOUT_SESSION_ID_EXAMPLE } from '../../core/checkout/schemas.js';
import type { CheckoutSessionService } from '../../core/checkout/service.js';
import type { PartnerIdentity } from '../../core/partners/schemas.js';
import { defineRoute, type ErrorExample, type Route } from '../route-table.js';

const PROBLEMS = {
  environment: {
    code: 'environment_mismatch',
    message: 'is_prod is true, but this is the sandbox: it sells no real tickets. Send is_prod: false here, or use the production service and its keys.',
  },
  offerNotFound: {
    code: 'offer_not_found',
    message: 'There is no offer 8d3f6b2a-91c4-4e7d-b5a8-0f2c6e9d1b47 of provider_b that you can reach: create one first (createProviderOffer over REST, or create_offer from a search_flights result).',
  },
  offerUnavailable: {
    code: 'offer_unavailable',
    message: 'The checkout cannot sell this offer: This offer expired at 2026-11-28T10:30:00.000Z: search again or ask the provider for a new offer.',
    details: 'offer_expired',
  },
  sessionNotFound: {
    code: 'checkout_session_not_found',
    message: `There is no checkout session ${CHECKOUT_SESSION_ID_EXAMPLE} of yours: create one with createCheckoutSession.`,
  },
} satisfies Record<string, ErrorExample>;

export function checkoutSessionRoutes(deps: { checkoutSessions: CheckoutSessionService }): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/checkout/sessions',
      operationId: 'createCheckoutSession',
      summary: 'Open the hosted checkout for an offer',
      description: [
        'Opens a checkout session for one of your offers (createProviderOffer first): open `url` in the checkout button’s dialog, where the traveler signs in, chooses passengers and a card, and books. The client secret is in the URL’s fragment (never sent to a server); it is shown once.',
        'With your **publishable key** (`pk_...`, in the button on your page) the session’s origin is the request’s `Origin`, which must be one the key lists; a body `origin` must then be the same. With your **secret key** (from your backend) `origin` is required: the page that will embed the checkout. Only that origin may frame the checkout and receive its messages.',
        '`x-customer-id` is the button’s `iataCode` (2 or 3 upper-case letters or digits): kept on the session, and on the booking as `metadata.iata_code`. `is_prod` must match this service: false on the sandbox, true in production (400 `environment_mismatch`), so a test page never sells a real ticket.',
        'The session lives 30 minutes, or until the offer’s `expires_at` when that comes first. An offer the checkout cannot sell (expired, its first flight departed, too soon or too far ahead for the provider) is 422 `offer_unavailable`, `details` naming why; another partner’s offer, or none, is 404 `offer_not_found`.',
      ].join('\n\n'),
      tags: ['Checkout'],
      auth: 'api_key',
      headers: CheckoutSessionHeaders,
      body: CreateCheckoutSessionRequest,
      status: 201,
      responses: { 201: { description: 'The session, open: show `url` to the traveler.', schema: CreatedCheckoutSession } },
      errors: [400, 404, 422],
      errorExamples: { 400: PROBLEMS.environment, 404: PROBLEMS.offerNotFound, 422: PROBLEMS.offerUnavailable },
      handler: async ({ headers, body, partner, origin }) => ({
        body: await deps.checkoutSessions.create(partner as PartnerIdentity, { request: body, customerId: headers['x-customer-id'], requestOrigin: origin }),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/checkout/sessions/{id}',
      operationId: 'getCheckoutSession',
      summary: 'A checkout session: was the offer sold?',
      description: [
        'Your backend confirms a sale here (with your secret key), never from the browser’s messages alone: `status` is `complete` once the traveler booked, with `booking_id`, `airline_pnr` and the total charged; `expired` once past `expires_at` without a booking; `failed` when the checkout ended without one (`failure_reason`); `open` until then.',
        'Your own sessions only: another partner’s session is the same 404 `checkout_session_not_found` as an unknown one. A publishable key is refused here.',
      ].join('\n\n'),
      tags: ['Checkout'],
      auth: 'api_key',
      params: CheckoutSessionPath,
      responses: { 200: { description: 'The session.', schema: CheckoutSession } },
      errors: [404],
      errorExamples: { 404: PROBLEMS.sessionNotFound },
      handler: async ({ params, partner }) => ({ body: await deps.checkoutSessions.get((partner as PartnerIdentity).partnerId, params.id) }),
    }),
  ];
}
