/**
 * The card vault adapter (core's CardVault) over real HTTP: against the vault sandbox, and against a
 * vault that is down, too slow, failing or refusing our key: every failure a domain error in our words.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { SANDBOX_VAULT_KEY } from '../config.js';
import { DomainError, NotFoundError, ProviderTimeoutError, ProviderUnavailableError, ValidationError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import { BasisTheoryVault } from '../providers/vault/adapter.js';
import { startVaultSandbox, type RunningVault } from './helpers/vault-sandbox.js';

let vault: RunningVault;
let adapter: BasisTheoryVault;

test.before(async () => {
  vault = await startVaultSandbox();
  adapter = new BasisTheoryVault({ baseUrl: `${vault.url}/`, apiKey: SANDBOX_VAULT_KEY });
});
test.after.always(async () => {
  await vault?.close();
});

/** What the hosted fields do in the browser: create a token with the session key. */
async function tokenFromBrowser(sessionKey: string, number = '4242424242424242'): Promise<string> {
  const response = await fetch(`${vault.url}/tokens`, {
    method: 'POST',
    headers: { 'bt-api-key': sessionKey, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'card', data: { number, expiration_month: 4, expiration_year: 2031, cvc: '123' } }),
  });
  if (response.status !== 201) throw new Error(`token not created: ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

async function metadataOf(tokenId: string): Promise<unknown> {
  const response = await fetch(`${vault.url}/tokens/${tokenId}`, { headers: { 'bt-api-key': SANDBOX_VAULT_KEY } });
  return ((await response.json()) as { metadata: unknown }).metadata;
}

/** A server that answers every request with `handler`, counting them. */
async function fakeVault(handler: http.RequestListener): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = http.createServer((request, response) => {
    count++;
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function assertOurWords(t: ExecutionContext, error: unknown, code: string): void {
  t.true(error instanceof DomainError);
  t.is((error as DomainError).code, code);
  t.false(/BT-API-KEY|problem|Unauthorized|Internal Server Error|ECONNREFUSED|127\.0\.0\.1/i.test((error as Error).message), (error as Error).message);
}

test('publicUrl is the vault origin; a session comes back with its key and expiry, and its tokens carry the owner', async (t) => {
  t.is(adapter.publicUrl, vault.url);
  const session = await adapter.openSession({ owner: 'user-123', origin: 'http://localhost:8080' });
  t.regex(session.sessionKey, /^key_test_session_/);
  t.true(session.expiresAt instanceof Date);
  t.true(Math.abs(session.expiresAt.getTime() - vault.clock.now().getTime() - 10 * 60_000) < 5_000);

  const tokenId = await tokenFromBrowser(session.sessionKey);
  const card = await adapter.readCard(tokenId);
  t.deepEqual({ ...card, fingerprint: undefined }, { tokenId, brand: 'visa', last4: '4242', expMonth: 4, expYear: 2031, fingerprint: undefined, owner: 'user-123' });
  t.true((card?.fingerprint ?? '').length > 20);
  const sameCard = await adapter.readCard(await tokenFromBrowser(session.sessionKey));
  t.is(sameCard?.fingerprint, card?.fingerprint, 'the same number, the same fingerprint');
});

test('readCard: unknown or malformed ids are undefined; a network the service does not take has no brand', async (t) => {
  t.is(await adapter.readCard('00000000-0000-4000-8000-000000000000'), undefined);
  t.is(await adapter.readCard('not a uuid/../sessions'), undefined);
  const session = await adapter.openSession({ owner: 'user-9', origin: 'https://www.example-airline.com' });
  const jcb = await adapter.readCard(await tokenFromBrowser(session.sessionKey, '3566002020360505'));
  t.like(jcb, { brand: undefined, last4: '0505', owner: 'user-9' });
});

test('updateCardDetails sets, clears (null) and keeps (absent) details; an unknown token is vault_token_not_found', async (t) => {
  const session = await adapter.openSession({ owner: 'user-5', origin: 'http://localhost:8080' });
  const tokenId = await tokenFromBrowser(session.sessionKey);
  await adapter.updateCardDetails(tokenId, { cardholderName: 'Ada Lovelace', billingZip: 'SW1A 1AA' });
  t.deepEqual(await metadataOf(tokenId), { cardholder_name: 'Ada Lovelace', billing_zip: 'SW1A 1AA' });
  await adapter.updateCardDetails(tokenId, { cardholderName: null });
  t.deepEqual(await metadataOf(tokenId), { billing_zip: 'SW1A 1AA' });
  await adapter.updateCardDetails(tokenId, {});
  t.deepEqual(await metadataOf(tokenId), { billing_zip: 'SW1A 1AA' });

  const missing = await t.throwsAsync(adapter.updateCardDetails('00000000-0000-4000-8000-000000000000', { billingZip: '94105' }), { instanceOf: NotFoundError });
  t.is(missing?.code, 'vault_token_not_found');
  const invalid = await t.throwsAsync(adapter.updateCardDetails(tokenId, { billingZip: 'no;zip' }), { instanceOf: ValidationError });
  t.deepEqual(Object.keys(invalid?.fields ?? {}), ['billingZip']);
  const tooLong = await t.throwsAsync(adapter.updateCardDetails(tokenId, { cardholderName: 'x'.repeat(101) }), { instanceOf: ValidationError });
  t.deepEqual(Object.keys(tooLong?.fields ?? {}), ['cardholderName']);
});

test('redact deletes the card; redacting it again is no error', async (t) => {
  const session = await adapter.openSession({ owner: 'user-6', origin: 'http://localhost:8080' });
  const tokenId = await tokenFromBrowser(session.sessionKey);
  await adapter.redact(tokenId);
  t.is(await adapter.readCard(tokenId), undefined);
  await t.notThrowsAsync(adapter.redact(tokenId));
  await t.notThrowsAsync(adapter.redact('not-a-token'));
});

test('a vault that is down (a closed port): payment_unavailable for every call', async (t) => {
  const closed = await fakeVault(() => undefined);
  const url = closed.url;
  await closed.close();
  const down = new BasisTheoryVault({ baseUrl: url, apiKey: SANDBOX_VAULT_KEY });
  for (const call of [
    () => down.openSession({ owner: 'u', origin: 'http://localhost:8080' }),
    () => down.readCard('00000000-0000-4000-8000-000000000000'),
    () => down.updateCardDetails('00000000-0000-4000-8000-000000000000', { billingZip: '94105' }),
    () => down.redact('00000000-0000-4000-8000-000000000000'),
  ]) {
    const error = await t.throwsAsync(call(), { instanceOf: ProviderUnavailableError });
    assertOurWords(t, error, 'payment_unavailable');
  }
});

test('a vault that answers too slowly: payment_timeout, once per call (a timeout is not retried)', async (t) => {
  const slow = await fakeVault(() => undefined);
  try {
    // Long enough that a loaded machine delivers each request before its deadline passes.
    const adapterOfSlow = new BasisTheoryVault({ baseUrl: slow.url, apiKey: SANDBOX_VAULT_KEY, timeoutMs: 1_500 });
    const read = await t.throwsAsync(adapterOfSlow.readCard('00000000-0000-4000-8000-000000000000'), { instanceOf: ProviderTimeoutError });
    assertOurWords(t, read, 'payment_timeout');
    const open = await t.throwsAsync(adapterOfSlow.openSession({ owner: 'u', origin: 'http://localhost:8080' }), { instanceOf: ProviderTimeoutError });
    assertOurWords(t, open, 'payment_timeout');
    t.is(slow.requests(), 2);
  } finally {
    await slow.close();
  }
});

test('a failing vault (5xx): idempotent calls are tried three times, opening a session once; then payment_unavailable', async (t) => {
  const failing = await fakeVault((_request, response) => {
    response.writeHead(503, { 'content-type': 'application/problem+json' });
    response.end(JSON.stringify({ title: 'Service Unavailable', status: 503, detail: 'Vault internals: shard 7 is down' }));
  });
  try {
    const adapterOfFailing = new BasisTheoryVault({ baseUrl: failing.url, apiKey: SANDBOX_VAULT_KEY });
    const read = await t.throwsAsync(adapterOfFailing.readCard('00000000-0000-4000-8000-000000000000'), { instanceOf: ProviderUnavailableError });
    assertOurWords(t, read, 'payment_unavailable');
    t.false(read?.message.includes('shard'));
    t.is(failing.requests(), 3);
    await t.throwsAsync(adapterOfFailing.openSession({ owner: 'u', origin: 'http://localhost:8080' }), { instanceOf: ProviderUnavailableError });
    t.is(failing.requests(), 4, 'POST /sessions is not retried');
  } finally {
    await failing.close();
  }
});

test('an answer that is not the vault format: payment_unavailable', async (t) => {
  const odd = await fakeVault((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: 'tok_1', card: { number: '4242424242424242' } }));
  });
  try {
    const adapterOfOdd = new BasisTheoryVault({ baseUrl: odd.url, apiKey: SANDBOX_VAULT_KEY });
    assertOurWords(t, await t.throwsAsync(adapterOfOdd.readCard('00000000-0000-4000-8000-000000000000')), 'payment_unavailable');
    assertOurWords(t, await t.throwsAsync(adapterOfOdd.openSession({ owner: 'u', origin: 'http://localhost:8080' })), 'payment_unavailable');
  } finally {
    await odd.close();
  }
});

test('a key the vault refuses: payment_unavailable, saying our credentials were refused, and logged', async (t) => {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  const wrongKey = new BasisTheoryVault({ baseUrl: vault.url, apiKey: 'key_test_not_ours', logger });
  const open = await t.throwsAsync(wrongKey.openSession({ owner: 'u', origin: 'http://localhost:8080' }), { instanceOf: ProviderUnavailableError });
  assertOurWords(t, open, 'payment_unavailable');
  t.regex(open?.message ?? '', /refused our credentials/);
  assertOurWords(t, await t.throwsAsync(wrongKey.readCard('00000000-0000-4000-8000-000000000000')), 'payment_unavailable');
  t.true(lines.some((line) => line.includes('refused our credentials')));
  t.false(lines.some((line) => line.includes('key_test_not_ours')), 'the key is never logged');
});
