/**
 * `/v1/mcp`: the agent tool endpoint, the MCP SDK (v2) inside our Koa app, serving revision 2026-07-28 and
 * clients of 2025-11-25 on the same URL (protocol-handler.ts). Stateless (no sessions: any instance
 * answers any request) with JSON responses. Before a request reaches the SDK, it goes through these
 * checks, each answering in HTTP what a client can act on:
 *
 * 1. `x-api-key` present, even empty: 429 with Retry-After of a day. Keyed traffic is throttled to zero
 *    here (Authentication rule 2).
 * 2. Host and Origin must be ours: 403 otherwise, against DNS rebinding.
 * 3. POST only: the server offers no SSE stream to GET, and has no session to DELETE.
 * 4. A bearer token whose audience is this endpoint: 401 with the RFC 9728 challenge otherwise, naming
 *    the metadata document and the scopes the tools need, so a client that knows only the URL can
 *    authorize.
 * 5. Not too many requests from one traveler's agent: 429 with Retry-After and the RateLimit headers.
 * 6. One JSON-RPC message in JSON, nested at most 64 levels and without text PostgreSQL cannot store
 *    (json-message.ts); a tools/call names its tool and passes its arguments as an object.
 * 7. A tools/call for a tool whose scope the token lacks: 403 insufficient_scope with the needed scope
 *    in the challenge, so the client can step up. A legacy token (issued to a partner's client asking
 *    no scope) carries no scope here: agents act only on what the traveler consented to.
 *
 * Every refusal with a `code` carries the request's `request_id` (JSON-RPC errors in their `data`), so
 * that what an agent quotes finds the log line.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context, Middleware, Next } from 'koa';
import type { Actor } from '../core/actor.js';
import { DomainError, RateLimitedError } from '../core/errors.js';
import { readMessage, type Message, type RpcError } from './json-message.js';
import type { CallExtra, InboundCall } from './inbound-call.js';
import type { ProtocolHandler } from './protocol-handler.js';
import type { ToolServers } from './tool-server.js';

export const TOOL_ENDPOINT_PATH = '/v1/mcp';
/** Longer than any provider's timeout: a request still unanswered by then will not be. */
const DEADLINE_MS = 120_000;
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;
/** Retry-After of keyed traffic, which is never served here. */
const KEYED_RETRY_AFTER_SECONDS = 86_400;

export interface TokenCheck {
  /** Verifies a token issued for this endpoint (its audience); throws a DomainError when it is not. */
  verify(token: string): Promise<Actor>;
}

export interface AgentLimits {
  /** Counts one request of the agent `clientId` for `userId`; throws RateLimitedError past the limit. */
  take(clientId: string, userId: string): Promise<void>;
  /** The policy, for the RateLimit headers of a refusal: requests per window of seconds. */
  readonly limit: { points: number; duration: number };
}

export interface ToolEndpointOptions {
  servers: ToolServers;
  /** The SDK behind the checks (both revisions). */
  protocol: ProtocolHandler;
  tokens: TokenCheck;
  limits: AgentLimits;
  /** The endpoint's public URL: the resource its tokens are issued for. */
  resourceUrl: string;
  /** The scopes the tools need, asked for in the 401 challenge. */
  scopes: readonly string[];
}

