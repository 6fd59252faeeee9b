/**
 * The MCP SDK (v2) behind our checks, serving both revisions on one URL, statelessly:
 *
 * - 2026-07-28 (every request carries its `_meta` envelope; `server/discover` instead of `initialize`):
 *   the SDK's `createMcpHandler`, each request answered by a fresh server from our factory.
 * - 2025-11-25 and older (`initialize`, no envelope): stateless legacy serving, as the SDK's
 *   `legacy: 'stateless'` posture does it (a fresh server from the same factory, no session), answered
 *   in JSON rather than an event stream: what 2025 clients got from this endpoint before, and cheaper
 *   (legacy-exchange.ts). The SDK's own predicate decides which leg a request takes, so the routing never
 *   disagrees with the SDK's.
 *
 * Both legs take the message we already parsed and checked (no second read of the body) and the
 * verified token as `authInfo`.
 */
import { createMcpHandler, isLegacyRequest, PROTOCOL_VERSION_META_KEY, type AuthInfo, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from '../core/logger.js';
import { serveLegacy, type LegacyAnswer } from './legacy-exchange.js';
import type { ToolServers } from './tool-server.js';

const FIRST_MODERN_REVISION = '2026-07-28';

/** The SDK's web Response (2026-07-28), or a 2025-era answer as a status and the JSON-RPC message. */
export type ProtocolAnswer = { era: 'modern'; response: Response } | ({ era: 'legacy' } & LegacyAnswer);

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

  async handle(request: Request, message: unknown, authInfo: AuthInfo): Promise<ProtocolAnswer> {
    if (!claimsModern(request, message) && (await isLegacyRequest(request, message))) {
      return { era: 'legacy', ...(await serveLegacy(this.servers.create({ era: 'legacy' }), request, message, authInfo)) };
    }
    return { era: 'modern', response: await this.#modern.fetch(request, { authInfo, parsedBody: message }) };
  }
}

/**
 * What is certainly no legacy request, without asking the SDK's classifier (which the modern handler runs
 * anyway): one carrying the envelope's protocol version, or a 2026-era MCP-Protocol-Version header. The
 * predicate classifies these as the modern handler's to answer (or refuse) too.
 */
function claimsModern(request: Request, message: unknown): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  if (meta !== null && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta) return true;
  // The SDK's own test of a modern revision: at or after the first one, as strings.
  return (request.headers.get('mcp-protocol-version') ?? '') >= FIRST_MODERN_REVISION;
}
