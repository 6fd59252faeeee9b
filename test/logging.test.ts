import { Writable } from 'node:stream';
import test from 'ava';
import { createLogger } from '../core/logger.js';

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
  const error = Object.assign(new Error('provider said no'), { options: { headers: { authorization: 'Bearer leaked' } } });
  logger.error({ err: error }, 'failed');
  const entry = JSON.parse(lines[0] as string);
  t.is(entry.err.message, 'provider said no');
  t.is(entry.err.options.headers.authorization, '[redacted]');
  t.false((lines[0] as string).includes('leaked'));
});

test('entries without secrets are logged untouched', (t) => {
  const { lines, logger } = capture();
  logger.info({ req_id: 'r1', method: 'GET', path: '/v1/x', status: 200, nested: { list: [{ ok: 1 }] } }, 'request');
  t.like(JSON.parse(lines[0] as string), { req_id: 'r1', method: 'GET', path: '/v1/x', status: 200, nested: { list: [{ ok: 1 }] } });
});