export function toolEndpoint(options: ToolEndpointOptions): Middleware {
  const resource = new URL(options.resourceUrl);
  const metadataUrl = `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname}`;
  const challenge = (extra: string) =>
    [`Bearer resource_metadata="${metadataUrl}"`, `scope="${options.scopes.join(' ')}"`, extra].filter(Boolean).join(', ');

  return async function serveTools(ctx: Context, next: Next): Promise<void> {
    if (!isEndpointPath(ctx.path)) return next();
    ctx.state.operationId = 'mcp';
    const requestId = ctx.state.requestId as string;
    const refuse = (status: number, code: string, message: string) => answer(ctx, status, { code, message, request_id: requestId });

    // Any x-api-key header is keyed traffic, an empty one too (ctx.get would answer '' for it and for none).
    if (ctx.req.headers['x-api-key'] !== undefined) {
      // Its quota here is zero, so no wait makes it pass: a day is the honest answer, and the message says so.
      ctx.set({
        'Retry-After': String(KEYED_RETRY_AFTER_SECONDS),
        'RateLimit-Policy': `"api_key";q=0;w=${KEYED_RETRY_AFTER_SECONDS}`,
        RateLimit: `"api_key";r=0;t=${KEYED_RETRY_AFTER_SECONDS}`,
      });
      return refuse(
        429,
        'api_key_not_allowed',
        'The tool endpoint never takes an API key (keyed traffic is throttled to zero here, so waiting will not help): remove the x-api-key header and send only the traveler’s access token, as Authorization: Bearer <token>.',
      );
    }
    const origin = ctx.get('origin');
    // Agents call from servers and command lines (no Origin); a page may call only from our own origin.
    if (ctx.host !== resource.host || (origin && origin !== resource.origin)) {
      return refuse(403, 'origin_not_allowed', `Call the tool endpoint at ${options.resourceUrl}, not through another host name or from another site's page.`);
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      return refuse(405, 'method_not_allowed', 'The tool endpoint is stateless: send each JSON-RPC message as a POST.');
    }

    const token = BEARER.exec(ctx.get('authorization'))?.[1];
    if (!token) {
      ctx.set('WWW-Authenticate', challenge(''));
      return answer(ctx, 401, { error: 'invalid_token', error_description: 'Send an access token issued for this endpoint (resource parameter: its URL).' });
    }
    let actor: Actor;
    try {
      const verified = await options.tokens.verify(token);
      actor = { ...verified, scopes: verified.scopes ?? new Set<string>() };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      ctx.set('WWW-Authenticate', challenge('error="invalid_token"'));
      return answer(ctx, 401, { error: 'invalid_token', error_description: error.message });
    }
    try {
      await options.limits.take(actor.clientId, actor.userId);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      const { points, duration } = options.limits.limit;
      ctx.set({
        'Retry-After': String(error.retryAfterSeconds),
        // draft-ietf-httpapi-ratelimit-headers, as the REST API words its budgets.
        'RateLimit-Policy': `"per_agent";q=${points};w=${duration}`,
        RateLimit: `"per_agent";r=0;t=${error.retryAfterSeconds}`,
      });
      return refuse(429, error.code, error.message);
    }

    const body = await readMessage(ctx.req);
    if (!body.ok) return answer(ctx, body.status, { jsonrpc: '2.0', id: null, error: withRequestId(body.error, requestId) });

    const missing = missingScope(body.value, actor, options.servers);
    if (missing) {
      ctx.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${missing}", resource_metadata="${metadataUrl}"`);
      return answer(ctx, 403, {
        error: 'insufficient_scope',
        error_description: `This tool needs the "${missing}" scope: authorize again asking for it.`,
        scope: missing,
      });
    }

    const extra: CallExtra = { actor, requestId };
    await handOver(ctx, options.protocol, body.value, {
      token,
      clientId: actor.clientId,
      scopes: [...(actor.scopes ?? [])],
      expiresAt: actor.expiresAt,
      resource,
      extra,
    });
  };
}

/** The endpoint's path, with any trailing slashes: tested on every request of the app, so without a new string. */
function isEndpointPath(path: string): boolean {
  if (!path.startsWith(TOOL_ENDPOINT_PATH)) return false;
  for (let index = TOOL_ENDPOINT_PATH.length; index < path.length; index++) if (path[index] !== '/') return false;
  return true;
}

/**
 * The message to the SDK (protocol-handler.ts), whose answer Koa sends like any other. The body is the
 * message we already read (the SDK does not read it again); of the headers, only those the SDK reads.
 */
