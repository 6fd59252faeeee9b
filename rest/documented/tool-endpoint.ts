/**
 * The agent tool endpoint, `POST /v1/mcp`, as the API reference shows it. mcp/endpoint.ts serves it (the
 * MCP SDK's Streamable HTTP transport behind our checks), not the route table: this is its documentation
 * only, handed to the document by the composition root. The JSON-RPC shapes here describe the messages;
 * the SDK parses them itself.
 */
import { z } from 'zod';
import { OFFER_EXAMPLE } from '../../core/flights/offer-examples.js';
import { OAuthError } from '../../core/oauth/schemas.js';
import { ERROR_EXAMPLES, ErrorResponse } from '../envelopes.js';
import type { DocumentedOperation, NamedExample, ResponseSpec } from '../route-table.js';

const PROTOCOL_VERSION = '2025-11-25';
const OFFER_ID = OFFER_EXAMPLE.id;

const JsonRpcRequest = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional().describe('Absent on a notification, which is answered 202 without a body.'),
    method: z.string().describe('`initialize`, `tools/list`, `tools/call`, `ping`, or a notification such as `notifications/initialized`.'),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: 'JsonRpcRequest',
    description: `One JSON-RPC 2.0 message: revision ${PROTOCOL_VERSION} of MCP has no batches.`,
    examples: [{ jsonrpc: '2.0', id: 5, method: 'ping' }],
  });

const JsonRpcResponse = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z
      .object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() })
      .optional()
      .describe('-32700 unreadable JSON, -32600 not one message, -32601 unknown method, -32602 bad params, -32603 internal, -32000 refused by the transport.'),
  })
  .meta({ id: 'JsonRpcResponse', description: 'The answer to a request: its `result`, or an `error`.', examples: [{ result: {}, jsonrpc: '2.0', id: 5 }] });

const ToolEndpointError = z
  .object({ code: z.string(), message: z.string() })
  .meta({
    id: 'ToolEndpointError',
    description: 'A refusal before any JSON-RPC is read: what to change, in words.',
    examples: [{ code: 'origin_not_allowed', message: "Call the tool endpoint at https://api.example.com/v1/mcp, not through another host name or from another site's page." }],
  });

const INTERNAL = ERROR_EXAMPLES[500] as { code: string; message: string; request_id: string };

const example = (summary: string, value: unknown): NamedExample => ({ summary, value });
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });
const rpcErrors = (description: string, examples: Record<string, NamedExample>): ResponseSpec => ({ description, schema: JsonRpcResponse, examples });

/** What get_offer_details answers: the offer without the provider's native copy. */
const { raw_offer: _native, ...agentOffer } = OFFER_EXAMPLE;

const requests = {
  initialize: example('Start: the client says what it speaks', {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'trip-planner', version: '1.4.0' } },
  }),
  tools_list: example('List the tools', { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  tools_call: example('Call a tool', {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'get_offer_details', arguments: { provider_id: 'provider_b', offer_id: OFFER_ID } },
  }),
};

