/**
 * The REST door's error envelopes, proven on the real middleware chain with two routes of the test's
 * own: one that takes a strict JSON body, one that fails unexpectedly.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import test from 'ava';
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

const logLines: string[] = [];
let database: TestDatabase;
let db: Database;
let server: http.Server;
let base: string;

test.before(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 2 });
  await migrateToLatest(db.knex, database.url);
  await seedReferenceData(db.knex);
  const partners = new PartnerService(db.knex);
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
  t.deepEqual(Object.keys(body).sort(), ['code', 'message', 'request_id', 'status_code']);
  t.is(body.request_id, 'trace-500-check');
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
