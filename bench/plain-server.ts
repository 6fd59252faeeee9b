/**
 * The same jobs done plainly with the same libraries, measured in the same run as the service: what a
 * goal the service misses is read against (issue 25: a goal that cannot be met needs its floor shown).
 *
 * Every REST request gets what the service's answer carries and nothing else: a request id, one pino log
 * line with the same fields, the same security headers, the API key checked by its SHA-256 against
 * memory, the partner's two budgets spent in rate-limiter-flexible's memory limiters (the `RateLimit`
 * headers), and, for users/me, the bearer JWT verified with jose against the service's keys and then
 * remembered, as the service does. Each route then does its job with the service's own core calls (the
 * same statements, the same normalizer): one Koa middleware per concern, @koa/router, koa-body. Left
 * out is what only the service does, and what no caller of these routes can do without: the error
 * envelopes, the per-operation permissions and publishable keys, the counting of failed keys, the
 * route table's input checks and schemas, and the other doors (authorization server, tool endpoint,
 * hosted pages). For these routes it is a floor.
 *
 * The tool endpoint is the MCP SDK wired as its documentation shows (createMcpHandler, an McpServer per
 * request, the request handed over as a web Request), behind the same token check, its tool reading the
 * offer through the query builder: not a floor (the service's own exchanges cost less than half as
 * much), but what the SDK costs used plainly.
 *
 * It reads and writes the service's PostgreSQL database (DATABASE_URL); the parent hands it the
 * benchmark partner's id and the service's key set and issuer (PLAIN_* variables).
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import Koa, { type Context, type Next } from 'koa';
import { koaBody } from 'koa-body';
import pino from 'pino';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { openDatabase } from '../core/db/database.js';
import { checkAmounts } from '../core/flights/offer-checks.js';
import { insertOffer, normalized, presentJson, stored, storedJsonOfPartner, WITHOUT_RAW, type OfferRow } from '../core/flights/offer-rows.js';
import { checkInput } from '../core/input-checks.js';
import { findUserProfileJson } from '../core/users/store.js';
import { OfferReference } from '../mcp/tools/offer-shared.js';
import { providerBOffers } from '../providers/flights/provider-b/normalizer.js';
import { apiSecurityHeaders } from '../rest/security-headers.js';
import { PROVIDERS } from '../seeds/providers.js';
import { reportToParent } from './child.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`plain-server needs ${name}`);
  return value;
};

const partnerId = env('PLAIN_PARTNER_ID');
const issuer = env('PLAIN_ISSUER');
const audience = env('PLAIN_AUDIENCE');
const toolAudience = `${audience}/v1/mcp`;
const keySet = createLocalJWKSet(JSON.parse(env('PLAIN_JWKS')) as JSONWebKeySet);
const database = await openDatabase({ databaseUrl: env('DATABASE_URL'), dataDir: '', poolMax: 10 });
const db = database.knex;

const API_KEY = `tpk_plain_${randomUUID()}`;
const keyHash = createHash('sha256').update(API_KEY).digest();
const perSecond = new RateLimiterMemory({ points: 1_000_000, duration: 1 });
const perDay = new RateLimiterMemory({ points: 1_000_000_000, duration: 86_400 });
const POLICY = '"per_second";q=1000000;w=1, "per_day";q=1000000000;w=86400';
const logger = pino();
const capabilities = JSON.stringify(PROVIDERS.find((provider) => provider.id === 'provider_a')?.capabilities);

async function logLine(ctx: Context, next: Next) {
  const started = performance.now();
  const requestId = randomUUID();
  ctx.set('x-request-id', requestId);
  await next();
  logger.info({ req_id: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 100) / 100, partner_id: partnerId }, 'request');
}

async function apiKey(ctx: Context, next: Next) {
  const hash = createHash('sha256').update(ctx.get('x-api-key')).digest();
  if (!timingSafeEqual(hash, keyHash)) {
    ctx.status = 401;
    return;
  }
  const second = await perSecond.consume(partnerId);
  await perDay.consume(partnerId);
  ctx.set('RateLimit', `"per_second";r=${second.remainingPoints};t=${Math.ceil(second.msBeforeNext / 1000)}`);
  ctx.set('RateLimit-Policy', POLICY);
  await next();
}

/** Verified tokens until they expire, as the service keeps them: a token is verified once, not per request. */
const verified = new Map<string, { userId: string; expiresAt: number }>();

