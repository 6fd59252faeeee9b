/**
 * The card vault sandbox over real HTTP: its keys and what each may do, the card checks, sessions and
 * their expiry, tokens (masked, merge-patched, deleted), detokenization for the processor, what is kept
 * in the database (never a card in clear), its request log and its answer to the unexpected. The hosted
 * card fields page is card-vault-hosted-fields.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SANDBOX_VAULT_KEY } from '../config.js';
import { SecretBox } from '../core/crypto/secret-box.js';
import { openDatabase } from '../core/db/database.js';
import { createLogger } from '../core/logger.js';
import { passesLuhn } from '../providers/vault/card-numbers.js';
import { SANDBOX_PROCESSOR_VAULT_KEY, sweepExpiredVaultSessions, vaultSandbox } from '../providers/vault/sandbox.js';
import { createTestDatabase } from './helpers/database.js';
import type { Json } from './helpers/http.js';
import { startVaultSandbox, type RunningVault } from './helpers/vault-sandbox.js';

const SERVICE = SANDBOX_VAULT_KEY;
const PROCESSOR = SANDBOX_PROCESSOR_VAULT_KEY;
const ORIGIN = 'http://localhost:8080';

let vault: RunningVault;
/** What the vault's request log wrote, for every test of this file. */
const logLines: string[] = [];
const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });

// Tests that move the clock run serially, before the others (ava runs serial tests first).
test.before(async () => {
  vault = await startVaultSandbox({ logger });
});
test.after.always(async () => {
  await vault?.close();
});

interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

async function call(method: string, path: string, key?: string, body?: unknown, type = 'application/json'): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers['bt-api-key'] = key;
  if (body !== undefined) headers['content-type'] = type;
  const response = await fetch(`${vault.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

const nextYear = () => vault.clock.now().getUTCFullYear() + 1;
const card = (number: string, cvc: string | undefined = '123', more: Record<string, unknown> = {}) => ({
  type: 'card',
  data: { number, expiration_month: 12, expiration_year: nextYear(), ...(cvc === undefined ? {} : { cvc }), ...more },
});

async function createToken(number = '4242424242424242', cvc: string | undefined = '123', key = SERVICE, metadata?: Record<string, string>): Promise<Json> {
  const answer = await call('POST', '/tokens', key, { ...card(number, cvc), ...(metadata ? { metadata } : {}) });
  if (answer.status !== 201) throw new Error(`token not created: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function openSession(owner = 'traveler-1', origin = ORIGIN): Promise<string> {
  const answer = await call('POST', '/sessions', SERVICE, { owner, origin });
  if (answer.status !== 201) throw new Error(`session not opened: ${answer.status}`);
  return answer.body.session_key;
}

/** A number of `prefix` and `length` digits that passes Luhn. */
function luhnNumber(prefix: string, length: number): string {
  const body = prefix.padEnd(length - 1, '0');
  for (let digit = 0; digit <= 9; digit++) if (passesLuhn(`${body}${digit}`)) return `${body}${digit}`;
  throw new Error('unreachable');
}

test('health answers without a key', async (t) => {
  const answer = await call('GET', '/health');
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { status: 'ok' });
});

test('no key or an unknown key is 401; a key without the permission is 403; as problem details', async (t) => {
  const token = await createToken();
  const missing = await call('GET', `/tokens/${token.id}`);
  t.is(missing.status, 401);
  t.deepEqual(missing.body, { title: 'Unauthorized', status: 401, detail: 'The BT-API-KEY header is missing.' });
  t.regex(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);
  t.is((await call('GET', `/tokens/${token.id}`, 'key_test_nobody')).status, 401);
  t.is((await call('POST', '/tokens', 'key_test_session_forged', card('4242424242424242'))).status, 401);

  const forbidden = await call('POST', '/detokenize', SERVICE, { token_id: token.id });
  t.is(forbidden.status, 403);
  t.like(forbidden.body, { title: 'Forbidden', status: 403 });
  // The processor detokenizes, and does nothing else.
  t.is((await call('GET', `/tokens/${token.id}`, PROCESSOR)).status, 403);
  t.is((await call('POST', '/tokens', PROCESSOR, card('4242424242424242'))).status, 403);
  t.is((await call('PATCH', `/tokens/${token.id}`, PROCESSOR, { metadata: {} })).status, 403);
  t.is((await call('DELETE', `/tokens/${token.id}`, PROCESSOR)).status, 403);
  t.is((await call('POST', '/sessions', PROCESSOR, { owner: 'x', origin: ORIGIN })).status, 403);
});

