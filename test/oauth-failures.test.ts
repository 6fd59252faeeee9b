/**
 * A failure inside the authorization server leaves a trace: the error is logged with the request id,
 * a browser gets one of our pages (our stylesheet, which its CSP allows; plain words, not the library's
 * "oops! something went wrong"; the request id to quote), and a JSON client gets the same id.
 * The failure is real: the table the authorization server keeps its sessions and clients in is moved
 * away while the service runs.
 */
import { Writable } from 'node:stream';
import test from 'ava';
import { createLogger } from '../core/logger.js';
import { jsonOf } from './helpers/http.js';
import { startService, type RunningService } from './helpers/service.js';

const lines: string[] = [];
let running: RunningService;

test.before(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  running = await startService({}, { logger: createLogger('info', sink) });
});
test.after.always(async () => {
  await running?.close();
});

const logged = (requestId: string) => lines.map((line) => JSON.parse(line)).filter((entry) => entry.req_id === requestId && entry.level >= 50);

async function withoutOidcTable<T>(work: () => Promise<T>): Promise<T> {
  const { knex } = running.service.db;
  await knex.raw('ALTER TABLE oidc_models RENAME TO oidc_models_away');
  try {
    return await work();
  } finally {
    await knex.raw('ALTER TABLE oidc_models_away RENAME TO oidc_models');
  }
}

test.serial('a server error on the hosted pages: our page with our stylesheet, plain words and the request id; the error in the log', async (t) => {
  // The Connected apps page's own sign-in: the library loads the browser's session, from the missing table.
  const signIn = await fetch(`${running.url}/account/apps`, { redirect: 'manual' });
  const location = signIn.headers.get('location') as string;
  const response = await withoutOidcTable(() => fetch(location, { headers: { accept: 'text/html' }, redirect: 'manual' }));
  t.is(response.status, 500);
  const requestId = response.headers.get('x-request-id') as string;
  const page = await response.text();
  t.regex(page, /<link rel="stylesheet" href="\/assets\/pages\.css">/);
  t.regex(response.headers.get('content-security-policy') ?? '', /style-src 'self'/, 'the page’s CSP lets its stylesheet load');
  t.regex(page, /Something went wrong on our side/);
  t.false(page.includes('oops'), 'not the library’s words');
  t.true(page.includes(requestId), 'the request id to quote');

  const [entry] = logged(requestId);
  t.truthy(entry, 'the failure is in the log under the same request id');
  t.is(entry.msg, 'authorization server error');
  t.is(entry.err.code, '42P01', 'the database’s own code says what failed (an undefined table)');
});

test.serial('a server error at the token endpoint: JSON with our description and the request id; logged', async (t) => {
  const response = await withoutOidcTable(() =>
    fetch(`${running.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('some-client:secret').toString('base64')}` },
      body: 'grant_type=refresh_token&refresh_token=x',
    }),
  );
  t.is(response.status, 500);
  const requestId = response.headers.get('x-request-id') as string;
  const body = await jsonOf(response);
  t.is(body.error, 'server_error');
  t.is(body.request_id, requestId);
  t.regex(body.error_description, new RegExp(`quote request id ${requestId}`));
  t.is(logged(requestId).length, 1);
});

test.serial('the library’s other errors on a page are in plain words, with our stylesheet and the request id', async (t) => {
  const response = await fetch(`${running.url}/?response_type=code&client_id=no-such-client`, { headers: { accept: 'text/html' } });
  t.is(response.status, 400);
  const page = await response.text();
  t.regex(page, /is not registered with us/);
  t.regex(page, /<link rel="stylesheet" href="\/assets\/pages\.css">/);
  t.regex(response.headers.get('content-security-policy') ?? '', /style-src 'self'/);
  t.true(page.includes(response.headers.get('x-request-id') as string));
});
