/**
 * The REST door's error envelopes, proven on the real middleware chain with routes of the test's own:
 * one that takes a strict JSON body, one that fails unexpectedly, one behind the partner's key and the
 * traveler's token, and two that write an error body themselves instead of throwing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { jsonOf } from './helpers/http.js';
import { z } from 'zod';
import { ApiKeyVerifier } from '../authz/api-key-verifier.js';
import { FailedAuthGuard } from '../authz/failed-auth-guard.js';
import { BearerVerifier } from '../authz/bearer-verifier.js';
import { loadSigningKeys, publicKeySet } from '../authz/keys.js';
import { systemClock } from '../core/clock.js';
import { tempDir } from './helpers/service.js';
import { UsageLimiter } from '../authz/usage-limiter.js';
import { openDatabase, type Database } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { createLogger } from '../core/logger.js';
import { PartnerService } from '../core/partners/service.js';
import { buildHttpApp } from '../rest/http-app.js';
import { defineRoute } from '../rest/route-table.js';
import { seedReferenceData } from '../seeds/index.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';

const Traveler = z.strictObject({
  first_name: z.string().min(2).max(100),
  email: z.email(),
  gender: z.enum(['male', 'female']),
  nights: z.number().int().min(1),
  tags: z.array(z.string()).max(2).optional(),
});

/** The BASE_URL the errors page is published on, as the app is told it. */
const ORIGIN = 'https://api.example.com';

const logLines: string[] = [];
let database: TestDatabase;
let db: Database;
let server: http.Server;
let base: string;
let partners: PartnerService;

test.before(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 2 });
  await migrateToLatest(db.knex, database.url);
  await seedReferenceData(db.knex);
  partners = new PartnerService(db.knex);
  const keys = await loadSigningKeys({ jwksPath: undefined, cookieKeys: undefined, dataDir: tempDir('tp-errors-'), production: false });
  const capture = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('info', capture);
  const app = buildHttpApp({
    logger,
    publicOrigin: ORIGIN,
    trustProxy: false,
    auth: {
      apiKeys: new ApiKeyVerifier(partners, new FailedAuthGuard(), { cacheSeconds: 30 }),
      usage: new UsageLimiter(),
      bearer: new BearerVerifier({ jwks: publicKeySet(keys.jwks), issuer: 'http://localhost', audiences: ['http://localhost'], clock: systemClock }),
    },
    routes: [
      defineRoute({
        method: 'POST',
        path: '/v1/test/travelers',
        operationId: 'createTestTraveler',
        summary: 'echo',
        tags: ['Test'],
        auth: 'none',
        status: 201,
        body: Traveler,
        responses: { 201: { description: 'created' } },
        handler: ({ body }) => ({ body: { id: 'x', first_name: body.first_name } }),
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/test/profile',
        operationId: 'getTestProfile',
        summary: 'a traveler route',
        tags: ['Test'],
        auth: 'api_key_and_bearer',
        scope: 'profile.read',
        responses: { 200: { description: 'never without a token' } },
        handler: () => ({ body: {} }),
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/test/written',
        operationId: 'writeStandardEnvelope',
        summary: 'answers an error without throwing, as the hosted pages’ JSON API refuses a body',
        tags: ['Test'],
        auth: 'none',
        responses: { 200: { description: 'never' } },
        handler: () => ({ status: 415, body: { message: 'Send the body in UTF-8.', status_code: 415, code: 'unsupported_media_type' } }),
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/test/foreign',
        operationId: 'writeForeignEnvelope',
        summary: 'answers in another door’s envelope (no status_code), as the tool endpoint does',
        tags: ['Test'],
        auth: 'none',
        responses: { 200: { description: 'never' } },
        handler: () => ({ status: 429, body: { code: 'api_key_not_allowed', message: 'Remove the x-api-key header.' } }),
      }),
      defineRoute({
        method: 'GET',
        path: '/v1/test/boom',
        operationId: 'failUnexpectedly',
        summary: 'fails',
        tags: ['Test'],
        auth: 'none',
        responses: { 200: { description: 'never' } },
        handler: () => {
          throw new Error('relation "secret_table" does not exist at /srv/app/core/db.ts:12');
        },
      }),
    ],
  });
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after.always(async () => {
  server?.closeAllConnections();
  server?.close();
  await db?.close();
  await database?.drop();
});

const valid = { first_name: 'Ada', email: 'ada@example.com', gender: 'female', nights: 2 };

function post(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return fetch(`${base}/v1/test/travelers`, { method: 'POST', headers, body });
}

test('a valid JSON body reaches the handler', async (t) => {
  const response = await post(JSON.stringify(valid));
  t.is(response.status, 201);
  t.deepEqual(await jsonOf(response), { id: 'x', first_name: 'Ada' });
});

