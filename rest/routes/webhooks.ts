/**
 * Webhook endpoints (decisions §14): a partner's backend registers where events go, reads the delivery
 * log, sends a delivery again, and sends itself a test event. The secret key only.
 */
import { z } from 'zod';
import type { PartnerIdentity } from '../../core/partners/schemas.js';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointRequest,
  WEBHOOK_EVENT_TYPES,
  WebhookDelivery,
  WebhookDeliveryPath,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookPath,
} from '../../core/webhooks/schemas.js';
import type { WebhookService } from '../../core/webhooks/service.js';
import { defineRoute, type ErrorExample, type Route } from '../route-table.js';

const ENDPOINT_ID = '6f1d2c3b-4a59-4e87-9c1b-2d3e4f5a6b7c';

const PROBLEMS = {
  notFound: { code: 'webhook_endpoint_not_found', message: `There is no webhook endpoint ${ENDPOINT_ID} of yours: list yours with GET /v1/webhooks.` },
  deliveryNotFound: {
    code: 'webhook_delivery_not_found',
    message: `There is no delivery 0b7e3c1d-2f4a-4b6c-8d9e-1a2b3c4d5e6f to webhook endpoint ${ENDPOINT_ID}: list its deliveries with GET /v1/webhooks/${ENDPOINT_ID}/deliveries.`,
  },
  disabled: {
    code: 'webhook_endpoint_disabled',
    message: `Webhook endpoint ${ENDPOINT_ID} was disabled at 2026-11-28T10:00:00.000Z because it answered 410 Gone: nothing is sent to it. Once the URL answers, delete the endpoint and register the URL again.`,
  },
  limit: { code: 'webhook_endpoint_limit', message: 'You have 16 webhook endpoints, the most a partner may have: delete one you no longer use first.' },
} satisfies Record<string, ErrorExample>;

const SIGNING = [
  'Every delivery is a POST of JSON `{type, timestamp, data}`, signed per [Standard Webhooks](https://www.standardwebhooks.com/): `webhook-id` (the event’s id: drop a repeat you already handled), `webhook-timestamp` (the attempt’s, in seconds: refuse one more than five minutes off), and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the base64 after `whsec_` in your secret. Any Standard Webhooks library verifies it.',
  `Events: ${WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}. \`data\` holds the booking’s public fields (never a card’s details or a passenger’s documents), or the checkout session. Delivery is at least once and unordered: answer 2xx within 15 seconds and do the work afterwards.`,
  'A failed attempt (no 2xx in time) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. An answer of 410 Gone disables the endpoint at once; so do five days in which every delivery failed.',
].join('\n\n');

