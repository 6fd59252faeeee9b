/**
 * The adapters' HTTP client (providers/http-client.ts) against a real server on the loopback address:
 * what it sends, what it gives back for every kind of answer, and what it throws when there is none.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { HttpClient, HttpConnectionError, HttpStatusError, HttpTimeoutError } from '../providers/http-client.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
/** Requests that never answer, to be ended when the test is over. */
const hanging: ServerResponse[] = [];
let hungUp = 0;

const server = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
    const path = (request.url ?? '').split('?')[0];
    if (path === '/api/slow') {
      hanging.push(response);
      response.on('close', () => (hungUp += 1));
      return;
    }
    if (path === '/api/text') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('not json');
      return;
    }
    if (path === '/api/empty') {
      response.writeHead(204).end();
      return;
    }
    if (path === '/api/refused') {
      response.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ code: 'invalid_passenger' }] }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, path }));
  });
});

let baseUrl = '';

test.before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

test.after.always(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const client = (timeoutMs = 5_000) => new HttpClient({ baseUrl, headers: { authorization: 'Bearer secret', accept: 'application/json' }, timeoutMs });

test.serial('sends JSON with its type, the default headers, and the call’s own headers over them', async (t) => {
  seen.length = 0;
  const answer = await client().send({ method: 'POST', path: 'orders', json: { data: { a: 1 } }, headers: { accept: 'text/plain', 'idempotency-key': 'k1' } });
  t.deepEqual(answer, { status: 200, body: { ok: true, path: '/api/orders' } });
  const [request] = seen;
  t.is(request?.method, 'POST');
  t.is(request?.headers['content-type'], 'application/json');
  t.is(request?.headers.authorization, 'Bearer secret');
  t.is(request?.headers.accept, 'text/plain');
  t.is(request?.headers['idempotency-key'], 'k1');
  t.deepEqual(JSON.parse(request?.body ?? ''), { data: { a: 1 } });
});

test.serial('sends a form encoded, and a query string escaped', async (t) => {
  seen.length = 0;
  await client().send({ method: 'POST', path: 'intents', form: { amount: '100', description: 'a & b' } });
  await client().send({ method: 'GET', path: 'seat_maps', query: { offer_id: 'off_1 2&x' } });
  t.is(seen[0]?.headers['content-type'], 'application/x-www-form-urlencoded');
  t.is(seen[0]?.body, 'amount=100&description=a+%26+b');
  t.is(seen[1]?.url, '/api/seat_maps?offer_id=off_1+2%26x');
  t.is(seen[1]?.headers['content-type'], undefined, 'no body, no content type');
});

test('a body that is not JSON, or none, comes back as undefined with its status', async (t) => {
  t.deepEqual(await client().send({ method: 'GET', path: 'text' }), { status: 200, body: undefined });
  t.deepEqual(await client().send({ method: 'DELETE', path: 'empty' }), { status: 204, body: undefined });
});

test('send gives back a refusal; json throws it as HttpStatusError with its status and parsed body', async (t) => {
  t.deepEqual(await client().send({ method: 'POST', path: 'refused', json: {} }), { status: 422, body: { errors: [{ code: 'invalid_passenger' }] } });
  const error = await t.throwsAsync(client().json({ method: 'POST', path: 'refused', json: {} }), { instanceOf: HttpStatusError });
  t.is(error?.status, 422);
  t.deepEqual(error?.body, { errors: [{ code: 'invalid_passenger' }] });
  t.deepEqual(await client().json({ method: 'GET', path: 'fine' }), { ok: true, path: '/api/fine' });
});

test('an answer later than the deadline is HttpTimeoutError at the deadline, and the connection is closed', async (t) => {
  const started = Date.now();
  // Long enough that a loaded machine delivers the request before the deadline passes.
  await t.throwsAsync(client(1_000).send({ method: 'POST', path: 'slow', json: {} }), { instanceOf: HttpTimeoutError });
  const waited = Date.now() - started;
  t.true(waited >= 990 && waited < 6_000, `waited ${waited} ms`);
  // The server learns that its caller hung up: a sandbox stops waiting on it.
  for (let tries = 0; hungUp === 0 && tries < 250; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.true(hungUp > 0);
});

test('a fractional deadline, as what is left of a longer one, is taken (rounded up)', async (t) => {
  await t.throwsAsync(client(5_000).send({ method: 'POST', path: 'slow', json: {}, timeoutMs: 120.7 }), { instanceOf: HttpTimeoutError });
  t.is((await client(4_000.5).send({ method: 'GET', path: 'fast' })).status, 200);
});

test('no server at all is HttpConnectionError, never a timeout', async (t) => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const nowhere = new HttpClient({ baseUrl: `http://127.0.0.1:${port}`, headers: {}, timeoutMs: 5_000 });
  const error = await t.throwsAsync(nowhere.send({ method: 'GET', path: 'x' }), { instanceOf: HttpConnectionError });
  t.regex(error?.message ?? '', /GET http:\/\/127\.0\.0\.1:\d+\/x got no answer/);
});