test('invalid JSON is a 400 in the standard envelope, not a 500', async (t) => {
  const response = await post('{"first_name": "Ada",');
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.is(body.code, 'invalid_json');
  t.is(body.status_code, 400);
  t.regex(body.message, /not valid JSON/);
});

test('a body over 1 MiB is a 413', async (t) => {
  const response = await post(JSON.stringify({ ...valid, first_name: 'A'.repeat(1024 * 1024) }));
  t.is(response.status, 413);
  const body = await jsonOf(response);
  t.is(body.code, 'payload_too_large');
  t.regex(body.message, /1 MiB/);
});

test('a body sent chunked without a length over 1 MiB is a 413 too', async (t) => {
  const big = new TextEncoder().encode(JSON.stringify({ ...valid, first_name: 'A'.repeat(1100 * 1024) }));
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(big);
      controller.close();
    },
  });
  const response = await fetch(`${base}/v1/test/travelers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  t.is(response.status, 413);
});

test('a body that is not JSON is a 415', async (t) => {
  const response = await post('first_name=Ada', { 'content-type': 'application/x-www-form-urlencoded' });
  t.is(response.status, 415);
  const body = await jsonOf(response);
  t.is(body.code, 'unsupported_media_type');
  t.regex(body.message, /application\/json/);
});

test('zod failures become the validation envelope keyed by field path, naming each rule', async (t) => {
  const response = await post(
    JSON.stringify({ first_name: 'A', email: 'not-an-email', gender: 'other', nights: 1.5, tags: ['a', 'b', 'c'], extra: true }),
  );
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.is(body.code, 'validation_error');
  t.is(typeof body.message, 'string');
  t.deepEqual(Object.keys(body.fields).sort(), ['email', 'extra', 'first_name', 'gender', 'nights', 'tags']);
  t.like(body.fields.first_name, { field: 'first_name', rule: 'min_length' });
  t.like(body.fields.email, { field: 'email', rule: 'email' });
  t.like(body.fields.gender, { field: 'gender', rule: 'enum' });
  t.like(body.fields.nights, { field: 'nights', rule: 'type' });
  t.like(body.fields.tags, { field: 'tags', rule: 'max_items' });
  t.like(body.fields.extra, { field: 'extra', rule: 'unknown_field' });
  for (const entry of Object.values(body.fields) as Array<{ message: string }>) t.true(entry.message.length > 0);
});

test('a missing required field fails a required rule', async (t) => {
  const { first_name: _, ...withoutName } = valid;
  const response = await post(JSON.stringify(withoutName));
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.deepEqual(body.fields.first_name, { field: 'first_name', rule: 'required', message: 'first_name is required' });
});

test('a route with a body and none sent fails validation, not the server', async (t) => {
  const response = await fetch(`${base}/v1/test/travelers`, { method: 'POST' });
  t.is(response.status, 400);
  const body = await jsonOf(response);
  t.is(body.code, 'validation_error');
  t.like(body.fields['(body)'], { rule: 'required' });
});

test('an unknown path is a 404 in the standard envelope', async (t) => {
  const response = await fetch(`${base}/v1/no/such/thing`);
  t.is(response.status, 404);
  t.like(await jsonOf(response), { status_code: 404, code: 'route_not_found' });
});

test('a known path with the wrong method is a 405 with Allow', async (t) => {
  const response = await fetch(`${base}/v1/test/travelers`, { method: 'DELETE' });
  t.is(response.status, 405);
  t.is(response.headers.get('allow'), 'POST, OPTIONS');
  const body = await jsonOf(response);
  t.like(body, { status_code: 405, code: 'method_not_allowed' });
  t.regex(body.message, /use POST/);
});

test('a 5xx carries a generic message and the request id, never a stack or SQL', async (t) => {
  const response = await fetch(`${base}/v1/test/boom`, { headers: { 'x-request-id': 'trace-500-check' } });
  t.is(response.status, 500);
  t.is(response.headers.get('x-request-id'), 'trace-500-check');
  const body = await jsonOf(response);
  t.deepEqual(Object.keys(body).sort(), ['code', 'doc_url', 'message', 'request_id', 'status_code']);
  t.is(body.request_id, 'trace-500-check');
  t.is(body.doc_url, `${ORIGIN}/docs/errors#internal_error`);
  t.is(body.code, 'internal_error');
  t.notRegex(JSON.stringify(body), /secret_table|\.ts:|at /);
  // The detail is in the log, for us.
  t.true(logLines.some((line) => line.includes('secret_table') && line.includes('trace-500-check')));
});

