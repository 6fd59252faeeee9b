/**
 * The MCP servers that answer tools/list and tools/call. The SDK's McpServer is used as a protocol
 * engine with our own two handlers, not with its registerTool: our tools validate input with core's
 * schemas and answer errors in our words (a code and what to do next), their JSON Schemas are computed
 * once at start rather than on every tools/list, and what a tool returns is already typed by core, so it
 * is not validated a second time.
 *
 * A server serves one request at a time (the SDK connects it to one transport), and building one costs a
 * validator and the handlers' setup; so servers are pooled and reused, one per request in flight.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest, type Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import type { Actor } from '../core/actor.js';
import { InsufficientScopeError, NotFoundError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { parseOrThrow } from '../core/validation.js';
import type { Tool, ToolServices } from './tool.js';
import { toolError } from './tool-errors.js';

export const SERVER_INFO = { name: 'travel-partner', title: 'Travel Partner', version: '1.0.0' };

const INSTRUCTIONS =
  'Flight search and booking for a signed-in traveler. Start with search_flights, turn a result into an offer with create_offer, ' +
  'then read it (get_offer_details, get_bags, get_seat_map) and give passenger details (update_passenger). Book it with create_booking ' +
  '(with an idempotency_key of your own, so a retry never books twice) once the traveler agreed to the total, and read it back with ' +
  'get_booking. Every answer states ' +
  'amounts as decimal strings in the currency named beside them. Errors name a code and what to do next.';

export class ToolServers {
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #listed: ListedTool[];
  readonly #idle: McpServer[] = [];
  readonly #validator = new AjvJsonSchemaValidator();

  constructor(
    tools: Tool[],
    private readonly deps: { services: ToolServices; logger: Logger; maxIdle?: number },
  ) {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.#listed = tools.map(listing);
  }

  /** The scopes a tool needs, or undefined for a name that is no tool of ours. */
  scopesOf(name: string): readonly string[] | undefined {
    return this.#tools.get(name)?.scopes;
  }

  /** A server for one request; give it back with `release` once its transport is closed. */
  acquire(): McpServer {
    return this.#idle.pop() ?? this.#create();
  }

  release(server: McpServer): void {
    if (this.#idle.length < (this.deps.maxIdle ?? 16)) this.#idle.push(server);
  }

  #create(): McpServer {
    const server = new McpServer(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: this.#validator });
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.#listed }));
    server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => this.#call(request.params.name, request.params.arguments, extra));
    return server;
  }

  async #call(name: string, args: unknown, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<CallToolResult> {
    const actor = extra.authInfo?.extra?.actor as Actor;
    try {
      const tool = this.#tools.get(name);
      if (!tool) {
        throw new NotFoundError(`There is no tool ${name}: call tools/list for the tools this server has.`, 'tool_not_found');
      }
      // The endpoint refuses these at the HTTP level already (403, so that a client can step up).
      const missing = tool.scopes.find((scope) => actor.scopes && !actor.scopes.has(scope));
      if (missing) throw new InsufficientScopeError(missing);
      const input = parseOrThrow(tool.input, args ?? {});
      const output = await tool.run(input, { actor, owner: { userId: actor.userId, partnerId: actor.partnerId, door: 'tools' }, services: this.deps.services });
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output as Record<string, unknown> };
    } catch (error) {
      return toolError(error, { logger: this.deps.logger, tool: name, requestId: extra.authInfo?.extra?.requestId as string | undefined });
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
