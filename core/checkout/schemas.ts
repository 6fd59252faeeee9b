/**
 * Checkout sessions (decisions §12): what a partner's page or backend sends to open the hosted checkout
 * for one offer, and what it reads back to confirm a sale. One truth for the REST routes and the OpenAPI
 * document.
 */
import { z } from 'zod';
import { CurrencyCode, DecimalString } from '../flights/offer-schemas.js';
import { ProviderId } from '../flights/schemas.js';

export const CHECKOUT_SESSION_ID_EXAMPLE = '5b7e2c1a-8f3d-4a69-b0e4-2d9c6f1a7e38';
const OFFER_ID_EXAMPLE = '8d3f6b2a-91c4-4e7d-b5a8-0f2c6e9d1b47';
const CLIENT_SECRET_EXAMPLE = 'cs_5b7e2c1a8f3d4a69b0e42d9c6f1a7e38_secret_Xq3vT9mK2pL7wR4sY8nB1cF6hJ0dG5aE';
const BOOKING_ID_EXAMPLE = '3c9e1f7a-5b2d-4e8c-9a1f-7d6b5c4e3a21';

export const CheckoutOrigin = z
  .string()
  .max(300)
  .describe(
    'The origin of the page that embeds the checkout, exactly as its browser sends `Origin`: `scheme://host[:port]`, lower case, no path or trailing slash (`https://www.example-airline.com`; `http` only on a loopback host or on the sandbox). Only that page may frame the checkout, and only it receives its messages.',
  );

/** The checkout button's `iataCode`, sent as `x-customer-id`. */
export const CustomerId = z
  .string()
  .regex(/^[A-Z0-9]{2,3}$/, 'must be 2 or 3 upper-case letters or digits, such as BA')
  .describe("The checkout button's `iataCode`: 2 or 3 upper-case letters or digits. Kept on the session, and on the booking as `metadata.iata_code`.");

export const CheckoutSessionHeaders = z.object({
  'x-customer-id': CustomerId.meta({ examples: ['BA'] }),
});

export const CreateCheckoutSessionRequest = z
  .strictObject({
    provider_id: ProviderId,
    offer_id: z.string().max(200).describe('The `offer_id` that createProviderOffer returned (your own offer, not yet expired).'),
    is_prod: z
      .boolean()
      .default(false)
      .describe('The button’s `isProd`: true sells real tickets. It must match this service: false on the sandbox, true in production (400 `environment_mismatch` otherwise).'),
    origin: CheckoutOrigin.optional().describe(
      'The origin of the page that will embed the checkout. Required with a secret key. With a publishable key it is the request’s `Origin` (one of the key’s allowed origins); when sent too, it must be that same origin.',
    ),
  })
  .meta({
    id: 'CreateCheckoutSessionRequest',
    examples: [{ provider_id: 'provider_b', offer_id: OFFER_ID_EXAMPLE, is_prod: false, origin: 'https://www.example-airline.com' }],
  });
export type CreateCheckoutSessionRequest = z.infer<typeof CreateCheckoutSessionRequest>;

export const CreatedCheckoutSession = z
  .object({
    id: z.uuid().describe('The session’s id: read it with getCheckoutSession.'),
    url: z.url().describe('The hosted checkout, to open in the button’s dialog (an iframe). The client secret is in its fragment, which browsers never send to a server.'),
    client_secret: z.string().describe('Opens this session’s checkout page; it is in `url` already. Keep it in the browser that opens the checkout; it is shown once and never returned again.'),
    expires_at: z.iso.datetime({ offset: true }).describe('30 minutes from now, or the offer’s `expires_at` when that comes first.'),
  })
  .meta({
    id: 'CreatedCheckoutSession',
    examples: [
      {
        id: CHECKOUT_SESSION_ID_EXAMPLE,
        url: `https://auth.example.com/checkout/${CHECKOUT_SESSION_ID_EXAMPLE}#${CLIENT_SECRET_EXAMPLE}`,
        client_secret: CLIENT_SECRET_EXAMPLE,
        expires_at: '2026-11-28T10:30:00.000Z',
      },
    ],
  });
export type CreatedCheckoutSession = z.infer<typeof CreatedCheckoutSession>;

export const CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired', 'failed'] as const;
export const CheckoutSessionStatus = z
  .enum(CHECKOUT_SESSION_STATUSES)
  .describe('`open` until the traveler books or it expires; `complete` once booked (`booking_id` set); `expired` past `expires_at` without a booking; `failed` when the checkout ended without one (`failure_reason`).');
export type CheckoutSessionStatus = z.infer<typeof CheckoutSessionStatus>;

/** Why a checkout ended without a booking (the reasons of SVC_BOOKING_FAILED but `session_expired`, which is the `expired` status). */
export const CheckoutFailureReason = z.enum(['offer_unavailable', 'search_again']);
export type CheckoutFailureReason = z.infer<typeof CheckoutFailureReason>;

const CHECKOUT_SESSION_EXAMPLE = {
  id: CHECKOUT_SESSION_ID_EXAMPLE,
  status: 'complete',
  provider_id: 'provider_b',
  offer_id: OFFER_ID_EXAMPLE,
  customer_id: 'BA',
  origin: 'https://www.example-airline.com',
  booking_id: BOOKING_ID_EXAMPLE,
  airline_pnr: 'VS9QXR',
  total_amount: '512.46',
  currency: 'GBP',
  failure_reason: null,
  expires_at: '2026-11-28T10:30:00.000Z',
  created_at: '2026-11-28T10:00:00.000Z',
} as const;

export const CheckoutSession = z
  .object({
    id: z.uuid(),
    status: CheckoutSessionStatus,
    provider_id: ProviderId,
    offer_id: z.uuid(),
    customer_id: CustomerId,
    origin: CheckoutOrigin,
    booking_id: z.uuid().nullable().describe('The booking made through the checkout, once `complete`: read it with getProviderBooking.'),
    airline_pnr: z.string().nullable().describe('The airline’s booking reference, once `complete`.'),
    total_amount: DecimalString.describe('The offer’s total while open; what the traveler was charged once `complete`.'),
    currency: CurrencyCode,
    failure_reason: CheckoutFailureReason.nullable().describe('Why the checkout ended without a booking, when `failed`.'),
    expires_at: z.iso.datetime({ offset: true }),
    created_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'CheckoutSession', examples: [CHECKOUT_SESSION_EXAMPLE] });
export type CheckoutSession = z.infer<typeof CheckoutSession>;

export const CheckoutSessionPath = z.object({
  id: z.string().max(200).meta({ description: 'The `id` that createCheckoutSession returned.', examples: [CHECKOUT_SESSION_ID_EXAMPLE] }),
});
