/**
 * `/v1/mcp`: the agent tool endpoint, the MCP SDK's Streamable HTTP transport inside our Koa app.
 * Stateless (no sessions: any instance answers any request) with JSON responses. Before a request reaches
 * the transport, it goes through these checks, each answering in HTTP what a client can act on:
 *
 * 1. `x-api-key` present: 429. Keyed traffic is throttled to zero here (Authentication rule 2).
 * 2. Host and Origin must be ours: 403 otherwise, against DNS rebinding.
 * 3. POST only: the server offers no SSE stream to GET, and has no session to DELETE.
 * 4. A bearer token whose audience is this endpoint: 401 with the RFC 9728 challenge otherwise, naming
 *    the metadata document and the scopes the tools need, so a client that knows only the URL can
 *    authorize.
 * 5. A JSON-RPC body in JSON.
 * 6. A tools/call for a tool whose scope the token lacks: 403 insufficient_scope with the needed scope
 *    in the challenge, so the client can step up.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context, Middleware, Next } from 'koa';
import type { Actor } from '../core/actor.js';
import { DomainError } from '../core/errors.js';
import type { ToolServers } from './tool-server.js';

export const TOOL_ENDPOINT_PATH = '/v1/mcp';
const MAX_BODY_BYTES = 1024 * 1024;
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

export interface TokenCheck {
  /** Verifies a token issued for this endpoint (its audience); throws a DomainError when it is not. */
  verify(token: string): Promise<Actor>;
}

export interface ToolEndpointOptions {
  servers: ToolServers;
  tokens: TokenCheck;
  /** The endpoint's public URL: the resource its tokens are issued for. */
  resourceUrl: string;
  /** The scopes the tools need, asked for in the 401 challenge. */
  scopes: readonly string[];
  /** Origins of browser-based clients allowed besides our own. */
  allowedOrigins?: readonly string[];
}

export function toolEndpoint(options: ToolEndpointOptions): Middleware {
  const resource = new URL(options.resourceUrl);
  const metadataUrl = `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname}`;
  const origins = new Set([resource.origin, ...(options.allowedOrigins ?? [])]);
  const challenge = (extra: string) =>
    [`Bearer resource_metadata="${metadataUrl}"`, `scope="${options.scopes.join(' ')}"`, extra].filter(Boolean).join(', ');

  return async function serveTools(ctx: Context, next: Next): Promise<void> {
    if (ctx.path.replace(/\/+$/, '') !== TOOL_ENDPOINT_PATH) return next();
    ctx.state.operationId = 'mcp';

    if (ctx.get('x-api-key')) {
      return answer(ctx, 429, {
        code: 'api_key_not_allowed',
        message: 'The tool endpoint takes no API key: send only the traveler’s access token, as Authorization: Bearer <token>.',
      });
    }
    const origin = ctx.get('origin');
    if (ctx.host !== resource.host || (origin && !origins.has(origin))) {
      return answer(ctx, 403, { code: 'origin_not_allowed', message: `Call the tool endpoint at ${options.resourceUrl}, from a page of an allowed origin.` });
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
      actor = await options.tokens.verify(token);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      ctx.set('WWW-Authenticate', challenge('error="invalid_token"'));
      return answer(ctx, 401, { error: 'invalid_token', error_description: error.message });
    }

    const body = await readJson(ctx.req);
    if (!body.ok) return answer(ctx, body.status, { jsonrpc: '2.0', id: null, error: { code: -32700, message: body.message } });

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
      scopes: actor.scopes ? [...actor.scopes] : [],
      expiresAt: actor.expiresAt,
      resource,
      extra: { actor, requestId: ctx.state.requestId as string },
    });
  };
}

/**
 * The message(s) to the SDK's transport, on a pooled server. Its web-standard form takes the parsed body
 * and answers a Response, which Koa sends like any other answer: cheaper than its Node form, which turns
 * the whole request into a web Request and streams the Response back (a fifth of the CPU of a call).
 */
async function handOver(ctx: Context, servers: ToolServers, message: unknown, authInfo: AuthInfo): Promise<void> {
  const server = servers.acquire();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const headers = FORWARDED_HEADERS.flatMap((name) => (ctx.get(name) ? [[name, ctx.get(name)] as [string, string]] : []));
    const response = await transport.handleRequest(new Request(authInfo.resource as URL, { method: 'POST', headers }), { parsedBody: message, authInfo });
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
    ctx.body = response.body ? await response.text() : null;
  } finally {
    await transport.close();
    servers.release(server);
  }
}

/** What the transport reads of a request besides its body. */
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/** The first scope a tools/call in `message` needs and the token lacks (a legacy token lacks none). */
function missingScope(message: unknown, actor: Actor, servers: ToolServers): string | undefined {
  if (!actor.scopes) return undefined;
  for (const item of Array.isArray(message) ? message : [message]) {
    const call = item as { method?: unknown; params?: { name?: unknown } } | null;
    if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') continue;
    const missing = servers.scopesOf(call.params.name)?.find((scope) => !actor.scopes?.has(scope));
    if (missing) return missing;
  }
  return undefined;
}

type Read = { ok: true; value: unknown } | { ok: false; status: number; message: string };

async function readJson(req: IncomingMessage): Promise<Read> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return { ok: false, status: 415, message: 'Send JSON-RPC messages as Content-Type: application/json.' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, message: 'The message is larger than 1 MiB.' };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'The body is not valid JSON.' };
  }
}

function answer(ctx: Context, status: number, body: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = body;
}
