import type { ProviderCatalog } from '../../core/flights/provider-catalog.js';
import { ProviderCapabilities, ProviderPathParams } from '../../core/flights/schemas.js';
import { defineRoute, type Route } from '../route-table.js';

export function flightProviderRoutes(deps: { providers: ProviderCatalog }): Route[] {
  return [
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
      handler: ({ params }) => ({ body: deps.providers.capabilities(params.provider) }),
    }),
  ];
}
