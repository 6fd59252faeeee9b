/**
 * A 2026-07-28 tools/call served in one exchange, the way the SDK's `createMcpHandler` serves it, but
 * answered with the JSON-RPC message itself rather than a web Response: the SDK's handler wants a web
 * Request, writes its answer with undici's Response.json, and we read that back as text, together about
 * as much CPU as the rest of the call. Everything else of the modern leg (other methods, notifications,
 * every refusal of the SDK's validation ladder) stays with the SDK's handler: this path takes only the
 * requests that ladder lets through untouched (canServeModern), so the answers cannot differ.
 *
 * The exchange is the SDK's per-request transport (PerRequestHTTPServerTransport), extended: connecting a
 * server to it binds the server to the request's revision, as the SDK's handler does.
 */
import {
  isJsonContentType,
  PerRequestHTTPServerTransport,
  ProtocolErrorCode,
  type InboundClassificationOutcome,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  type RequestId,
  type Server,
} from '@modelcontextprotocol/server';
import { answerWith, type InboundCall, type JsonAnswer } from './inbound-call.js';

/** The revision this path serves: the one the SDK's handler serves (its SUPPORTED_MODERN_PROTOCOL_VERSIONS). */
export const MODERN_REVISION = '2026-07-28';

export type ModernRequestRoute = Extract<InboundClassificationOutcome, { kind: 'modern'; messageKind: 'request' }>;

/**
 * Whether the SDK's handler would serve this classified request without refusing it: JSON, a tools/call
 * of one of our tools on the revision we serve, with every standard header present and naming what the
 * body names (the classifier has already checked the revision and method headers against the body when
 * present; the name header is compared here, plainly: a tool name never needs its Base64 form).
 * tools/call needs no client capability (the SDK's table of required ones is empty for it).
 */
export function canServeModern(route: InboundClassificationOutcome, call: InboundCall, isTool: (name: string) => boolean): route is ModernRequestRoute {
  if (route.kind !== 'modern' || route.messageKind !== 'request' || route.message.method !== 'tools/call') return false;
  if (route.classification.revision !== MODERN_REVISION || !isJsonContentType(call.header('content-type'))) return false;
  const name = route.message.params?.name;
  return (
    typeof name === 'string' &&
    isTool(name) &&
    call.header('mcp-protocol-version') !== undefined &&
    call.header('mcp-method') !== undefined &&
    call.header('mcp-name') === name
  );
}

/** Serves the request on `server` (made for the modern era, listing MODERN_REVISION among its revisions). */
export async function serveModern(server: Server, route: ModernRequestRoute, call: InboundCall): Promise<JsonAnswer> {
  const exchange = new ModernExchange(route.classification);
  // As in legacy-exchange.ts: closed only when given up, which stops its handler.
  const abandon = () => void server.close().catch(() => undefined);
  call.signal.addEventListener('abort', abandon, { once: true });
  try {
    await server.connect(exchange);
    const answer = await exchange.serve(route.message, call);
    // The SDK's handler answers a request given up before its answer with 499 and no body.
    return answer ?? { status: 499 };
  } finally {
    call.signal.removeEventListener('abort', abandon);
  }
}

/**
 * The HTTP status of a JSON-RPC error the protocol layer sends while the message is being delivered (its
 * own checks, before any handler runs), as the SDK's transport maps them; any other error is answered 200.
 */
const DISPATCH_ERROR_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  // A standard header contradicting the body (the SDK's HEADER_MISMATCH_ERROR_CODE).
  [-32020]: 400,
};

class ModernExchange extends PerRequestHTTPServerTransport {
  #awaited: RequestId | undefined;
  #call: InboundCall | undefined;
  #answer: ((answer: JsonAnswer | undefined) => void) | undefined;
  #delivering = false;

  constructor(private readonly classification: MessageClassification) {
    super({ classification });
  }

  /** Delivers the request and resolves with its answer; undefined if the exchange closes first. */
  serve(message: JSONRPCRequest, call: InboundCall): Promise<JsonAnswer | undefined> {
    this.#awaited = message.id;
    this.#call = call;
    const answer = new Promise<JsonAnswer | undefined>((resolve) => (this.#answer = resolve));
    this.#delivering = true;
    try {
      // The handlers read the token through ctx.http.authInfo; nothing of ours reads the raw request.
      this.onmessage?.(message, { classification: this.classification, authInfo: call.authInfo });
    } finally {
      this.#delivering = false;
    }
    return answer;
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    // Only the answer goes back: our tools send nothing before it (no progress, no log: the server
    // declares no logging), which is why the SDK would have answered in JSON too.
    if (!('result' in message || 'error' in message) || message.id !== this.#awaited || !this.#answer || !this.#call) return;
    const code = 'error' in message ? message.error.code : undefined;
    const status = code !== undefined && (this.#delivering || code === ProtocolErrorCode.MissingRequiredClientCapability) ? (DISPATCH_ERROR_STATUS[code] ?? 200) : 200;
    this.#answer(answerWith(status, message, this.#call));
    this.#answer = undefined;
  }

  override async close(): Promise<void> {
    this.#answer?.(undefined);
    this.#answer = undefined;
    this.onclose?.();
  }
}
