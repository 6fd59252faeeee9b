/**
 * One 2025-era exchange (2025-11-25 and older: `initialize`, no per-request envelope), served statelessly
 * the way the SDK's `legacy: 'stateless'` posture does it (a fresh server per request, no session) and
 * with the same checks as its Streamable HTTP transport in JSON mode, but through a transport that hands
 * back the JSON-RPC answer itself instead of a web Response.
 *
 * Why not the SDK's transport: for one message answered in JSON, it builds a Response (undici's
 * Response.json), which we then read back as text, and re-validates the whole answer with zod to learn it
 * is a response: together about two thirds of the SDK's CPU per tool call (measured in process with an
 * offer as the answer: 450 µs through the SDK's transport, 170 µs through this one).
 */
import {
  isInitializeRequest,
  isJSONRPCRequest,
  parseJSONRPCMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { answerWith, type InboundCall, type JsonAnswer } from './inbound-call.js';

export async function serveLegacy(server: Server, call: InboundCall): Promise<JsonAnswer> {
  const accept = call.header('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return refusal(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  let parsed: JSONRPCMessage;
  try {
    parsed = parseJSONRPCMessage(call.message);
  } catch {
    return refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
  }
  if (!isInitializeRequest(parsed)) {
    // The revisions our servers speak on this leg: the SDK's list (they do not narrow it).
    const version = call.header('mcp-protocol-version');
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return refusal(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
    }
  }
  const exchange = new SingleExchange();
  // Closing a server rejects what it still awaits with an error (a stack trace each time): it is closed
  // only when the request is given up, to stop its handler. An exchange that ended leaves nothing open
  // (no session, no timer, no pending request), so its server is simply dropped.
  const abandon = () => void server.close().catch(() => undefined);
  call.signal.addEventListener('abort', abandon, { once: true });
  try {
    await server.connect(exchange);
    // The handlers read the token through ctx.http.authInfo; nothing of ours reads the raw request.
    const extra: MessageExtraInfo = { authInfo: call.authInfo };
    if (!isJSONRPCRequest(parsed)) {
      // A notification (or a stray response): taken, nothing to answer.
      exchange.deliver(parsed, extra);
      return { status: 202 };
    }
    const answer = exchange.answerTo(parsed.id);
    exchange.deliver(parsed, extra);
    const body = await answer;
    return body ? answerWith(200, body, call) : refusal(503, -32603, 'The request was given up before it was answered: try again.');
  } finally {
    call.signal.removeEventListener('abort', abandon);
  }
}

function refusal(status: number, code: number, message: string): JsonAnswer {
  return { status, body: { jsonrpc: '2.0', error: { code, message }, id: null } };
}

/** A transport whose whole life is one message in and its answer out. */
class SingleExchange implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  #awaited: RequestId | undefined;
  #answer: ((message: JSONRPCMessage | undefined) => void) | undefined;

  async start(): Promise<void> {}

  /** The answer to request `id`; undefined if the exchange closes first (the request was given up). */
  answerTo(id: RequestId): Promise<JSONRPCMessage | undefined> {
    this.#awaited = id;
    return new Promise((resolve) => (this.#answer = resolve));
  }

  deliver(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // A stateless exchange has no stream for anything but the answer: notifications are dropped.
    if (('result' in message || 'error' in message) && message.id === this.#awaited) this.#answer?.(message);
  }

  async close(): Promise<void> {
    this.#answer?.(undefined);
    this.onclose?.();
  }
}
