/**
 * `/v1/mcp`: the agent tool endpoint, the MCP SDK's Streamable HTTP transport inside our Koa app.
 * Stateless (no sessions: any instance answers any request) with JSON responses. Before a request reaches
 * the transport, it goes through these checks, each answering in HTTP what a client can act on:
 *
 * 1. `x-api-key` present, even empty: 429 with Retry-After of a day. Keyed traffic is throttled to zero
 *    here (Authentication rule 2).
 * 2. Host and Origin must be ours: 403 otherwise, against DNS rebinding.
 * 3. POST only: the server offers no SSE stream to GET, and has no session to DELETE.
 * 4. A bearer token whose audience is this endpoint: 401 with the RFC 9728 challenge otherwise, naming
 *    the metadata document and the scopes the tools need, so a client that knows only the URL can
 *    authorize.
 * 5. Not too many requests from one traveler's agent: 429 with Retry-After and the RateLimit headers.
 * 6. One JSON-RPC message in JSON (revision 2025-11-25 has no batches), nested at most 64 levels and
 *    without text PostgreSQL cannot store (core's input checks, naming each field); a tools/call names
 *    its tool and passes its arguments as an object.
 * 7. A tools/call for a tool whose scope the token lacks: 403 insufficient_scope with the needed scope
 *    in the challenge, so the client can step up. A legacy token (issued to a partner's client asking
 *    no scope) carries no scope here: agents act only on what the traveler consented to.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context, Middleware, Next } from 'koa';
import type { Actor } from '../core/actor.js';
import { DomainError, RateLimitedError, type FieldError } from '../core/errors.js';
import { inputProblems, MAX_INPUT_DEPTH } from '../core/input-checks.js';
import type { ToolServers } from './tool-server.js';

export const TOOL_ENDPOINT_PATH = '/v1/mcp';
const MAX_BODY_BYTES = 1024 * 1024;
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
    if (ctx.path.replace(/\/+$/, '') !== TOOL_ENDPOINT_PATH) return next();
    ctx.state.operationId = 'mcp';

    // Any x-api-key header is keyed traffic, an empty one too (ctx.get would answer '' for it and for none).
    if (ctx.req.headers['x-api-key'] !== undefined) {
      // Its quota here is zero, so no wait makes it pass: a day is the honest answer, and the message says so.
      ctx.set({
        'Retry-After': String(KEYED_RETRY_AFTER_SECONDS),
        'RateLimit-Policy': `"api_key";q=0;w=${KEYED_RETRY_AFTER_SECONDS}`,
        RateLimit: `"api_key";r=0;t=${KEYED_RETRY_AFTER_SECONDS}`,
      });
      return answer(ctx, 429, {
        code: 'api_key_not_allowed',
        message:
          'The tool endpoint never takes an API key (keyed traffic is throttled to zero here, so waiting will not help): remove the x-api-key header and send only the traveler’s access token, as Authorization: Bearer <token>.',
      });
    }
    const origin = ctx.get('origin');
    // Agents call from servers and command lines (no Origin); a page may call only from our own origin.
    if (ctx.host !== resource.host || (origin && origin !== resource.origin)) {
      return answer(ctx, 403, { code: 'origin_not_allowed', message: `Call the tool endpoint at ${options.resourceUrl}, not through another host name or from another site's page.` });
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      return answer(ctx, 405, { code: 'method_not_allowed', message: 'The tool endpoint is stateless: send each JSON-RPC message as a POST.' });
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
      return answer(ctx, 429, { code: error.code, message: error.message });
    }

    const body = await readJson(ctx.req);
    if (!body.ok) return answer(ctx, body.status, { jsonrpc: '2.0', id: null, error: body.error });

    const missing = missingScope(body.value, actor, options.servers);
    if (missing) {
      ctx.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${missing}", resource_metadata="${metadataUrl}"`);
      return answer(ctx, 403, {
        error: 'insufficient_scope',
        error_description: `This tool needs the "${missing}" scope: authorize again asking for it.`,
        scope: missing,
      });
    }

    await handOver(ctx, options.servers, body.value, {
      token,
      clientId: actor.clientId,
      scopes: [...(actor.scopes ?? [])],
      expiresAt: actor.expiresAt,
      resource,
      extra: { actor, requestId: ctx.state.requestId as string },
    });
  };
}

/**
 * The message to the SDK's transport, on a pooled server. Its web-standard form takes the parsed body
 * and answers a Response, which Koa sends like any other answer: cheaper than its Node form, which turns
 * the whole request into a web Request and streams the Response back (a fifth of the CPU of a call).
 */