async function handOver(ctx: Context, protocol: ProtocolHandler, message: Message, authInfo: InboundCall['authInfo']): Promise<void> {
  const requestId = authInfo.extra.requestId;
  const abandoned = new AbortController();
  let deadline: NodeJS.Timeout | undefined;
  try {
    const headers = ctx.req.headers;
    const call: InboundCall = {
      message,
      authInfo,
      signal: abandoned.signal,
      header: (name) => {
        const value = headers[name];
        return typeof value === 'string' ? value : undefined;
      },
      webRequest: () => new Request(authInfo.resource as URL, { method: 'POST', headers: forwardedHeaders(ctx), signal: abandoned.signal }),
    };
    const late = new Promise<undefined>((resolve) => (deadline = setTimeout(() => resolve(undefined), DEADLINE_MS)));
    const reply = await Promise.race([protocol.handle(call), late]);
    if (!reply) {
      abandoned.abort();
      const error = { code: -32603, message: 'The request took too long and was given up: try again in a moment.' };
      return answer(ctx, 504, { jsonrpc: '2.0', id: null, error: withRequestId(error, requestId) });
    }
    if (reply.kind === 'json') {
      if (reply.body !== undefined) {
        // Koa's type for JSON, unless the answer names another (set before the body, which keeps it). A
        // body written as text already is a tool's result, never an error to stamp.
        if (reply.contentType) ctx.set('content-type', reply.contentType);
        else ctx.type = 'json';
        ctx.body = reply.text ?? stampRpcError(reply.body, requestId);
      } else {
        // Body before status: Koa keeps a 202 without a body (a notification's answer) as it is.
        ctx.body = null;
      }
      ctx.status = reply.status;
      return;
    }
    const { response } = reply;
    response.headers.forEach((value, name) => ctx.set(name, value));
    if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
      // A stream (a 2026-07-28 subscriptions/listen) flows as it comes, until either side ends it.
      ctx.res.once('close', () => abandoned.abort());
      ctx.status = response.status;
      ctx.body = Readable.fromWeb(response.body as NodeReadableStream);
      return;
    }
    const text = response.body ? await response.text() : null;
    ctx.body = text === null ? null : stampRpcErrorText(text, requestId);
    ctx.status = response.status;
  } finally {
    clearTimeout(deadline);
  }
}

/** What the SDK reads of a request besides its body: the media types, and MCP's own headers (revision, method, name). */
function forwardedHeaders(ctx: Context): [string, string][] {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (typeof value === 'string' && (name === 'accept' || name === 'content-type' || name.startsWith('mcp-'))) headers.push([name, value]);
  }
  return headers;
}

/**
 * A JSON-RPC error the SDK answered (an unknown method, a revision it does not serve, a tampered
 * requestState) gets the request id in its `data`, as ours do.
 */
function stampRpcError(reply: unknown, requestId: string): unknown {
  const message = reply as { error?: RpcError; result?: unknown };
  if (typeof message !== 'object' || message === null || typeof message.error !== 'object' || message.error === null || 'result' in message) return reply;
  return { ...message, error: withRequestId(message.error, requestId) };
}

/** The same, for an answer the SDK wrote as text: only a body that can be an error is parsed. */
function stampRpcErrorText(text: string, requestId: string): string {
  if (!text.includes('"error"')) return text;
  try {
    const reply = JSON.parse(text) as unknown;
    const stamped = stampRpcError(reply, requestId);
    return stamped === reply ? text : JSON.stringify(stamped);
  } catch {
    return text;
  }
}

function withRequestId(error: RpcError, requestId: string): RpcError {
  const data = error.data;
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) return error;
  return { ...error, data: { ...data, request_id: requestId } };
}

/** The scope a tools/call needs and the token lacks. */
function missingScope(message: Message, actor: Actor, servers: ToolServers): string | undefined {
  if (message.method !== 'tools/call') return undefined;
  return servers.scopesOf(message.params?.name as string)?.find((scope) => !actor.scopes?.has(scope));
}

function answer(ctx: Context, status: number, body: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = body;
}