test('a session key creates tokens and nothing else: it cannot read, change, delete, detokenize or open sessions', async (t) => {
  const session = await openSession();
  const token = await createToken('4242424242424242', '123', session);
  for (const [method, path, body] of [
    ['GET', `/tokens/${token.id}`, undefined],
    ['PATCH', `/tokens/${token.id}`, { metadata: {} }],
    ['DELETE', `/tokens/${token.id}`, undefined],
    ['POST', '/detokenize', { token_id: token.id }],
    ['POST', '/sessions', { owner: 'x', origin: ORIGIN }],
  ] as const) {
    t.is((await call(method, path, session, body)).status, 403, `${method} ${path}`);
  }
  t.is((await call('GET', `/tokens/${token.id}`, SERVICE)).status, 200, 'the token is still there');
});

test('the success test numbers of each network give their brand, last four and the masked shape', async (t) => {
  const expected = { '4242424242424242': 'visa', '5555555555554444': 'mastercard', '378282246310005': 'amex', '6011111111111117': 'discover' };
  for (const [number, brand] of Object.entries(expected)) {
    const token = await createToken(number, brand === 'amex' ? '1234' : '123');
    t.like(token, { type: 'card', card: { brand, last4: number.slice(-4), expiration_month: 12, expiration_year: nextYear() }, owner: null, metadata: {} }, number);
    t.regex(token.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    t.regex(token.tenant_id, /^[0-9a-f-]{36}$/);
    t.is(token.modified_at, null);
    t.false(JSON.stringify(token).includes(number), 'no number in a masked token');
  }
  const mastercard2 = await createToken('2223003122003222');
  t.is(mastercard2.card.brand, 'mastercard');
  const jcb = await createToken('3566002020360505');
  t.is(jcb.card.brand, 'jcb', 'another network is kept, under its own name: the service decides whether it takes it');
  const unknown = await createToken(luhnNumber('9', 16));
  t.is(unknown.card.brand, 'unknown');
  const spaced = await call('POST', '/tokens', SERVICE, card('4242 4242-4242 4242'));
  t.is(spaced.status, 201, 'spaces and dashes are stripped');
});

test('validation: Luhn, length, expiry, CVC length per network, in the vault problem format', async (t) => {
  const luhn = await call('POST', '/tokens', SERVICE, card('4242424242424241'));
  t.is(luhn.status, 400);
  t.deepEqual(luhn.body, {
    type: 'https://docs.basistheory.com/docs/api/errors',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors: { 'data.number': ['Card number is invalid.'] },
  });
  const problems = async (body: unknown) => (await call('POST', '/tokens', SERVICE, body)).body.errors;
  t.deepEqual(Object.keys(await problems(card(luhnNumber('37', 16), '1234'))), ['data.number'], 'amex has 15 digits');
  t.deepEqual(Object.keys(await problems(card(luhnNumber('4', 12)))), ['data.number'], 'too short');
  t.deepEqual(Object.keys(await problems(card(luhnNumber('4', 20)))), ['data.number'], 'too long');
  t.deepEqual(Object.keys(await problems(card('4242abcd42424242'))), ['data.number']);
  t.deepEqual(await problems(card('')), { 'data.number': ['Card number is required.'] });

  t.deepEqual(await problems(card('378282246310005', '123')), { 'data.cvc': ['CVC must be 4 digits for American Express.'] });
  t.deepEqual(await problems(card('4242424242424242', '1234')), { 'data.cvc': ['CVC must be 3 digits.'] });
  t.deepEqual(await problems(card('4242424242424242', '12a')), { 'data.cvc': ['CVC must be 3 digits.'] });
  t.is((await call('POST', '/tokens', SERVICE, card('4242424242424242', undefined))).status, 201, 'the CVC is optional');

  const now = vault.clock.now();
  const lastYear = card('4242424242424242', '123', { expiration_year: now.getUTCFullYear() - 1 });
  t.deepEqual(await problems(lastYear), { 'data.expiration_year': ['Card is expired.'] });
  const thisMonth = card('4242424242424242', '123', { expiration_month: now.getUTCMonth() + 1, expiration_year: now.getUTCFullYear() });
  t.is((await call('POST', '/tokens', SERVICE, thisMonth)).status, 201, 'a card is good through its expiry month');
  t.deepEqual(Object.keys(await problems(card('4242424242424242', '123', { expiration_month: 13 }))), ['data.expiration_month']);
  t.deepEqual(Object.keys(await problems(card('4242424242424242', '123', { expiration_month: 0 }))), ['data.expiration_month']);
  t.deepEqual(Object.keys(await problems(card('4242424242424242', '123', { expiration_year: 30 }))), ['data.expiration_year']);
  t.deepEqual(Object.keys(await problems(card('4242424242424242', '123', { expiration_month: '12' }))), ['data.expiration_month']);

  t.deepEqual(Object.keys(await problems({ type: 'bank', data: card('4242424242424242').data })), ['type']);
  t.deepEqual(Object.keys(await problems({ ...card('4242424242424242'), metadata: { note: 'x' } })), ['metadata.note'], 'metadata takes the two details only');
  t.deepEqual(Object.keys(await problems(card('4242424242424242', '123', { track2: 'x' }))), ['data.track2']);
  t.deepEqual(Object.keys(await problems({})), ['type', 'data']);
});

test.serial('a card expires with the injected clock: accepted now, refused once its month is over', async (t) => {
  const now = vault.clock.now();
  const body = card('4242424242424242', '123', { expiration_month: now.getUTCMonth() + 1, expiration_year: now.getUTCFullYear() });
  t.is((await call('POST', '/tokens', SERVICE, body)).status, 201);
  const other = startOfNextMonth(now).getTime() - now.getTime() + 1000;
  vault.clock.advance(other);
  try {
    const refused = await call('POST', '/tokens', SERVICE, body);
    t.is(refused.status, 400);
    t.true('data.expiration_month' in refused.body.errors || 'data.expiration_year' in refused.body.errors);
  } finally {
    vault.clock.advance(-other);
  }
});

function startOfNextMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

test.serial('sessions: 10 minutes, bound to an owner its tokens carry; expired is 401; the sweep removes them', async (t) => {
  const before = vault.clock.now();
  const opened = await call('POST', '/sessions', SERVICE, { owner: 'traveler-42', origin: ORIGIN });
  t.is(opened.status, 201);
  t.regex(opened.body.session_key, /^key_test_session_[A-Za-z0-9_-]{20,}$/);
  const expiresAt = new Date(opened.body.expires_at).getTime();
  t.true(Math.abs(expiresAt - before.getTime() - 10 * 60_000) < 5_000);

  const token = await createToken('4242424242424242', '123', opened.body.session_key);
  t.is(token.owner, 'traveler-42');
  t.is((await call('GET', `/tokens/${token.id}`, SERVICE)).body.owner, 'traveler-42');

  const stored = await vault.knex('vault_sandbox_sessions').select('*');
  t.false(JSON.stringify(stored).includes(opened.body.session_key), 'only a digest of the key is kept');

  vault.clock.advance(10 * 60_000 + 1000);
  try {
    const expired = await call('POST', '/tokens', opened.body.session_key, card('4242424242424242'));
    t.is(expired.status, 401);
    t.true((await sweepExpiredVaultSessions(vault.knex, vault.clock)) >= 1);
    const left = await vault.knex('vault_sandbox_sessions').where('expires_at', '<=', vault.clock.now()).count({ n: '*' });
    t.is(Number(left[0]?.n), 0);
  } finally {
    vault.clock.advance(-(10 * 60_000 + 1000));
  }
  t.is((await call('POST', '/tokens', opened.body.session_key, card('4242424242424242'))).status, 401, 'a swept session is gone for good');
});

test('sessions refuse an owner out of bounds and an origin that is not an exact origin', async (t) => {
  const errors = async (body: unknown) => {
    const answer = await call('POST', '/sessions', SERVICE, body);
    t.is(answer.status, 400);
    return Object.keys(answer.body.errors);
  };
  t.deepEqual(await errors({ owner: '', origin: ORIGIN }), ['owner']);
  t.deepEqual(await errors({ owner: 'x'.repeat(201), origin: ORIGIN }), ['owner']);
  t.deepEqual(await errors({ owner: 'x', origin: 'http://localhost:8080/' }), ['origin']);
  t.deepEqual(await errors({ owner: 'x', origin: 'https://partner.example/cards' }), ['origin']);
  t.deepEqual(await errors({ owner: 'x', origin: 'javascript:alert(1)' }), ['origin']);
  t.deepEqual(await errors({ owner: 'x' }), ['origin']);
  t.is((await call('POST', '/sessions', SERVICE, { owner: 'x'.repeat(200), origin: 'https://www.example-airline.com' })).status, 201);
});

test('detokenize gives the processor the card, with the CVC the first time only', async (t) => {
  const token = await createToken('5555555555554444', '321');
  const first = await call('POST', '/detokenize', PROCESSOR, { token_id: token.id });
  t.is(first.status, 200);
  t.deepEqual(first.body, { id: token.id, data: { number: '5555555555554444', expiration_month: 12, expiration_year: nextYear(), cvc: '321' } });
  const second = await call('POST', '/detokenize', PROCESSOR, { token_id: token.id });
  t.deepEqual(second.body, { id: token.id, data: { number: '5555555555554444', expiration_month: 12, expiration_year: nextYear() } });
  const row = await vault.knex('vault_sandbox_tokens').where({ id: token.id }).first('sealed_cvc');
  t.is(row.sealed_cvc, null, 'the security code is erased, not only hidden');

  t.is((await call('POST', '/detokenize', PROCESSOR, { token_id: '00000000-0000-4000-8000-000000000000' })).status, 404);
  const invalid = await call('POST', '/detokenize', PROCESSOR, { token_id: 'tok_1' });
  t.is(invalid.status, 400);
  t.deepEqual(Object.keys(invalid.body.errors), ['token_id']);
});

test('two detokenizations at once: one of them gets the CVC', async (t) => {
  const token = await createToken('4242424242424242', '456');
  const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/detokenize', PROCESSOR, { token_id: token.id })));
  t.deepEqual(answers.map((answer) => answer.status), [200, 200, 200]);
  t.is(answers.filter((answer) => answer.body.data.cvc === '456').length, 1);
});

test('fingerprints: the same number gives the same one, another number another, and none is a plain hash', async (t) => {
  const one = await createToken('4242424242424242', '123');
  const again = await call('POST', '/tokens', SERVICE, card('4242 4242 4242 4242', '999', { expiration_month: 1 }));
  const other = await createToken('4000056655665556', '123');
  t.is(again.body.fingerprint, one.fingerprint);
  t.not(other.fingerprint, one.fingerprint);
  for (const encoding of ['hex', 'base64', 'base64url'] as const) {
    t.not(one.fingerprint, createHash('sha256').update('4242424242424242').digest(encoding));
  }
});

test('PATCH merges the metadata: a string sets, null removes, absent keeps; merge-patch or plain JSON', async (t) => {
  const token = await createToken('4242424242424242', '123', SERVICE, { cardholder_name: 'Ada Lovelace', billing_zip: '94105' });
  t.deepEqual(token.metadata, { cardholder_name: 'Ada Lovelace', billing_zip: '94105' });

  const zipOnly = await call('PATCH', `/tokens/${token.id}`, SERVICE, { metadata: { billing_zip: 'SW1A 1AA' } }, 'application/merge-patch+json');
  t.is(zipOnly.status, 200);
  t.deepEqual(zipOnly.body.metadata, { cardholder_name: 'Ada Lovelace', billing_zip: 'SW1A 1AA' });
  t.not(zipOnly.body.modified_at, null);
  t.like(zipOnly.body, { id: token.id, card: token.card, fingerprint: token.fingerprint });

  const removed = await call('PATCH', `/tokens/${token.id}`, SERVICE, { metadata: { cardholder_name: null } });
  t.deepEqual(removed.body.metadata, { billing_zip: 'SW1A 1AA' });
  t.deepEqual((await call('GET', `/tokens/${token.id}`, SERVICE)).body.metadata, { billing_zip: 'SW1A 1AA' });
  const cleared = await call('PATCH', `/tokens/${token.id}`, SERVICE, { metadata: null }, 'application/merge-patch+json');
  t.deepEqual(cleared.body.metadata, {});

  const invalid = async (metadata: unknown) => {
    const answer = await call('PATCH', `/tokens/${token.id}`, SERVICE, { metadata });
    t.is(answer.status, 400);
    return Object.keys(answer.body.errors);
  };
  t.deepEqual(await invalid({ cardholder_name: '' }), ['metadata.cardholder_name']);
  t.deepEqual(await invalid({ cardholder_name: 'x'.repeat(101) }), ['metadata.cardholder_name']);
  t.deepEqual(await invalid({ billing_zip: '12' }), ['metadata.billing_zip']);
  t.deepEqual(await invalid({ billing_zip: '12345678901' }), ['metadata.billing_zip']);
  t.deepEqual(await invalid({ billing_zip: '123;45' }), ['metadata.billing_zip']);
  t.deepEqual(await invalid({ number: '4242424242424242' }), ['metadata.number']);
  t.deepEqual(await invalid({ cardholder_name: 'Ada\u0000' }), ['metadata.cardholder_name']);
  t.is((await call('PATCH', `/tokens/${token.id}`, SERVICE, { metadata: {} }, 'text/plain')).status, 415);
  t.is((await call('PATCH', '/tokens/00000000-0000-4000-8000-000000000000', SERVICE, { metadata: {} })).status, 404);
});

test('DELETE wipes the token: then it is 404 everywhere, and a second DELETE is 404', async (t) => {
  const token = await createToken();
  const deleted = await call('DELETE', `/tokens/${token.id}`, SERVICE);
  t.is(deleted.status, 204);
  t.is(await vault.knex('vault_sandbox_tokens').where({ id: token.id }).first(), undefined);
  const gone = await call('GET', `/tokens/${token.id}`, SERVICE);
  t.is(gone.status, 404);
  t.deepEqual(gone.body, { title: 'Not Found', status: 404, detail: 'The token was not found.' });
  t.is((await call('POST', '/detokenize', PROCESSOR, { token_id: token.id })).status, 404);
  t.is((await call('PATCH', `/tokens/${token.id}`, SERVICE, { metadata: {} })).status, 404);
  t.is((await call('DELETE', `/tokens/${token.id}`, SERVICE)).status, 404);
  t.is((await call('GET', '/tokens/not-a-uuid', SERVICE)).status, 404);
});

test('a dump of every table holds neither the card number nor the security code', async (t) => {
  const number = '6011111111111117';
  const cvc = '8714';
  const amexNumber = '378282246310005';
  const session = await openSession();
  const token = await createToken(number, '871', session, { cardholder_name: 'Grace Hopper' });
  const amex = await createToken(amexNumber, cvc);
  await call('PATCH', `/tokens/${token.id}`, SERVICE, { metadata: { billing_zip: '10001' } });
  const tables: string[] = (await vault.knex.raw(`select tablename from pg_tables where schemaname = 'public'`)).rows.map((row: { tablename: string }) => row.tablename);
  t.true(tables.includes('vault_sandbox_tokens') && tables.includes('vault_sandbox_sessions') && tables.includes('vault_sandbox_keys'));
  const cells: string[] = [];
  for (const table of tables) {
    // Every value as PostgreSQL prints it (the text a dump would hold).
    const rows = (await vault.knex.raw(`select t::text as line from ?? t`, [table])).rows as { line: string }[];
    cells.push(...rows.map((row) => row.line));
  }
  const dump = cells.join('\n');
  t.true(dump.includes(token.id) && dump.includes(amex.id), 'the dump has the tokens');
  for (const secret of [number, amexNumber, '6011 1111 1111 1117']) t.false(dump.includes(secret), secret);
  // A 3- or 4-digit code can turn up by chance inside ids and ciphertexts: look for it as a value.
  for (const code of ['871', cvc]) t.false(new RegExp(`[(,"]${code}[),"]`).test(dump), code);
  const row = await vault.knex('vault_sandbox_tokens').where({ id: token.id }).first();
  t.is(row.last4, '1117');
  t.true(String(row.sealed_number).startsWith('v1.'));
});

test('request bodies: not JSON is 415, unreadable is 400, unknown routes 404 and wrong methods 405, as problems', async (t) => {
  const notJson = await fetch(`${vault.url}/tokens`, { method: 'POST', headers: { 'bt-api-key': SERVICE, 'content-type': 'text/plain' }, body: 'number=4242' });
  t.is(notJson.status, 415);
  const broken = await fetch(`${vault.url}/tokens`, { method: 'POST', headers: { 'bt-api-key': SERVICE, 'content-type': 'application/json' }, body: '{"type":' });
  t.is(broken.status, 400);
  t.like(await broken.json(), { title: 'Bad Request', status: 400 });
  t.is((await call('GET', '/nowhere', SERVICE)).status, 404);
  const wrongMethod = await call('PUT', '/tokens/00000000-0000-4000-8000-000000000000', SERVICE, {});
  t.is(wrongMethod.status, 405);
  t.like(wrongMethod.body, { title: 'Method Not Allowed', status: 405 });
});

test('the request log names method, path and status: never a key, a body or the query', async (t) => {
  const session = await openSession('traveler-log', ORIGIN);
  const token = await createToken('5555555555554444', '909', session, { cardholder_name: 'Log Lovelace' });
  await call('POST', '/detokenize', PROCESSOR, { token_id: token.id });
  await fetch(`${vault.url}/elements/card?session_key=${encodeURIComponent(session)}`);
  const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
  t.true(lines.some((line) => line.msg === 'vault request' && line.path === '/detokenize' && line.method === 'POST' && line.status === 200));
  t.true(lines.some((line) => line.path === '/elements/card' && line.status === 200));
  const written = logLines.join('\n');
  for (const secret of ['5555555555554444', '4242424242424242', '"909"', 'Log Lovelace', session, SERVICE, PROCESSOR, 'session_key=']) {
    t.false(written.includes(secret), secret);
  }
});

test('an unexpected failure (a database without the vault tables) is a 500 problem with no detail of ours', async (t) => {
  const lines: string[] = [];
  const unmigrated = await createTestDatabase(undefined, { empty: true });
  const broken = await openDatabase({ databaseUrl: unmigrated.url, dataDir: '.', poolMax: 1 });
  const app = vaultSandbox({
    db: broken.knex,
    clock: { now: () => new Date() },
    secrets: new SecretBox([randomBytes(32).toString('base64')]),
    serviceKeys: [SERVICE],
    logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await fetch(`${url}/tokens`, {
      method: 'POST',
      headers: { 'bt-api-key': SERVICE, 'content-type': 'application/json' },
      body: JSON.stringify(card('4242424242424242')),
    });
    t.is(response.status, 500);
    t.deepEqual(await response.json(), { title: 'Internal Server Error', status: 500, detail: 'An unexpected error occurred.' });
    t.true(lines.some((line) => line.includes('vault sandbox: unexpected error')));
    t.false(lines.join('\n').includes('4242424242424242'));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await broken.close();
    await unmigrated.drop();
  }
});
