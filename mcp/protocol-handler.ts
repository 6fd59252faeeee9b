/**
 * The MCP SDK (v2) behind our checks, serving both revisions on one URL, statelessly:
 *
 * - 2026-07-28 (every request carries its `_meta` envelope; `server/discover` instead of `initialize`):
 *   the SDK's `createMcpHandler`, each request answered by a fresh server from our factory.
 * - 2025-11-25 and older (`initialize`, no envelope): the SDK's stateless legacy serving, as its
 *   `legacy: 'stateless'` posture does it (a fresh server on a transport without sessions, per request),
 *   but answering in JSON rather than an event stream: what 2025 clients got from this endpoint before,
 *   and cheaper (no stream to frame and read back). The SDK's own predicate decides which leg a request
 *   takes, so the routing never disagrees with the SDK's.
 *
 * Both legs take the message we already parsed and checked (no second read of the body) and the
 * verified token as `authInfo`, and answer a web Response.
 */
import { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from '../core/logger.js';
import type { ToolServers } from './tool-server.js';

export class ProtocolHandler {
  readonly #modern: McpHttpHandler;

  constructor(
    private readonly servers: ToolServers,
    logger: Logger,
  ) {
    // Reports the requests the SDK refused (a revision it does not serve, a header that contradicts the body):
    // client mistakes, answered to the client; worth a debug line, not a warning.
    const onerror = (error: Error) => logger.debug({ err: error.message }, 'MCP request refused by the SDK');
    this.#modern = createMcpHandler(servers.create, { legacy: 'reject', onerror });
  }

  async handle(request: Request, message: unknown, authInfo: AuthInfo): Promise<Response> {
    if (await isLegacyRequest(request, message)) return this.#legacy(request, message, authInfo);
    return this.#modern.fetch(request, { authInfo, parsedBody: message });
  }

  async #legacy(request: Request, message: unknown, authInfo: AuthInfo): Promise<Response> {
    const server = this.servers.create({ era: 'legacy' });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: message, authInfo });
    } finally {
      await server.close();
    }
  }
}
