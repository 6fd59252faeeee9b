import os from 'node:os';
import { Writable } from 'node:stream';
import test from 'ava';
import got from 'got';
import { openDatabase } from '../core/db/database.js';
import { createLogger } from '../core/logger.js';
import { createTestDatabase } from './helpers/database.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

test('secrets, card and document numbers are redacted wherever another module logs them', (t) => {
  const { lines, logger } = capture();
  logger.info(
    {
      req: { headers: { authorization: 'Bearer eyJsecret', 'x-api-key': 'tpk_abc_secretkey', cookie: 'sid=secretcookie', host: 'h' } },
      res: { headers: { 'set-cookie': 'sid=secretcookie2' } },
      card: { card_number: '4111111111111111', cvc: '123' },
      passenger: { document_number: 'P1234567', first_name: 'Ada' },
      api_key: 'tpk_top_level_secret',
    },
    'something happened',
  );
  t.is(lines.length, 1);
  const line = lines[0] as string;
  for (const secret of ['eyJsecret', 'secretkey', 'secretcookie', 'secretcookie2', '4111111111111111', '123"', 'P1234567', 'tpk_top_level_secret']) {
    t.false(line.includes(secret), secret);
  }
  const entry = JSON.parse(line);
  t.is(entry.req.headers.authorization, '[redacted]');
  t.is(entry.req.headers['x-api-key'], '[redacted]');
  t.is(entry.req.headers.host, 'h');
  t.is(entry.passenger.first_name, 'Ada');
  t.is(entry.msg, 'something happened');
});

test('an error logged under err keeps its message and loses its secrets', (t) => {
  const { lines, logger } = capture();
  const error = Object.assign(new Error('provider said no'), { context: { headers: { authorization: 'Bearer leaked' } } });
  logger.error({ err: error }, 'failed');
  const entry = JSON.parse(lines[0] as string);
  t.is(entry.err.message, 'provider said no');
  t.is(entry.err.context.headers.authorization, '[redacted]');
  t.false((lines[0] as string).includes('leaked'));
});

test('entries without secrets are logged untouched', (t) => {
  const { lines, logger } = capture();
  logger.info({ req_id: 'r1', method: 'GET', path: '/v1/x', status: 200, nested: { list: [{ ok: 1 }] } }, 'request');
  t.like(JSON.parse(lines[0] as string), { req_id: 'r1', method: 'GET', path: '/v1/x', status: 200, nested: { list: [{ ok: 1 }] } });
});

test('a body parser’s error is logged without the body it could not read', (t) => {
  const { lines, logger } = capture();
  const body = '{"first_name": "Zelda Quartermain", "loyalty": "QX98765432"';
  let parseError: unknown;
  try {
    JSON.parse(body);
  } catch (error) {
    // What co-body (under koa-body) throws: JSON.parse's error, with the status and the raw body attached.
    parseError = Object.assign(error as Error, { status: 400, body });
  }
  logger.error({ err: parseError, req_id: 'req-parse' }, 'unhandled error');
  const line = lines[0] as string;
  t.false(line.includes('Zelda'), line);
  t.false(line.includes('QX98765432'), line);
  const entry = JSON.parse(line);
  t.is(entry.req_id, 'req-parse');
  t.is(entry.err.type, 'SyntaxError');
  t.is(entry.err.status, 400);
  t.is(entry.err.body, undefined);
});

