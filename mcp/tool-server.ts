/**
 * The MCP servers that answer tools/list and tools/call, one per request (the SDK's server factory). The
 * SDK's low-level Server is the protocol engine (discover or initialize, the eras, the envelope, the
 * multi-round-trip seam) with our own two handlers: our tools validate input with core's schemas and
 * answer errors in our words, their JSON Schemas are computed once at start rather than on every
 * tools/list, and what a tool returns is already typed by core, so it is not validated a second time.
 *
 * A fresh Server costs about 3 µs (measured: the SDK builds its validator lazily, and we never validate
 * with it), so unlike the v1 SDK's, servers are not pooled: a pooled one would carry a request's era and
 * client identity into the next.
 */
import { Server, SUPPORTED_PROTOCOL_VERSIONS, type CallToolRequest, type CallToolResult, type InputRequiredResult, type McpRequestContext, type ServerContext, type Tool as ListedTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ConfirmationRequiredError, InsufficientScopeError, NotFoundError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { parseOrThrow } from '../core/validation.js';
import type { CallExtra } from './inbound-call.js';
import type { ConfirmationPrompts } from './purchase-confirmation.js';
import type { Tool, ToolServices } from './tool.js';
import { confirmationDeclined, toolError } from './tool-errors.js';
import { MODERN_REVISION } from './modern-exchange.js';

export const SERVER_INFO = { name: 'travel-partner', title: 'Travel Partner', version: '1.0.0' };

/**
 * The revisions a server of each era lists. A modern one lists the revision it serves after the SDK's own
 * (2025-era) list, which is what the SDK's handler makes of it before serving (and what `server/discover`
 * names); listed from the start, connecting it to our own exchange binds it to that revision
 * (modern-exchange.ts). A 2025-era server keeps the SDK's list: `initialize` must never offer a 2026 one.
 */
const REVISIONS = { legacy: SUPPORTED_PROTOCOL_VERSIONS, modern: [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION] };

const INSTRUCTIONS =
  'Flight search and booking for a signed-in traveler. Start with search_flights, turn a result into an offer with create_offer, ' +
  'then read it (get_offer_details, get_bags, get_seat_map) and give passenger details (update_passenger). Book it with create_booking ' +
  '(with an idempotency_key of your own, so a retry never books twice) once the traveler agreed to the total, and read it back with ' +
  'get_booking. Before any card is charged the traveler confirms the purchase on our page: where your client opens URLs for the ' +
  'user the call asks for that itself; otherwise it answers an error with needs_user and the confirmation_url to show them. Every answer states ' +
  'amounts as decimal strings in the currency named beside them. Errors name a code, what to do next, whether retrying or the traveler can help, and a doc_url.';

export interface ToolServerDeps {
  services: ToolServices;
  logger: Logger;
  /** The service's public origin (BASE_URL), where the error docs are. */
  docsOrigin: string;
  confirmations: ConfirmationPrompts;
}

export class ToolServers {
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #listed: ListedTool[];

  constructor(
    tools: Tool[],
    private readonly deps: ToolServerDeps,
  ) {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.#listed = tools.map(listing);
  }

  /** The scopes a tool needs, or undefined for a name that is no tool of ours. */
  scopesOf(name: string): readonly string[] | undefined {
    return this.#tools.get(name)?.scopes;
  }

  /** The SDK's server factory: a server for one request of one era. */
  readonly create = ({ era }: Pick<McpRequestContext, 'era'>): Server => {
    const server = new Server(SERVER_INFO, {
      supportedProtocolVersions: REVISIONS[era],
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      // Tampered, expired or another principal's state never reaches the handler: the SDK answers -32602.
      requestState: { verify: this.deps.confirmations.verify },
      // A 2025-11-25 request is stateless here: no session to push an elicitation over, so no shim.
      inputRequired: { legacyShim: false },
    });
    server.setRequestHandler('tools/list', () => ({ tools: this.#listed }));
    server.setRequestHandler('tools/call', (request, ctx) => this.#call(request, ctx, era));
    return server;
  };

  async #call(request: CallToolRequest, ctx: ServerContext, era: McpRequestContext['era']): Promise<CallToolResult | InputRequiredResult> {
    const { name, arguments: args = {} } = request.params;
    const extra = ctx.http?.authInfo?.extra as CallExtra;
    const actor = extra.actor;
    const errorContext = { logger: this.deps.logger, tool: name, requestId: extra.requestId, docsOrigin: this.deps.docsOrigin };
    const confirmations = this.deps.confirmations;
    // Outside the try: state minted for another call is a protocol error (-32602), not a tool's.
    const reentry = confirmations.reentry(name, args, ctx);
    try {
      const tool = this.#tools.get(name);
      if (!tool) {
        throw new NotFoundError(`There is no tool ${name}: call tools/list for the tools this server has.`, 'tool_not_found');
      }
      // The endpoint refuses these at the HTTP level already (403, so that a client can step up).
      const missing = tool.scopes.find((scope) => actor.scopes && !actor.scopes.has(scope));
      if (missing) throw new InsufficientScopeError(missing);
      if (reentry.kind === 'declined') throw confirmationDeclined();
      const given = reentry.kind === 'confirm' ? { ...args, confirmation_id: reentry.confirmationId } : args;
      const input = parseOrThrow(tool.input, given);
      const output = await tool.run(input, { actor, owner: { userId: actor.userId, partnerId: actor.partnerId, door: 'tools' }, services: this.deps.services });
      const text = JSON.stringify(output);
      // The answer writes this text as the structured content's JSON too (inbound-call.ts): serialized once.
      extra.outputText = text;
      return { content: [{ type: 'text', text }], structuredContent: output as Record<string, unknown> };
    } catch (error) {
      if (error instanceof ConfirmationRequiredError && confirmations.canElicitUrl(era, ctx)) return confirmations.ask(error, name, args, ctx);
      return toolError(error, errorContext);
    }
  }
}

/** What tools/list says of a tool: computed once. */
function listing(tool: Tool): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(tool.output, 'output'),
    annotations: { title: tool.title, ...tool.hints },
  };
}

/**
 * A tool's schema as JSON Schema. MCP wants an object at the root: a schema registered under an id
 * (`.meta({id})`, such as Offer) comes out as a reference into `$defs`, so the root takes its place.
 */
function jsonSchema(schema: z.ZodObject, io: 'input' | 'output') {
  // The schemas' examples (written for the API reference) help an agent write arguments; in an answer's
  // schema they would only cost it tokens on every tools/list, and the Offer's shows a raw_offer tools leave out.
  const override = io === 'output' ? (context: { jsonSchema: { examples?: unknown } }) => void delete context.jsonSchema.examples : undefined;
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', override }) as Record<string, unknown> & { $ref?: string; $defs?: Record<string, object> };
  const root = json.$ref?.startsWith('#/$defs/') ? json.$defs?.[json.$ref.slice('#/$defs/'.length)] : undefined;
  return (root ? { ...root, $defs: json.$defs } : json) as ListedTool['inputSchema'];
}