async function handOver(ctx: Context, servers: ToolServers, message: unknown, authInfo: AuthInfo): Promise<void> {
  const server = servers.acquire();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  let deadline: NodeJS.Timeout | undefined;
  try {
    await server.connect(transport);
    const headers = FORWARDED_HEADERS.flatMap((name) => (ctx.get(name) ? [[name, ctx.get(name)] as [string, string]] : []));
    const handled = transport.handleRequest(new Request(authInfo.resource as URL, { method: 'POST', headers }), { parsedBody: message, authInfo });
    const late = new Promise<undefined>((resolve) => (deadline = setTimeout(() => resolve(undefined), DEADLINE_MS)));
    const response = await Promise.race([handled, late]);
    if (!response) {
      return answer(ctx, 504, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'The request took too long and was given up: try again in a moment.' } });
    }
    // Body before status: Koa keeps a 202 without a body (a notification's answer) as it is.
    ctx.body = response.body ? await response.text() : null;
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
  } finally {
    clearTimeout(deadline);
    await transport.close();
    servers.release(server);
  }
}

/** What the transport reads of a request besides its body. */
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/** The scope a tools/call needs and the token lacks. */
function missingScope(message: Message, actor: Actor, servers: ToolServers): string | undefined {
  if (message.method !== 'tools/call') return undefined;
  return servers.scopesOf(message.params?.name as string)?.find((scope) => !actor.scopes?.has(scope));
}

interface Message {
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown };
}

type Read = { ok: true; value: Message } | { ok: false; status: number; error: { code: number; message: string; data?: unknown } };

/** One JSON-RPC message, read within the size limit; a tools/call with its tool's name and arguments. */
async function readJson(req: IncomingMessage): Promise<Read> {
  const refuse = (status: number, code: number, message: string): Read => ({ ok: false, status, error: { code, message } });
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(415, -32700, 'Send JSON-RPC messages as Content-Type: application/json.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return refuse(413, -32600, 'The message is larger than 1 MiB.');
    chunks.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return refuse(400, -32700, 'The body is not valid JSON.');
  }
  const problems = inputProblems(value);
  if (problems.length > 0) return refuseInput(problems);
  if (Array.isArray(value)) return refuse(400, -32600, 'Send one JSON-RPC message per request: this protocol revision (2025-11-25) has no batches.');
  if (typeof value !== 'object' || value === null) return refuse(400, -32600, 'The body must be one JSON-RPC message (an object).');
  const message = value as Message;
  if (message.method === 'tools/call') {
    const params = message.params;
    const args = params?.arguments;
    if (typeof params !== 'object' || params === null || typeof params.name !== 'string' || (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))) {
      return refuse(400, -32602, 'A tools/call names its tool in params.name and passes params.arguments as an object: see tools/list.');
    }
  }
  return { ok: true, value: message };
}

/**
 * Too deep is an invalid request; text PostgreSQL cannot store is invalid params, naming each field in
 * the words of the REST API's validation envelope (in the error's `data`).
 */
function refuseInput(problems: FieldError[]): Read {
  if (problems.some((problem) => problem.rule === 'max_depth')) {
    const message = `The message nests arrays and objects too deep: send at most ${MAX_INPUT_DEPTH} levels.`;
    return { ok: false, status: 400, error: { code: -32600, message } };
  }
  const fields = Object.fromEntries(problems.map((problem) => [problem.field, problem]));
  const message = `Some text cannot be used: ${problems.map((problem) => problem.message).join('; ')}.`;
  return { ok: false, status: 400, error: { code: -32602, message, data: { code: 'validation_error', fields } } };
}

function answer(ctx: Context, status: number, body: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = body;
}