test('an HTTP client’s error is logged without the request it carries: no credentials, no body', async (t) => {
  const { lines, logger } = capture();
  let requestError: unknown;
  try {
    // Nothing listens on port 9 of the loopback address: the request fails at once with got's RequestError.
    await got.post('http://127.0.0.1:9/v1/identity/resolve', {
      headers: { authorization: `Basic ${Buffer.from('airline:s3cr3t-value').toString('base64')}` },
      json: { recognition_token: 'TOKEN-q7Jx0bV3mZ2kTn8s' },
      retry: { limit: 0 },
    });
  } catch (error) {
    requestError = error;
  }
  t.truthy(requestError);
  logger.warn({ err: requestError }, 'resolve call failed');
  const line = lines[0] as string;
  t.false(line.includes(Buffer.from('airline:s3cr3t-value').toString('base64')), line);
  t.false(line.includes('TOKEN-q7Jx0bV3mZ2kTn8s'), line);
  const entry = JSON.parse(line);
  t.is(entry.err.type, 'RequestError');
  t.is(entry.err.code, 'ECONNREFUSED');
  t.is(entry.err.options, undefined);
  t.is(entry.err.request, 'POST http://127.0.0.1:9/v1/identity/resolve', 'where it went stays, to find the fault');
});

test('PostgreSQL’s errors are logged with their SQLSTATE and names, never the data around them or the SQL', async (t) => {
  const database = await createTestDatabase();
  const db = await openDatabase({ databaseUrl: database.url, dataDir: os.tmpdir(), poolMax: 1 });
  t.teardown(async () => {
    await db.close();
    await database.drop();
  });
  await db.knex.schema.createTable('travelers', (table) => {
    table.text('email').unique();
    table.jsonb('details');
  });
  await db.knex('travelers').insert({ email: 'zelda@example.com' });
  const failures = await Promise.all([
    // jsonb refuses a lone surrogate: `where` quotes the JSON around it.
    db.knex('travelers').insert({ details: JSON.stringify({ name: 'Zelda Quartermain', loyalty: 'QX98765432\ud800' }) }),
    // A unique violation: `detail` names the value.
    db.knex('travelers').insert({ email: 'zelda@example.com' }),
    // A failed cast: the message itself quotes the value.
    db.knex.raw('select ?::uuid', ['zelda@example.com']),
  ].map((query) => query.then(() => undefined, (error: unknown) => error as Error & { code: string })));

  const { lines, logger } = capture();
  for (const error of failures) {
    t.truthy(error, 'the query failed');
    t.false(/insert into|select/i.test(error?.message ?? ''), `the error carries no SQL: ${error?.message}`);
    logger.error({ err: error, req_id: 'req-db' }, 'unhandled error');
  }
  const [json, unique, cast] = lines.map((line) => JSON.parse(line));
  for (const line of lines) {
    for (const personal of ['Zelda', 'QX98765432', 'zelda@example.com']) t.false(line.includes(personal), `${personal} in ${line}`);
    t.false(/insert into|select /i.test(line), `SQL in ${line}`);
  }
  t.like(json, { req_id: 'req-db', err: { type: 'DatabaseError', code: '22P02', message: 'invalid input syntax for type json' } });
  t.like(unique, { err: { code: '23505', constraint: 'travelers_email_unique', table: 'travelers' } });
  t.is(cast.err.code, '22P02');
  t.regex(cast.err.message, /^invalid input syntax for type uuid/);
});

test('what an error holds is logged the same way: causes and error-valued fields lose their content too', (t) => {
  const { lines, logger } = capture();
  const database = Object.assign(new Error('invalid input syntax for type uuid: "zelda@example.com"'), {
    severity: 'ERROR',
    code: '22P02',
    where: 'unnamed portal parameter $1 = \'zelda@example.com\'',
  });
  const wrapped = Object.assign(new Error('saving the traveler failed', { cause: database }), { original: database, body: '{"email":"zelda@example.com"}' });
  logger.error({ err: wrapped, req_id: 'req-nested' }, 'unhandled error');
  const line = lines[0] as string;
  t.false(line.includes('zelda'), line);
  const entry = JSON.parse(line);
  t.is(entry.err.message, 'saving the traveler failed');
  t.like(entry.err.cause, { code: '22P02', message: 'invalid input syntax for type uuid: "[redacted]"' });
  t.like(entry.err.original, { code: '22P02' });
});