async function bearer(ctx: Context, next: Next) {
  const token = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
  if (!token) {
    ctx.status = 401;
    return;
  }
  let known = verified.get(token);
  if (!known || known.expiresAt <= Date.now() / 1000) {
    const { payload } = await jwtVerify(token, keySet, { algorithms: ['RS256'], issuer, audience: [audience, toolAudience], requiredClaims: ['exp', 'sub'] });
    known = { userId: payload.sub as string, expiresAt: payload.exp as number };
    verified.set(token, known);
  }
  ctx.state.userId = known.userId;
  await next();
}

const json = (ctx: Context, text: string) => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = text;
};

const router = new Router();
router.get('/v1/flights/providers/:provider/capabilities', apiKey, (ctx) => json(ctx, capabilities));
router.get('/v1/users/me', apiKey, bearer, async (ctx) => {
  const profile = await findUserProfileJson(db, ctx.state.userId as string);
  if (profile === undefined) ctx.status = 404;
  else json(ctx, profile);
});
// The offer routes answer pages of publishable keys' origins too (CORS), so their answers vary by Origin.
const varyOnOrigin = async (ctx: Context, next: Next) => {
  ctx.vary('Origin');
  await next();
};

router.get('/v1/flights/providers/:provider/offers/:id', varyOnOrigin, apiKey, async (ctx) => {
  const row = await storedJsonOfPartner(db, ctx.params.id as string, ctx.params.provider as string, partnerId);
  if (!row) ctx.status = 404;
  else if (row.expires_at <= new Date()) ctx.status = 410;
  else json(ctx, presentJson(row));
});
router.post('/v1/flights/providers/provider_b/offers', varyOnOrigin, apiKey, koaBody({ jsonLimit: '1mb', urlencoded: false, text: false }), async (ctx) => {
  const native: unknown = ctx.request.body;
  const now = new Date();
  checkInput(native);
  const { offer, providerOfferId } = providerBOffers.normalize(native, now);
  checkAmounts(offer);
  const id = await insertOffer(db, {
    provider_id: 'provider_b',
    provider_offer_id: providerOfferId,
    partner_id: partnerId,
    user_id: null,
    offer: JSON.stringify(stored(offer)),
    raw_offer: JSON.stringify(native),
    expires_at: new Date(offer.expires_at),
    created_at: now,
  });
  ctx.status = 201;
  json(ctx, JSON.stringify({ offer_id: id }));
});

/**
 * The tool endpoint as the SDK's documentation wires it: a stateless handler (both revisions) making an
 * McpServer per request, the Koa request handed over as a web Request and its Response sent back. The
 * tool reads the row get_offer_details reads (the traveler's offer, without the provider's copy), with
 * the query builder.
 */
const tools = createMcpHandler((request) => {
  const userId = request.authInfo?.extra?.userId as string;
  const server = new McpServer({ name: 'plain', version: '1.0.0' });
  server.registerTool('get_offer_details', { description: 'Reads an offer.', inputSchema: OfferReference }, async ({ provider_id, offer_id }) => {
    const row = (await db('offers')
      .where({ id: offer_id, provider_id })
      .where((where) => where.where('user_id', userId).orWhereNull('user_id'))
      .first(WITHOUT_RAW)) as OfferRow | undefined;
    if (!row) return { isError: true, content: [{ type: 'text', text: 'offer_not_found' }] };
    const offer = normalized(row);
    return { content: [{ type: 'text', text: JSON.stringify(offer) }], structuredContent: offer };
  });
  return server;
});

router.post('/v1/mcp', bearer, async (ctx) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const request = new Request(`${audience}/v1/mcp`, { method: 'POST', headers: ctx.req.headers as Record<string, string>, body: Buffer.concat(chunks) });
  const response = await tools.fetch(request, { authInfo: { token: '', clientId: '', scopes: ['bookings.write'], extra: { userId: ctx.state.userId as string } } });
  ctx.status = response.status;
  response.headers.forEach((value, name) => ctx.set(name, value));
  ctx.body = await response.text();
});

const app = new Koa();
app.use(logLine);
app.use(apiSecurityHeaders());
app.use(router.routes());
const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => reportToParent({ port: (server.address() as AddressInfo).port, apiKey: API_KEY }));
process.on('disconnect', async () => {
  server.close();
  await database.close();
  process.exit(0);
});