export function webhookRoutes(deps: { webhooks: WebhookService; baseUrl: string }): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/webhooks',
      operationId: 'createWebhookEndpoint',
      summary: 'Register a webhook endpoint',
      description: [
        'Registers `url` for the event types in `events`. The answer carries the endpoint’s signing `secret`, shown this once: keep it with your backend’s other secrets.',
        'The URL must be https on a host whose addresses are all public (the sandbox also takes http to a loopback address, for a receiver on your machine); it is checked again before every delivery, the connection goes only to the address checked, and redirects are not followed. A URL that does not qualify is 400, naming why. At most 16 endpoints (422 `webhook_endpoint_limit`).',
        SIGNING,
      ].join('\n\n'),
      tags: ['Webhooks'],
      auth: 'api_key',
      body: CreateWebhookEndpointRequest,
      status: 201,
      responses: { 201: { description: 'The endpoint, with its secret (shown once).', schema: CreatedWebhookEndpoint } },
      errors: [400, 422],
      errorExamples: { 422: PROBLEMS.limit },
      handler: async ({ body, partner }) => ({ body: await deps.webhooks.create((partner as PartnerIdentity).partnerId, body) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/webhooks',
      operationId: 'listWebhookEndpoints',
      summary: 'Your webhook endpoints',
      description: 'Newest first; never their secrets. A disabled endpoint says why (`disabled_reason`).',
      tags: ['Webhooks'],
      auth: 'api_key',
      responses: { 200: { description: 'The endpoints.', schema: z.array(WebhookEndpoint) } },
      handler: async ({ partner }) => ({ body: await deps.webhooks.list((partner as PartnerIdentity).partnerId) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/webhooks/{id}',
      operationId: 'getWebhookEndpoint',
      summary: 'A webhook endpoint',
      description: 'Your own only: another partner’s endpoint is the same 404 as an unknown one.',
      tags: ['Webhooks'],
      auth: 'api_key',
      params: WebhookPath,
      responses: { 200: { description: 'The endpoint.', schema: WebhookEndpoint } },
      errors: [404],
      errorExamples: { 404: PROBLEMS.notFound },
      handler: async ({ params, partner }) => ({ body: await deps.webhooks.get((partner as PartnerIdentity).partnerId, params.id) }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/webhooks/{id}',
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description: 'Nothing more is sent to it, retries due included; its delivery log goes with it.',
      tags: ['Webhooks'],
      auth: 'api_key',
      params: WebhookPath,
      status: 204,
      responses: { 204: { description: 'Deleted.' } },
      errors: [404],
      errorExamples: { 404: PROBLEMS.notFound },
      handler: async ({ params, partner }) => {
        await deps.webhooks.delete((partner as PartnerIdentity).partnerId, params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/webhooks/{id}/test',
      operationId: 'testWebhookEndpoint',
      summary: 'Send a test event to a webhook endpoint',
      description:
        'Sends a `webhook.test` event to this endpoint now, signed like every other, and answers the delivery with the attempt’s outcome (`status_code`, `error`). A failed test is not retried. A disabled endpoint is 409 `webhook_endpoint_disabled`.',
      tags: ['Webhooks'],
      auth: 'api_key',
      params: WebhookPath,
      responses: { 200: { description: 'The test delivery, after its attempt.', schema: WebhookDelivery } },
      errors: [404, 409],
      errorExamples: { 404: PROBLEMS.notFound, 409: PROBLEMS.disabled },
      handler: async ({ params, partner }) => ({ body: await deps.webhooks.test((partner as PartnerIdentity).partnerId, params.id) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/webhooks/{id}/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log of a webhook endpoint',
      description:
        'Newest first, `limit` a page (default 20, at most 100), each delivery with its latest attempts: when, why (`trigger`), the status your endpoint answered, and what went wrong. The next page is in the `Link` header (`rel="next"`).',
      tags: ['Webhooks'],
      auth: 'api_key',
      params: WebhookPath,
      query: WebhookDeliveryQuery,
      responses: {
        200: {
          description: 'The deliveries.',
          schema: z.array(WebhookDelivery),
          headers: { Link: 'The next page: `<https://.../v1/webhooks/{id}/deliveries?limit=20&cursor=...>; rel="next"`, when there is one.' },
        },
      },
      errors: [400, 404],
      errorExamples: { 404: PROBLEMS.notFound },
      handler: async ({ params, query, partner }) => {
        const { deliveries, next } = await deps.webhooks.deliveries((partner as PartnerIdentity).partnerId, params.id, query);
        if (!next) return { body: deliveries };
        const url = new URL(`${deps.baseUrl}/v1/webhooks/${params.id}/deliveries`);
        url.searchParams.set('limit', String(query.limit));
        url.searchParams.set('cursor', next);
        return { body: deliveries, headers: { Link: `<${url.href}>; rel="next"` } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
      operationId: 'retryWebhookDelivery',
      summary: 'Send a delivery again',
      description:
        'Sends the delivery’s event to the endpoint again now, with the same `webhook-id` (your receiver drops it if it handled it already), and answers the delivery with this attempt’s outcome. Succeeded or failed before, it is sent all the same; a delivery still on its retry schedule keeps it should this attempt fail. A disabled endpoint is 409 `webhook_endpoint_disabled`.',
      tags: ['Webhooks'],
      auth: 'api_key',
      params: WebhookDeliveryPath,
      responses: { 200: { description: 'The delivery, after this attempt.', schema: WebhookDelivery } },
      errors: [404, 409],
      errorExamples: { 404: PROBLEMS.deliveryNotFound, 409: PROBLEMS.disabled },
      handler: async ({ params, partner }) => ({ body: await deps.webhooks.retry((partner as PartnerIdentity).partnerId, params.id, params.delivery_id) }),
    }),
  ];
}