test('a request id is generated when none (or an unsafe one) is sent', async (t) => {
  const generated = await fetch(`${base}/v1/no/such/thing`);
  t.regex(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  const unsafe = await fetch(`${base}/v1/no/such/thing`, { headers: { 'x-request-id': 'a b"<script>' } });
  t.regex(unsafe.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('JSON responses carry the API security headers (koa-helmet)', async (t) => {
  const response = await fetch(`${base}/v1/no/such/thing`);
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
  t.is(response.headers.get('content-security-policy'), "default-src 'none';frame-ancestors 'none'");
  t.is(response.headers.get('x-frame-options'), 'DENY');
  t.is(response.headers.get('referrer-policy'), 'no-referrer');
  t.regex(response.headers.get('strict-transport-security') ?? '', /max-age=\d+/);
});

test('a +json media type is parsed as JSON', async (t) => {
  const response = await post(JSON.stringify(valid), { 'content-type': 'application/merge-patch+json' });
  t.is(response.status, 201);
});

test('a body whose gzip is broken is a 400, not a 500', async (t) => {
  const response = await post('certainly not gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  t.is(response.status, 400);
  t.like(await jsonOf(response), { status_code: 400, code: 'invalid_body' });
});

test('a body in an unknown encoding is a 415', async (t) => {
  const response = await post('x', { 'content-type': 'application/json', 'content-encoding': 'compress' });
  t.is(response.status, 415);
});

/** The error carries the answer's request id and its code's section of the errors page. */
async function referenced(t: ExecutionContext, response: Response, code: string) {
  const body = await jsonOf(response);
  t.is(body.code, code);
  t.regex(response.headers.get('x-request-id') ?? '', /.+/);
  t.is(body.request_id, response.headers.get('x-request-id'), `${code}: request_id`);
  t.is(body.doc_url, `${ORIGIN}/docs/errors#${code}`, `${code}: doc_url`);
  return body;
}

test('every envelope with a code carries request_id and doc_url, whichever way it was made', async (t) => {
  // The validation envelope, from a schema.
  const invalid = await post(JSON.stringify({ ...valid, nights: 0 }));
  t.is(invalid.status, 400);
  t.truthy((await referenced(t, invalid, 'validation_error')).fields.nights);
  // HttpProblems: an unreadable body, a too large one, the wrong type, no route, the wrong method.
  t.like(await referenced(t, await post('{'), 'invalid_json'), { status_code: 400 });
  t.like(await referenced(t, await post(JSON.stringify({ ...valid, first_name: 'A'.repeat(1024 * 1024) })), 'payload_too_large'), { status_code: 413 });
  t.like(await referenced(t, await post('x', { 'content-type': 'text/plain' }), 'unsupported_media_type'), { status_code: 415 });
  t.like(await referenced(t, await fetch(`${base}/v1/no/such/thing`), 'route_not_found'), { status_code: 404 });
  t.like(await referenced(t, await fetch(`${base}/v1/test/travelers`, { method: 'DELETE' }), 'method_not_allowed'), { status_code: 405 });
  // A request id the caller sent is the one quoted.
  const traced = await fetch(`${base}/v1/no/such/thing`, { headers: { 'x-request-id': 'partner-trace-42' } });
  t.is((await referenced(t, traced, 'route_not_found')).request_id, 'partner-trace-42');
});

test('the partner key’s standard envelope and the bearer token’s OAuth envelope both carry them', async (t) => {
  const noKey = await fetch(`${base}/v1/test/profile`);
  t.is(noKey.status, 401);
  t.like(await referenced(t, noKey, 'api_key_missing'), { status_code: 401 });

  const partner = await partners.createPartner({ name: 'Envelope reader' });
  const badToken = await fetch(`${base}/v1/test/profile`, { headers: { 'x-api-key': partner.api_key, authorization: 'Bearer not.a.token' } });
  t.is(badToken.status, 401);
  t.regex(badToken.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  const body = await referenced(t, badToken, 'invalid_token');
  t.deepEqual(Object.keys(body).sort(), ['code', 'doc_url', 'error', 'error_description', 'request_id']);
  t.is(body.error, 'invalid_token');
});

test('a standard envelope written in place gets them too; another door’s envelope is left as it is', async (t) => {
  const written = await fetch(`${base}/v1/test/written`);
  t.is(written.status, 415);
  t.like(await referenced(t, written, 'unsupported_media_type'), { status_code: 415, message: 'Send the body in UTF-8.' });

  const foreign = await fetch(`${base}/v1/test/foreign`);
  t.is(foreign.status, 429);
  t.deepEqual(await jsonOf(foreign), { code: 'api_key_not_allowed', message: 'Remove the x-api-key header.' });
});
