/** The public schemas of webhooks (decisions §14): endpoints, deliveries and the events they carry. */
import { z } from 'zod';
import { Booking } from '../bookings/schemas.js';
import { CheckoutSession } from '../checkout/schemas.js';

const dateTime = z.iso.datetime({ offset: true });

export const WEBHOOK_EVENT_TYPES = [
  'booking.confirmed',
  'booking.failed',
  'booking.cancelled',
  'booking.hold_expiring',
  'booking.hold_expired',
  'checkout.session.completed',
  'checkout.session.expired',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** What `POST /v1/webhooks/{id}/test` sends: to that endpoint only, never to a subscription. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** A partner may register this many endpoints (Stripe's limit too). */
export const MAX_ENDPOINTS = 16;

const ENDPOINT_ID_EXAMPLE = '6f1d2c3b-4a59-4e87-9c1b-2d3e4f5a6b7c';
const DELIVERY_ID_EXAMPLE = '0b7e3c1d-2f4a-4b6c-8d9e-1a2b3c4d5e6f';
const EVENT_ID_EXAMPLE = 'evt_5f0c8e7a9b2d4c6e8f1a3b5c7d9e0f21';

export const WebhookPath = z.object({ id: z.string().max(100).describe('The endpoint’s id.') });
export const WebhookDeliveryPath = z.object({
  id: z.string().max(100).describe('The endpoint’s id.'),
  delivery_id: z.string().max(100).describe('The delivery’s id, from the delivery log.'),
});

export const CreateWebhookEndpointRequest = z
  .strictObject({
    url: z
      .string()
      .max(2048)
      .describe('Where events are POSTed: https, on a host whose addresses are all public (the sandbox also takes http on a loopback address). No user name or password in it.'),
    events: z
      .array(WebhookEventType)
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .describe('The event types to send it; each at most once.'),
    description: z.string().max(200).optional().describe('Your own note, shown back to you.'),
  })
  .meta({ id: 'CreateWebhookEndpointRequest', examples: [{ url: 'https://partner.example/webhooks/travel', events: ['booking.confirmed', 'booking.failed'] }] });
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

const ENDPOINT_EXAMPLE = {
  id: ENDPOINT_ID_EXAMPLE,
  url: 'https://partner.example/webhooks/travel',
  events: ['booking.confirmed', 'booking.failed'],
  description: null,
  status: 'enabled',
  disabled_reason: null,
  disabled_at: null,
  created_at: '2026-11-28T10:00:00.000Z',
} as const;

export const WebhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(WebhookEventType),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']).describe('A disabled endpoint is sent nothing: delete it and register the URL again once it answers.'),
    disabled_reason: z
      .enum(['gone', 'failing'])
      .nullable()
      .describe('`gone`: it answered 410 Gone. `failing`: every delivery to it failed for five days.'),
    disabled_at: dateTime.nullable(),
    created_at: dateTime,
  })
  .meta({ id: 'WebhookEndpoint', examples: [ENDPOINT_EXAMPLE] });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z
    .string()
    .describe('The signing secret (`whsec_` and base64), shown this once: verify every delivery’s `webhook-signature` with it (Standard Webhooks).'),
}).meta({ id: 'CreatedWebhookEndpoint', examples: [{ ...ENDPOINT_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }] });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookAttempt = z.object({
  attempted_at: dateTime,
  trigger: z.enum(['automatic', 'retry', 'test']).describe('`automatic`: on the retry schedule; `retry`: you asked; `test`: a test event.'),
  status_code: z.number().int().nullable().describe('The endpoint’s HTTP status; null when no answer came.'),
  error: z.string().nullable().describe('Why it failed, when it did.'),
  duration_ms: z.number().int(),
});

const ATTEMPT_EXAMPLE = { attempted_at: '2026-11-28T10:05:01.000Z', trigger: 'automatic', status_code: 200, error: null, duration_ms: 84 } as const;

export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    endpoint_id: z.uuid(),
    event_id: z.string().describe('The event’s id: the `webhook-id` header of every attempt, the receiver’s key to drop repeats.'),
    event_type: z.string(),
    status: z
      .enum(['pending', 'succeeded', 'failed'])
      .describe('`pending`: another attempt is due (`next_attempt_at`). `succeeded`: the endpoint answered 2xx. `failed`: no attempt is left, or the endpoint was disabled.'),
    attempt_count: z.number().int(),
    next_attempt_at: dateTime.nullable(),
    delivered_at: dateTime.nullable(),
    attempts: z.array(WebhookAttempt).describe('Newest first, at most 20.'),
    created_at: dateTime,
  })
  .meta({
    id: 'WebhookDelivery',
    examples: [
      {
        id: DELIVERY_ID_EXAMPLE,
        endpoint_id: ENDPOINT_ID_EXAMPLE,
        event_id: EVENT_ID_EXAMPLE,
        event_type: 'booking.confirmed',
        status: 'succeeded',
        attempt_count: 1,
        next_attempt_at: null,
        delivered_at: '2026-11-28T10:05:01.000Z',
        attempts: [ATTEMPT_EXAMPLE],
        created_at: '2026-11-28T10:05:00.000Z',
      },
    ],
  });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional().describe('From the `Link` header of the previous page.'),
});

/** A booking as an event shows it: its public fields, without the card's brand and last four. */
export const WebhookBooking = Booking.omit({ card_brand: true, card_last4: true });
export type WebhookBooking = z.infer<typeof WebhookBooking>;

export const BookingEventData = z
  .object({
    booking: WebhookBooking,
    metadata: z.record(z.string(), z.string()).describe('The metadata you gave the booking (a checkout’s booking: `iata_code` and `checkout_session_id`).'),
    failure: z.object({ code: z.string(), message: z.string() }).nullable().describe('booking.failed: why, as the booking request was answered.'),
    cancellation: z
      .object({ reason: z.string().nullable(), refund_amount: z.number().nullable(), refund_currency: z.string().nullable(), cancelled_at: dateTime })
      .nullable()
      .describe('booking.cancelled and booking.hold_expired: when, why, and what was refunded.'),
  })
  .meta({ id: 'BookingEventData' });
export type BookingEventData = z.infer<typeof BookingEventData>;

export const CheckoutEventData = z.object({ checkout_session: CheckoutSession }).meta({ id: 'CheckoutEventData' });
export type CheckoutEventData = z.infer<typeof CheckoutEventData>;

/** The body of every delivery. */
export const WebhookEventBody = z
  .object({
    type: z.string().describe(`One of ${WEBHOOK_EVENT_TYPES.join(', ')}; or ${TEST_EVENT_TYPE} from a test.`),
    timestamp: dateTime.describe('When the event happened (the same on every attempt; `webhook-timestamp` is the attempt’s).'),
    data: z.union([BookingEventData, CheckoutEventData, z.object({ endpoint_id: z.uuid(), message: z.string() })]),
  })
  .meta({ id: 'WebhookEventBody' });
