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

/** The revisions served on the one URL: the current one (stateless), and the last with `initialize`. */
const CURRENT = '2026-07-28';
const PROTOCOL_VERSION = '2025-11-25';
const OFFER_ID = OFFER_EXAMPLE.id;
const REQUEST_ID = '3f1d2c4b-8e7a-4b6c-9d5e-1a2b3c4d5e6f';
const DOCS = 'https://api.example.com/docs/errors';
/** The per-request `_meta` envelope every 2026-07-28 request carries. */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': CURRENT,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'trip-planner', version: '2.0.0' },
};

const JsonRpcRequest = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional().describe('Absent on a notification, which is answered 202 without a body.'),
    method: z
      .string()
      .describe(`${CURRENT}: \`server/discover\`, \`tools/list\`, \`tools/call\`. ${PROTOCOL_VERSION}: \`initialize\`, \`tools/list\`, \`tools/call\`, \`ping\`, or a notification such as \`notifications/initialized\`.`),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(`On ${CURRENT}, every request's \`params._meta\` carries the envelope (protocol version, client capabilities, client info); a retried tools/call also \`inputResponses\` and \`requestState\`.`),
  })
  .meta({
    id: 'JsonRpcRequest',
    description: 'One JSON-RPC 2.0 message: neither revision of MCP served here has batches.',
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
      .describe(
        '-32700 unreadable JSON, -32600 not one message, -32601 unknown method, -32602 bad params (also a tampered, expired or foreign `requestState`), -32603 internal, -32000 refused by the transport, -32020 an MCP header that contradicts the body, -32022 a revision not served. `data.request_id` names the request in our logs.',
      ),
  })
  .meta({ id: 'JsonRpcResponse', description: 'The answer to a request: its `result`, or an `error`.', examples: [{ result: {}, jsonrpc: '2.0', id: 5 }] });

const ToolEndpointError = z
  .object({ code: z.string(), message: z.string(), request_id: z.string().describe('Quote it to support: it names the request in our logs.') })
  .meta({
    id: 'ToolEndpointError',
    description: 'A refusal before any JSON-RPC is read: what to change, in words.',
    examples: [
      { code: 'origin_not_allowed', message: "Call the tool endpoint at https://api.example.com/v1/mcp, not through another host name or from another site's page.", request_id: REQUEST_ID },
    ],
  });

const INTERNAL = ERROR_EXAMPLES[500] as { code: string; message: string; request_id: string };

const SERVER_INFO = { name: 'travel-partner', title: 'Travel Partner', version: '1.0.0' };
const INSTRUCTIONS =
  'Flight search and booking for a signed-in traveler. Start with search_flights, turn a result into an offer with create_offer, then read it (get_offer_details, get_bags, get_seat_map) and give passenger details (update_passenger). Book it with create_booking (with an idempotency_key of your own, so a retry never books twice) once the traveler agreed to the total, and read it back with get_booking. Before any card is charged the traveler confirms the purchase on our page: where your client opens URLs for the user the call asks for that itself; otherwise it answers an error with needs_user and the confirmation_url to show them. Every answer states amounts as decimal strings in the currency named beside them. Errors name a code, what to do next, whether retrying or the traveler can help, and a doc_url.';

const example = (summary: string, value: unknown): NamedExample => ({ summary, value });
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message, data: { request_id: REQUEST_ID } } });
/** A tool error as the text of the result: what an agent reads. */
const toolErrorResult = (error: Record<string, unknown>) => ({ content: [{ type: 'text', text: JSON.stringify({ error }) }], isError: true });
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
  discover: example(`Start on ${CURRENT}: what the server speaks (no initialize)`, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } }),
  tools_list: example('List the tools', { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  tools_call: example('Call a tool', {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'get_offer_details', arguments: { provider_id: 'provider_b', offer_id: OFFER_ID } },
  }),
  confirmed_retry: example(`${CURRENT}: the retry after an input-required answer, with the traveler's answer and the state`, {
    jsonrpc: '2.0',
    id: 4,
    method: 'tools/call',
    params: {
      name: 'create_booking',
      arguments: { provider_id: 'provider_b', offer_id: OFFER_ID, idempotency_key: 'trip-7f3a' },
      inputResponses: { purchase_confirmation: { action: 'accept' } },
      requestState: 'v1.eyJwIjp7ImNvbmZpcm1hdGlvbl9pZCI6ImNmbV8xIn19.c2lnbmF0dXJl',
      _meta: ENVELOPE,
    },
  }),
};

