/**
 * The MCP SDK (v2) behind our checks, serving both revisions on one URL, statelessly. The SDK's own
 * classifier (the step `createMcpHandler` and `isLegacyRequest` run) decides which leg a request takes,
 * once, so the routing never disagrees with the SDK's:
 *
 * - 2025-11-25 and older (`initialize`, no envelope): stateless legacy serving, as the SDK's
 *   `legacy: 'stateless'` posture does it (a fresh server from our factory, no session), answered in
 *   JSON rather than an event stream: what 2025 clients got from this endpoint before, and cheaper
 *   (legacy-exchange.ts).
 * - 2026-07-28 (every request carries its `_meta` envelope; `server/discover` instead of `initialize`):
 *   a tool call the SDK's handler would serve as it is, in one exchange of our own that answers the
 *   JSON-RPC message (modern-exchange.ts); anything else (other methods, notifications, the refusals of
 *   the SDK's validation ladder) through the SDK's `createMcpHandler`, each request answered by a fresh
 *   server from the same factory.
 *
 * Every leg takes the message we already parsed and checked (no second read of the body) and the
 * verified token as `authInfo`.
 */
import { classifyInboundRequest, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from '../core/logger.js';
import type { InboundCall, JsonAnswer } from './inbound-call.js';
import { serveLegacy } from './legacy-exchange.js';
import { canServeModern, serveModern } from './modern-exchange.js';
import type { ToolServers } from './tool-server.js';

/**
 * An answer in JSON (`contentType` when it is not Koa's default for JSON), or the SDK handler's web
 * Response.
 */
export type ProtocolAnswer = ({ kind: 'json'; contentType?: string } & JsonAnswer) | { kind: 'web'; response: Response };

export class ProtocolHandler {
  readonly #modern: McpHttpHandler;
  readonly #isTool: (name: string) => boolean;

  constructor(
    private readonly servers: ToolServers,
    logger: Logger,
  ) {
    // Reports the requests the SDK refused (a revision it does not serve, a header that contradicts the body):
    // client mistakes, answered to the client; worth a debug line, not a warning.
    const onerror = (error: Error) => logger.debug({ err: error.message }, 'MCP request refused by the SDK');
    this.#modern = createMcpHandler(servers.create, { legacy: 'reject', onerror });
    this.#isTool = (name) => servers.scopesOf(name) !== undefined;
  }

  async handle(call: InboundCall): Promise<ProtocolAnswer> {
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: call.header('mcp-protocol-version'),
      mcpMethodHeader: call.header('mcp-method'),
      mcpNameHeader: call.header('mcp-name'),
      body: call.message,
    });
    if (route.kind === 'legacy') return { kind: 'json', ...(await serveLegacy(this.servers.create({ era: 'legacy' }), call)) };
    if (canServeModern(route, call, this.#isTool)) {
      // The SDK's handler writes its JSON answers as application/json, without a charset.
      return { kind: 'json', contentType: 'application/json', ...(await serveModern(this.servers.create({ era: 'modern' }), route, call)) };
    }
    return { kind: 'web', response: await this.#modern.fetch(call.webRequest(), { authInfo: call.authInfo, parsedBody: call.message }) };
  }
}
