/** Codes of the webhook routes (decisions §14): an endpoint or delivery unknown, disabled, or one too many. */
import type { ErrorGroup } from './entry.js';

export const WEBHOOK_ERRORS: readonly ErrorGroup[] = [
  {
    title: 'Webhook endpoints',
    summary: 'Registering and managing where events are sent: the endpoint or delivery named is not yours, the endpoint is disabled, or you have as many as a partner may.',
    entries: {
      webhook_endpoint_not_found: {
        status: 404,
        title: 'No such webhook endpoint',
        help: 'There is no webhook endpoint with this id among yours (another partner’s is answered alike), or it was deleted. `GET /v1/webhooks` lists yours.',
        retryable: false,
        needsUser: false,
      },
      webhook_delivery_not_found: {
        status: 404,
        title: 'No such webhook delivery',
        help: 'The endpoint has no delivery with this id. `GET /v1/webhooks/{id}/deliveries` lists its deliveries, newest first.',
        retryable: false,
        needsUser: false,
      },
      webhook_endpoint_disabled: {
        status: 409,
        title: 'The webhook endpoint is disabled',
        help: 'Nothing is sent to a disabled endpoint: it answered 410 Gone, or every delivery to it failed for five days (`disabled_reason` says which). Once the URL answers with 2xx, delete the endpoint and register the URL again.',
        retryable: false,
        needsUser: false,
      },
      webhook_endpoint_limit: {
        status: 422,
        title: 'Too many webhook endpoints',
        help: 'A partner may register at most 16 webhook endpoints. Delete one you no longer use (`DELETE /v1/webhooks/{id}`), or have one endpoint listen to more event types.',
        retryable: false,
        needsUser: false,
      },
    },
  },
];