const answers = {
  initialize: example(`${PROTOCOL_VERSION}: the server and its instructions`, {
    result: { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS },
    jsonrpc: '2.0',
    id: 1,
  }),
  discover: example(`${CURRENT}: what the server speaks, its capabilities and instructions`, {
    result: {
      supportedVersions: [CURRENT],
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
    },
    jsonrpc: '2.0',
    id: 1,
  }),
  tools_call: example('A tool’s answer: as text and as structured content', {
    result: { content: [{ type: 'text', text: JSON.stringify(agentOffer) }], structuredContent: agentOffer },
    jsonrpc: '2.0',
    id: 3,
  }),
  tool_error: example('A tool’s error: a result with isError, saying what to do next, whether retrying or the traveler can help, and where it is documented', {
    result: toolErrorResult({
      code: 'offer_expired',
      message: 'This offer expired at 2027-02-18T09:30:00.000Z: search again or ask the provider for a new offer.',
      retryable: false,
      needs_user: false,
      request_id: REQUEST_ID,
      doc_url: `${DOCS}#offer_expired`,
    }),
    jsonrpc: '2.0',
    id: 3,
  }),
  confirmation_required: example(`A purchase the traveler must confirm, to a ${PROTOCOL_VERSION} client (or one that does not open URLs): show them the URL, then call again with confirmation_id`, {
    result: toolErrorResult({
      code: 'confirmation_required',
      message:
        'The traveler must confirm this purchase before any card is charged: show them https://auth.example.com/confirm/cfm_1 (open it in their browser; it expires at 2027-02-18T09:45:00.000Z), then call create_booking again with the same arguments and confirmation_id cfm_1.',
      retryable: false,
      needs_user: true,
      request_id: REQUEST_ID,
      doc_url: `${DOCS}#confirmation_required`,
      confirmation_id: 'cfm_1',
      confirmation_url: 'https://auth.example.com/confirm/cfm_1',
      expires_at: '2027-02-18T09:45:00.000Z',
    }),
    jsonrpc: '2.0',
    id: 4,
  }),
  input_required: example(`The same, to a ${CURRENT} client that declared URL elicitation: it offers the traveler our page, then retries with the state`, {
    result: {
      resultType: 'input_required',
      inputRequests: {
        purchase_confirmation: {
          method: 'elicitation/create',
          params: {
            mode: 'url',
            message:
              'The traveler must confirm this purchase before any card is charged: show them https://auth.example.com/confirm/cfm_1 (open it in their browser; it expires at 2027-02-18T09:45:00.000Z), then call create_booking again with the same arguments and confirmation_id cfm_1.',
            url: 'https://auth.example.com/confirm/cfm_1',
          },
        },
      },
      requestState: 'v1.eyJwIjp7ImNvbmZpcm1hdGlvbl9pZCI6ImNmbV8xIn19.c2lnbmF0dXJl',
    },
    jsonrpc: '2.0',
    id: 4,
  }),
  method_not_found: example('An unknown method', { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found', data: { request_id: REQUEST_ID } } }),
};

export function toolEndpointOperations(): DocumentedOperation[] {
  return [
    {
      method: 'POST',
      path: '/v1/mcp',
      operationId: 'callTools',
      summary: 'The agent tool endpoint (MCP, Streamable HTTP)',
      description: `The Model Context Protocol endpoint for AI agents: paste its URL into an MCP client. It serves revision ${CURRENT} (\`server/discover\`, the \`_meta\` envelope on every request, input-required results) and clients of ${PROTOCOL_VERSION} (\`initialize\`) on the same URL. Stateless: each request is a POST of one JSON-RPC message, answered in JSON (any instance answers any request; GET and DELETE are 405). Tool errors are results with \`isError\` whose text is \`{"error": {code, message, retryable, needs_user, request_id, doc_url, ...}}\`. \`create_booking\` asks the traveler to confirm the purchase on our page first: an input-required result with a URL elicitation to a ${CURRENT} client that declared \`elicitation.url\`, otherwise the error \`confirmation_required\` with \`needs_user\` and \`confirmation_url\`. \`tools/list\` answers each tool with its input and output JSON Schemas; \`tools/call\` runs one. It takes the traveler's bearer token only, issued for this endpoint: ask for it with \`resource=<BASE_URL>/v1/mcp\`, so that its audience is the endpoint (a REST API token is refused here). Without a valid token the answer is 401 with \`WWW-Authenticate: Bearer resource_metadata="<BASE_URL>/.well-known/oauth-protected-resource/v1/mcp"\`, from which a client finds the authorization server. A tool whose scope the token lacks is 403 \`insufficient_scope\` before it runs; \`tools/list\` needs no scope. One traveler's agent may send 120 requests a minute.`,
      tags: ['Agent tools'],
      security: [{ ToolEndpointOAuth2: [] }],
      headers: {
        Accept: { description: 'Must accept both `application/json` and `text/event-stream` (406 otherwise).', required: true, example: 'application/json, text/event-stream' },
        'MCP-Protocol-Version': { description: `${CURRENT}: required on every request. ${PROTOCOL_VERSION}: the revision agreed in \`initialize\`, on every later request.`, required: false, example: CURRENT },
        'Mcp-Method': { description: `${CURRENT}: the request's method, as in the body (required).`, required: false, example: 'tools/call' },
        'Mcp-Name': { description: `${CURRENT}: on tools/call, the tool's name, as in the body.`, required: false, example: 'get_offer_details' },
      },
      body: { 'application/json': { schema: JsonRpcRequest, examples: requests } },
      responses: {
        200: { description: 'The JSON-RPC answer.', schema: JsonRpcResponse, examples: answers },
        202: { description: 'A notification (a message without `id`) was taken: no body.' },
        400: rpcErrors('Not one readable JSON-RPC message, or a protocol version the server does not speak.', {
          batch: example('An array of messages', rpcError(-32600, 'Send one JSON-RPC message per request: MCP (2025-11-25 and 2026-07-28 alike) has no batches.')),
          invalid_json: example('Not JSON', rpcError(-32700, 'The body is not valid JSON.')),
          tool_params: example(
            'A tools/call without a tool name',
            rpcError(-32602, 'A tools/call names its tool in params.name and passes params.arguments as an object: see tools/list.'),
          ),
          protocol_version: example(
            `An unknown MCP-Protocol-Version on a ${PROTOCOL_VERSION} request`,
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
              request_id: REQUEST_ID,
            }),
          },
        },
        406: rpcErrors('The Accept header does not take both JSON and an event stream.', {
          not_acceptable: example(`Accept: application/json only (${PROTOCOL_VERSION})`, rpcError(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream')),
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
              request_id: REQUEST_ID,
            }),
            too_many_requests: example('Too fast', {
              code: 'too_many_requests',
              message: "This agent is sending the traveler's requests too fast: wait 12 s, then go on more slowly.",
              request_id: REQUEST_ID,
            }),
          },
        },
        500: {
          description: 'An unexpected error; quote the request id to support.',
          schema: ErrorResponse,
          examples: { internal_error: example('internal_error', { message: INTERNAL.message, status_code: 500, code: INTERNAL.code, request_id: INTERNAL.request_id, doc_url: `${DOCS}#internal_error` }) },
        },
        504: rpcErrors('The request ran past two minutes and was given up.', {
          timeout: example('Given up', rpcError(-32603, 'The request took too long and was given up: try again in a moment.')),
        }),
      },
    },
  ];
}