const answers = {
  initialize: example('The server and its instructions', {
    result: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'travel-partner', title: 'Travel Partner', version: '1.0.0' },
      instructions:
        'Flight search and booking for a signed-in traveler. Start with search_flights, turn a result into an offer with create_offer, then read it (get_offer_details, get_bags, get_seat_map) and give passenger details (update_passenger). Every answer states amounts as decimal strings in the currency named beside them. Errors name a code and what to do next.',
    },
    jsonrpc: '2.0',
    id: 1,
  }),
  tools_call: example('A tool’s answer: as text and as structured content', {
    result: { content: [{ type: 'text', text: JSON.stringify(agentOffer) }], structuredContent: agentOffer },
    jsonrpc: '2.0',
    id: 3,
  }),
  tool_error: example('A tool’s error: a result with isError, saying what to do next', {
    result: {
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            error: {
              code: 'offer_expired',
              message: 'This offer expired at 2027-02-18T09:30:00.000Z: search again or ask the provider for a new offer.',
            },
          }),
        },
      ],
      isError: true,
    },
    jsonrpc: '2.0',
    id: 3,
  }),
  method_not_found: example('An unknown method', { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found' } }),
};

export function toolEndpointOperations(): DocumentedOperation[] {
  return [
    {
      method: 'POST',
      path: '/v1/mcp',
      operationId: 'callTools',
      summary: 'The agent tool endpoint (MCP, Streamable HTTP)',
      description: `The Model Context Protocol endpoint (revision ${PROTOCOL_VERSION}) for AI agents: paste its URL into an MCP client. Stateless: each request is a POST of one JSON-RPC message, answered in JSON (any instance answers any request; GET and DELETE are 405). \`tools/list\` answers each tool with its input and output JSON Schemas; \`tools/call\` runs one. It takes the traveler's bearer token only, issued for this endpoint: ask for it with \`resource=<BASE_URL>/v1/mcp\`, so that its audience is the endpoint (a REST API token is refused here). Without a valid token the answer is 401 with \`WWW-Authenticate: Bearer resource_metadata="<BASE_URL>/.well-known/oauth-protected-resource/v1/mcp"\`, from which a client finds the authorization server. A tool whose scope the token lacks is 403 \`insufficient_scope\` before it runs; \`tools/list\` needs no scope. One traveler's agent may send 120 requests a minute.`,
      tags: ['Agent tools'],
      security: [{ ToolEndpointOAuth2: [] }],
      headers: {
        Accept: { description: 'Must accept both `application/json` and `text/event-stream` (406 otherwise).', required: true, example: 'application/json, text/event-stream' },
        'MCP-Protocol-Version': { description: 'The revision agreed in `initialize`, on every later request.', required: false, example: PROTOCOL_VERSION },
      },
      body: { 'application/json': { schema: JsonRpcRequest, examples: requests } },
      responses: {
        200: { description: 'The JSON-RPC answer.', schema: JsonRpcResponse, examples: answers },
        202: { description: 'A notification (a message without `id`) was taken: no body.' },
        400: rpcErrors('Not one readable JSON-RPC message, or a protocol version the server does not speak.', {
          batch: example('An array of messages', rpcError(-32600, `Send one JSON-RPC message per request: this protocol revision (${PROTOCOL_VERSION}) has no batches.`)),
          invalid_json: example('Not JSON', rpcError(-32700, 'The body is not valid JSON.')),
          tool_params: example(
            'A tools/call without a tool name',
            rpcError(-32602, 'A tools/call names its tool in params.name and passes params.arguments as an object: see tools/list.'),
          ),
          protocol_version: example(
            'An unknown MCP-Protocol-Version',
            rpcError(-32000, 'Bad Request: Unsupported protocol version: 2023-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)'),
          ),
        }),
        401: {
          description: 'No token, or one that is not valid for this endpoint (expired, or issued for the REST API).',
          schema: OAuthError,
          headers: {
            'WWW-Authenticate':
              'The challenge that leads to the metadata: `Bearer resource_metadata="<BASE_URL>/.well-known/oauth-protected-resource/v1/mcp", scope="bookings.write"`, with `error="invalid_token"` when a token was sent.',
          },
          examples: {
            missing: example('No token', { error: 'invalid_token', error_description: 'Send an access token issued for this endpoint (resource parameter: its URL).' }),
            wrong_audience: example('A REST API token', {
              error: 'invalid_token',
              error_description: 'The access token is not valid for this API (signature, issuer or audience): obtain a new one through the authorization flow.',
            }),
          },
        },
        403: {
          description: 'The tool needs a scope the token lacks (ask the traveler again for it), or the request came through another host name or from another site’s page.',
          schema: z.union([OAuthError, ToolEndpointError]),
          headers: {
            'WWW-Authenticate': 'On `insufficient_scope`: `Bearer error="insufficient_scope", scope="bookings.write", resource_metadata="<BASE_URL>/.well-known/oauth-protected-resource/v1/mcp"`.',
          },
          examples: {
            insufficient_scope: example('The token lacks the tool’s scope', {
              error: 'insufficient_scope',
              error_description: 'This tool needs the "bookings.write" scope: authorize again asking for it.',
              scope: 'bookings.write',
            }),
            origin_not_allowed: example('Another host or origin', {
              code: 'origin_not_allowed',
              message: "Call the tool endpoint at https://api.example.com/v1/mcp, not through another host name or from another site's page.",
            }),
          },
        },
        406: rpcErrors('The Accept header does not take both JSON and an event stream.', {
          not_acceptable: example('Accept: application/json only', {
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' },
            id: null,
          }),
        }),
        413: rpcErrors('The message is larger than 1 MiB.', { too_large: example('Too large', rpcError(-32600, 'The message is larger than 1 MiB.')) }),
        415: rpcErrors('The body is not JSON.', {
          not_json: example('Another Content-Type', rpcError(-32700, 'Send JSON-RPC messages as Content-Type: application/json.')),
        }),
        429: {
          description:
            'An `x-api-key` header was sent, even an empty one (keyed traffic is throttled to zero here: `Retry-After: 86400`, and no wait helps; send the bearer token only), or this agent sent more than 120 requests in a minute (`Retry-After`).',
          schema: ToolEndpointError,
          headers: {
            'Retry-After': 'Seconds to wait: until the agent may go on, or 86400 for a request carrying an API key, which never passes.',
            'RateLimit-Policy': 'With an API key: `"api_key";q=0;w=86400`, a quota of zero.',
            RateLimit: 'With an API key: `"api_key";r=0;t=86400`.',
          },
          examples: {
            api_key_not_allowed: example('An API key was sent', {
              code: 'api_key_not_allowed',
              message:
                'The tool endpoint never takes an API key (keyed traffic is throttled to zero here, so waiting will not help): remove the x-api-key header and send only the traveler’s access token, as Authorization: Bearer <token>.',
            }),
            too_many_requests: example('Too fast', {
              code: 'too_many_requests',
              message: "This agent is sending the traveler's requests too fast: wait 12 s, then go on more slowly.",
            }),
          },
        },
        500: {
          description: 'An unexpected error; quote the request id to support.',
          schema: ErrorResponse,
          examples: { internal_error: example('internal_error', { message: INTERNAL.message, status_code: 500, code: INTERNAL.code, request_id: INTERNAL.request_id }) },
        },
        504: rpcErrors('The request ran past two minutes and was given up.', {
          timeout: example('Given up', rpcError(-32603, 'The request took too long and was given up: try again in a moment.')),
        }),
      },
    },
  ];
}
