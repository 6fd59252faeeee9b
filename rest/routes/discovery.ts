/**
 * OAuth protected-resource metadata (RFC 9728): how a client that knows only a URL of ours finds the
 * authorization server and the scopes to ask for. One document for the REST API (the origin) and one for
 * the tool endpoint (`/v1/mcp`); each names its resource exactly as clients must send it in `resource`.
 * Both list the ten only: `loyalty.read` (decisions §5) belongs to the identity surface, whose routes take
 * client credentials, not a token, so an agent reading this metadata is never led to ask for it.
 */
import { z } from 'zod';
import { SCOPE_NAMES } from '../../core/scopes.js';
import { defineRoute, type Route } from '../route-table.js';

const ProtectedResourceMetadata = z
  .object({
    resource: z.string().describe('The resource identifier: the audience of tokens for it.'),
    authorization_servers: z.array(z.string()),
    scopes_supported: z
      .array(z.string())
      .describe('The ten scopes that this resource’s routes or tools check. The authorization server’s metadata also lists `loyalty.read`, which no token-checked route uses: it governs what `/v1/identity/resolve` discloses.'),
    bearer_methods_supported: z.array(z.string()),
    resource_name: z.string(),
    resource_documentation: z.string().optional(),
  })
  .meta({
    id: 'ProtectedResourceMetadata',
    examples: [
      {
        resource: 'https://api.example.com/v1/mcp',
        authorization_servers: ['https://api.example.com'],
        scopes_supported: [...SCOPE_NAMES],
        bearer_methods_supported: ['header'],
        resource_name: 'Travel Partner agent tools',
        resource_documentation: 'https://api.example.com/docs',
      },
    ],
  });

export function discoveryRoutes(deps: { baseUrl: string; authUrl: string }): Route[] {
  const metadata = (resource: string, name: string) => ({
    resource,
    authorization_servers: [deps.authUrl],
    scopes_supported: [...SCOPE_NAMES],
    bearer_methods_supported: ['header'],
    resource_name: name,
    resource_documentation: `${deps.baseUrl}/docs`,
  });
  // Public, cacheable, and readable by browser-based clients of any origin.
  const headers = { 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' };
  return [
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource',
      operationId: 'getApiResourceMetadata',
      summary: 'Protected-resource metadata of the REST API (RFC 9728)',
      description:
        'Which authorization server issues tokens for the REST API, the scopes it knows, and `resource`: the audience of its tokens (the API’s origin). No credentials; cacheable for an hour, readable from any origin.',
      tags: ['Discovery'],
      auth: 'none',
      responses: { 200: { description: 'The metadata.', schema: ProtectedResourceMetadata } },
      handler: () => ({ headers, body: metadata(deps.baseUrl, 'Travel Partner API') }),
    }),
    defineRoute({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource/v1/mcp',
      operationId: 'getToolEndpointResourceMetadata',
      summary: 'Protected-resource metadata of the agent tool endpoint (RFC 9728)',
      description:
        'What an MCP client reads after the tool endpoint’s 401 (its `WWW-Authenticate` names this document): the authorization server, the scopes, and `resource`, exactly the endpoint’s URL, to send as `resource` when asking for a token. No credentials.',
      tags: ['Discovery'],
      auth: 'none',
      responses: { 200: { description: 'The metadata.', schema: ProtectedResourceMetadata } },
      handler: () => ({ headers, body: metadata(`${deps.baseUrl}/v1/mcp`, 'Travel Partner agent tools') }),
    }),
  ];
}
