import type { ProviderCatalog } from '../../core/flights/provider-catalog.js';
import { z } from 'zod';
import { Provider, ProviderCapabilities, ProviderPathParams } from '../../core/flights/schemas.js';
import { defineRoute, JSON_TEXT, type Route } from '../route-table.js';

export function flightProviderRoutes(deps: { providers: ProviderCatalog }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/flights/providers',
      operationId: 'listProviders',
      summary: 'The flight providers',
      description: 'Every provider with its capabilities, by priority (lower first). Needs the API key and any valid traveler token.',
      tags: ['Flights'],
      auth: 'api_key_and_bearer',
      responses: { 200: { description: 'The providers.', schema: z.array(Provider) } },
      handler: () => ({ body: [...deps.providers.list()].sort((a, b) => a.priority - b.priority) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/flights/providers/{provider}/capabilities',
      operationId: 'getProviderCapabilities',
      summary: "A provider's capabilities",
      description:
        'What the provider can do: whether it needs a separate pricing step, supports seat selection, holds, refunds, and its timeouts. Read it at runtime to decide which steps apply. API key only.',
      tags: ['Flights'],
      auth: 'api_key',
      params: ProviderPathParams,
      responses: { 200: { description: 'The capabilities of the provider.', schema: ProviderCapabilities } },
      errors: [404],
      errorExamples: {
        404: {
          code: 'provider_not_found',
          message: 'There is no flight provider "provider_x". Known providers: provider_a, provider_b, provider_c, provider_d, provider_e.',
        },
      },
      // Sent as the catalog wrote it once: the route is on every client's hot path.
      handler: ({ params }) => ({ body: deps.providers.capabilitiesJson(params.provider), headers: JSON_TEXT }),
    }),
  ];
}
