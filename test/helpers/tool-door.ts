/**
 * The real tool endpoint (mcp/endpoint.ts and the SDK behind it) serving tools a test defines, on a Koa
 * app of its own: for the door's behaviour (eras, purchase confirmation, error fields) with tools whose
 * answers the test steers. Tokens are real RS256 JWTs checked by the real BearerVerifier, signed with a
 * key made for the run.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import Koa from 'koa';
import { BearerVerifier } from '../../authz/bearer-verifier.js';
import { ToolCallLimits } from '../../authz/tool-call-limits.js';
import { systemClock } from '../../core/clock.js';
import { createLogger } from '../../core/logger.js';
import { TOOL_ENDPOINT_PATH, toolEndpoint } from '../../mcp/endpoint.js';
import { ProtocolHandler } from '../../mcp/protocol-handler.js';
import { ConfirmationPrompts } from '../../mcp/purchase-confirmation.js';
import { confirmationStateCodec } from '../../mcp/request-state.js';
import type { Tool, ToolServices } from '../../mcp/tool.js';
import { ToolServers } from '../../mcp/tool-server.js';

const ISSUER = 'https://auth.door.test';

export interface ToolDoor {
  /** The endpoint's URL. */
  url: string;
  origin: string;
  /** A token for the endpoint, for `userId` through `clientId`, with `scope`. */
  token(options?: { userId?: string; clientId?: string; scope?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startToolDoor(tools: Tool[], options: { secret?: string } = {}): Promise<ToolDoor> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'door', alg: 'RS256', use: 'sig' };
  let serve: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();
  const server = http.createServer((req, res) => serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${origin}${TOOL_ENDPOINT_PATH}`;

  const logger = createLogger('silent');
  const confirmations = new ConfirmationPrompts(confirmationStateCodec(options.secret ?? 'a test secret of at least thirty-two bytes'));
  const servers = new ToolServers(tools, { services: {} as ToolServices, logger, docsOrigin: origin, confirmations });
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.requestId = randomUUID();
    ctx.set('x-request-id', ctx.state.requestId as string);
    await next();
  });
  app.use(
    toolEndpoint({
      servers,
      protocol: new ProtocolHandler(servers, logger),
      tokens: new BearerVerifier({ jwks: { keys: [jwk] }, issuer: ISSUER, audiences: [url], clock: systemClock }),
      limits: new ToolCallLimits({ keyPrefix: `door-${randomUUID()}`, limit: { points: 10_000, duration: 60 } }),
      resourceUrl: url,
      scopes: [...new Set(tools.flatMap((tool) => tool.scopes))],
    }),
  );
  serve = app.callback();

  return {
    url,
    origin,
    token: (claims = {}) => sign(privateKey, url, claims),
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function sign(key: CryptoKey, audience: string, claims: { userId?: string; clientId?: string; scope?: string }): Promise<string> {
  return new SignJWT({ 'custom:user_id': claims.userId ?? randomUUID(), client_id: claims.clientId ?? 'door-agent', scope: claims.scope ?? 'bookings.write' })
    .setProtectedHeader({ alg: 'RS256', kid: 'door' })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setSubject('traveler')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}
