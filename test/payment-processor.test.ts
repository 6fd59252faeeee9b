/**
 * The payment processor sandbox (Stripe PaymentIntents' dialect) and its adapter, over real HTTP: the
 * card comes from the card vault sandbox, every test card through an authorization, capture, cancel and
 * refunds, idempotency keys (replays, conflicts, concurrency, expiry), the failures in our words, and the
 * native shapes as a Stripe client sees them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import test from 'ava';
import Koa from 'koa';
import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import { SecretBox } from '../core/crypto/secret-box.js';
import { openDatabase, type Database } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { CardDeclinedError, ConflictError, NotFoundError, ProviderTimeoutError, ProviderUnavailableError, ValidationError } from '../core/errors.js';
import { SANDBOX_PROCESSOR_KEY, SANDBOX_VAULT_KEY } from '../config.js';
import { StripeProcessor } from '../providers/payments/adapter.js';
import { processorSandbox, sweepExpiredProcessorKeys } from '../providers/payments/sandbox.js';
import { PROCESSOR_TEST_CARDS, SLOW_CARD_NUMBER } from '../providers/payments/test-cards.js';
import { SANDBOX_PROCESSOR_VAULT_KEY, vaultSandbox } from '../providers/vault/sandbox.js';
import { createTestDatabase, type TestDatabase } from './helpers/database.js';
import type { Json } from './helpers/http.js';

const SLOW_CARD_DELAY_MS = 3_000;

let database: TestDatabase;
let db: Database;
let vaultUrl: string;
let processor: Running;
const servers: Server[] = [];

interface Running {
  url: string;
  /** Requests that reached it, by method and path. */
  hits: string[];
}

/** A processor sandbox on a port of its own, as the composition root would mount it. */
async function startProcessor(options: { clock?: Clock; apiKeys?: string[]; slowCardDelayMs?: number } = {}): Promise<Running> {
  const app = new Koa();
  const hits: string[] = [];
  app.use(async (ctx, next) => {
    hits.push(`${ctx.method} ${ctx.path} ${ctx.get('idempotency-key')}`);
    await next();
  });
  const sandbox = processorSandbox({
    db: db.knex,
    clock: options.clock ?? systemClock,
    apiKeys: options.apiKeys ?? [SANDBOX_PROCESSOR_KEY],
    vaultUrl,
    vaultKey: SANDBOX_PROCESSOR_VAULT_KEY,
    slowCardDelayMs: options.slowCardDelayMs ?? SLOW_CARD_DELAY_MS,
  });
  app.use(sandbox.routes());
  const server = await listen(app);
  return { url: `${urlOf(server)}/sandbox/payments`, hits };
}

async function listen(app: Koa): Promise<Server> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

test.before(async () => {
  database = await createTestDatabase();
  db = await openDatabase({ databaseUrl: database.url, dataDir: '.', poolMax: 10 });
  await migrateToLatest(db.knex, database.url);
  const vault = vaultSandbox({ db: db.knex, clock: systemClock, secrets: new SecretBox([randomBytes(32).toString('base64')]), serviceKeys: [SANDBOX_VAULT_KEY] });
  vaultUrl = urlOf(await listen(vault));
  processor = await startProcessor();
});

test.after.always(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await db?.close();
  await database?.drop();
});

const NEXT_YEAR = new Date().getUTCFullYear() + 1;

/** A vault token for a card, made as the hosted fields make one. */
async function tokenize(number: string, card: { month?: number; year?: number; cvc?: string } = {}): Promise<string> {
  const cvc = card.cvc ?? (number.startsWith('3') ? '1234' : '123');
  const response = await fetch(`${vaultUrl}/tokens`, {
    method: 'POST',
    headers: { 'bt-api-key': SANDBOX_VAULT_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'card', data: { number, expiration_month: card.month ?? 12, expiration_year: card.year ?? NEXT_YEAR, cvc } }),
  });
  if (response.status !== 201) throw new Error(`the vault refused the card: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

const adapter = (options: { timeoutMs?: number; apiKey?: string; baseUrl?: string } = {}) =>
  new StripeProcessor({ baseUrl: options.baseUrl ?? processor.url, apiKey: options.apiKey ?? SANDBOX_PROCESSOR_KEY, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });

const key = () => `test-${randomUUID()}`;

async function authorized(number: string = PROCESSOR_TEST_CARDS.visa.number, amountMinor = 12_345, currency = 'EUR') {
  const vaultToken = await tokenize(number);
  return adapter().authorize({ amountMinor, currency, vaultToken, idempotencyKey: key(), description: 'Booking ABC123' });
}

/** A request in Stripe's own terms: form-encoded, with the secret key. */
async function stripe(path: string, options: { method?: string; form?: Record<string, string>; idempotencyKey?: string; auth?: string; base?: string } = {}) {
  const response = await fetch(`${options.base ?? processor.url}${path}`, {
    method: options.method ?? (options.form ? 'POST' : 'GET'),
    headers: {
      authorization: options.auth ?? `Bearer ${SANDBOX_PROCESSOR_KEY}`,
      ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    ...(options.form ? { body: new URLSearchParams(options.form).toString() } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

const intentForm = (paymentMethod: string, extra: Record<string, string> = {}) => ({
  amount: '5000',
  currency: 'usd',
  payment_method: paymentMethod,
  capture_method: 'manual',
  confirm: 'true',
  ...extra,
});

const intentRows = (paymentMethod: string) => db.knex('processor_sandbox_payment_intents').where({ payment_method: paymentMethod });

// --- Every test card through an authorization -----------------------------------------------------

for (const name of ['visa', 'mastercard', 'amex', 'discover'] as const) {
  test(`authorize: the ${name} success card is authorized, held for capture; only its network and last four are stored`, async (t) => {
    const card = PROCESSOR_TEST_CARDS[name];
    const vaultToken = await tokenize(card.number);
    const intent = await adapter().authorize({ amountMinor: 12_345, currency: 'eur', vaultToken, idempotencyKey: key() });
    t.regex(intent.id, /^pi_/);
    t.deepEqual({ ...intent, id: undefined }, { id: undefined, status: 'requires_capture', amountMinor: 12_345, amountCapturableMinor: 12_345, amountReceivedMinor: 0, currency: 'EUR' });
    const [row] = await intentRows(vaultToken);
    t.is(row.card_brand, card.brand);
    t.is(row.card_last4, card.number.slice(-4));
    t.false(JSON.stringify(row).includes(card.number), 'never the card number');
  });
}

const declines = [
  ['declined', 'generic_decline', /another card/],
  ['insufficientFunds', 'insufficient_funds', /insufficient funds.*another card.*contact the bank/],
  ['expired', 'expired_card', /expiry date/],
  ['incorrectCvc', 'incorrect_cvc', /security code/],
] as const;

for (const [name, reason, advice] of declines) {
  test(`authorize: the ${name} card is declined (${reason}), in our words; the failed intent is kept`, async (t) => {
    const vaultToken = await tokenize(PROCESSOR_TEST_CARDS[name].number);
    const error = await t.throwsAsync(adapter().authorize({ amountMinor: 5_000, currency: 'USD', vaultToken, idempotencyKey: key() }), { instanceOf: CardDeclinedError });
    t.is(error?.reason, reason);
    t.is(error?.code, 'card_declined');
    t.regex(error?.message ?? '', advice);
    t.notRegex(error?.message ?? '', /Your card/, 'not the processor’s text');
    const [row] = await intentRows(vaultToken);
    t.is(row.status, 'requires_payment_method');
    t.is(row.last_payment_error.decline_code ?? row.last_payment_error.code, reason);
  });
}

test('authorize: the incorrect-CVC card is checked only while the vault still has the code (it erases it after one read)', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.incorrectCvc.number);
  await t.throwsAsync(adapter().authorize({ amountMinor: 100, currency: 'USD', vaultToken, idempotencyKey: key() }), { instanceOf: CardDeclinedError });
  const again = await adapter().authorize({ amountMinor: 100, currency: 'USD', vaultToken, idempotencyKey: key() });
  t.is(again.status, 'requires_capture');
});

test('authorize: a card whose expiry date has passed is declined as expired', async (t) => {
  const now = new Date();
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.visa.number, { month: now.getUTCMonth() + 1, year: now.getUTCFullYear() });
  // The vault takes a card valid this month; the processor is asked next year.
  const later = await startProcessor({ clock: { now: () => new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), 15)) } });
  const error = await t.throwsAsync(adapter({ baseUrl: later.url }).authorize({ amountMinor: 100, currency: 'USD', vaultToken, idempotencyKey: key() }), { instanceOf: CardDeclinedError });
  t.is(error?.reason, 'expired_card');
});

test('authorize: the processing-error card is the processor’s failure: retried twice with the same key, nothing stored', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.processingError.number);
  const idempotencyKey = key();
  const error = await t.throwsAsync(adapter().authorize({ amountMinor: 100, currency: 'USD', vaultToken, idempotencyKey }), { instanceOf: ProviderUnavailableError });
  t.is(error?.code, 'payment_unavailable');
  t.is(processor.hits.filter((hit) => hit.endsWith(idempotencyKey)).length, 3, 'the first attempt and two retries');
  t.is((await intentRows(vaultToken)).length, 0);
  t.is((await db.knex('processor_sandbox_idempotency_keys').where({ idempotency_key: idempotencyKey })).length, 0, 'a 5xx frees its key');
});

test('authorize: the slow card outlasts the adapter’s timeout: payment_timeout at once, not retried; the same key later replays the authorization', async (t) => {
  t.is(SLOW_CARD_NUMBER, PROCESSOR_TEST_CARDS.slow.number);
  // The sandbox's delay is far longer than the adapter's timeout, so that a loaded machine, slow
  // even to deliver the request, still times the caller out long before the sandbox would answer.
  const slowDelayMs = 20_000;
  const slow = await startProcessor({ slowCardDelayMs: slowDelayMs });
  const vaultToken = await tokenize(SLOW_CARD_NUMBER);
  const idempotencyKey = key();
  const started = Date.now();
  const error = await t.throwsAsync(adapter({ baseUrl: slow.url, timeoutMs: 3_000 }).authorize({ amountMinor: 700, currency: 'GBP', vaultToken, idempotencyKey }), { instanceOf: ProviderTimeoutError });
  t.is(error?.code, 'payment_timeout');
  t.true(Date.now() - started < slowDelayMs, 'the caller is not kept waiting for the sandbox');
  t.is(slow.hits.filter((hit) => hit.endsWith(idempotencyKey)).length, 1, 'a timeout is not retried');
  // The sandbox stops waiting when its caller hangs up, and the authorization is made all the same.
  const row = await eventually(async () => (await intentRows(vaultToken))[0]);
  t.true(Date.now() - started < slowDelayMs, 'the sandbox stopped waiting when its caller hung up');
  const replayed = await adapter({ baseUrl: slow.url }).authorize({ amountMinor: 700, currency: 'GBP', vaultToken, idempotencyKey });
  t.is(replayed.id, row.id);
  t.is(replayed.status, 'requires_capture');
  t.is((await intentRows(vaultToken)).length, 1);
});

test('authorize: a token the vault does not know, and bad input, are refused in our words', async (t) => {
  const missing = await t.throwsAsync(adapter().authorize({ amountMinor: 100, currency: 'USD', vaultToken: randomUUID(), idempotencyKey: key() }), { instanceOf: NotFoundError });
  t.is(missing?.code, 'payment_method_not_found');
  const invalid = await t.throwsAsync(adapter().authorize({ amountMinor: 10.5, currency: 'euro', vaultToken: randomUUID(), idempotencyKey: '' }), { instanceOf: ValidationError });
  t.deepEqual(Object.keys(invalid?.fields ?? {}).sort(), ['amountMinor', 'currency', 'idempotencyKey']);
});

// --- Capture, cancel, refund, retrieve ------------------------------------------------------------

test('capture: all that was authorized', async (t) => {
  const intent = await authorized();
  const captured = await adapter().capture(intent.id, { idempotencyKey: key() });
  t.deepEqual(captured, { id: intent.id, status: 'succeeded', amountMinor: 12_345, amountCapturableMinor: 0, amountReceivedMinor: 12_345, currency: 'EUR' });
  t.deepEqual(await adapter().retrieve(intent.id), captured);
});

test('capture: part of the authorization; the rest is released, and only what was received can be refunded', async (t) => {
  const intent = await authorized(PROCESSOR_TEST_CARDS.mastercard.number, 10_000, 'JPY');
  const captured = await adapter().capture(intent.id, { idempotencyKey: key(), amountMinor: 6_000 });
  t.deepEqual(captured, { id: intent.id, status: 'succeeded', amountMinor: 10_000, amountCapturableMinor: 0, amountReceivedMinor: 6_000, currency: 'JPY' });
  const tooMuch = await t.throwsAsync(adapter().refund(intent.id, { idempotencyKey: key(), amountMinor: 6_001 }), { instanceOf: ConflictError });
  t.is(tooMuch?.code, 'payment_state_conflict');
  const refund = await adapter().refund(intent.id, { idempotencyKey: key() });
  t.is(refund.amountMinor, 6_000);
});

test('capture: more than is capturable is a state conflict', async (t) => {
  const intent = await authorized();
  const error = await t.throwsAsync(adapter().capture(intent.id, { idempotencyKey: key(), amountMinor: 12_346 }), { instanceOf: ConflictError });
  t.is(error?.code, 'payment_state_conflict');
  t.regex(error?.message ?? '', /authorized and not yet captured/);
});

test('cancel: voids the authorization; capturing it afterwards is a state conflict that says why', async (t) => {
  const intent = await authorized();
  const canceled = await adapter().cancel(intent.id, { idempotencyKey: key() });
  t.deepEqual(canceled, { ...intent, status: 'canceled', amountCapturableMinor: 0 });
  const error = await t.throwsAsync(adapter().capture(intent.id, { idempotencyKey: key() }), { instanceOf: ConflictError });
  t.is(error?.code, 'payment_state_conflict');
  t.regex(error?.message ?? '', /canceled/);
  const twice = await t.throwsAsync(adapter().cancel(intent.id, { idempotencyKey: key() }), { instanceOf: ConflictError });
  t.is(twice?.code, 'payment_state_conflict');
});

test('refund: in parts, then the rest; never more than was received', async (t) => {
  const intent = await authorized(PROCESSOR_TEST_CARDS.amex.number, 9_000, 'USD');
  await adapter().capture(intent.id, { idempotencyKey: key() });
  const first = await adapter().refund(intent.id, { idempotencyKey: key(), amountMinor: 2_500 });
  t.like(first, { paymentIntentId: intent.id, amountMinor: 2_500, status: 'succeeded' });
  t.regex(first.id, /^re_/);
  const over = await t.throwsAsync(adapter().refund(intent.id, { idempotencyKey: key(), amountMinor: 6_501 }), { instanceOf: ConflictError });
  t.is(over?.code, 'payment_state_conflict');
  const rest = await adapter().refund(intent.id, { idempotencyKey: key() });
  t.is(rest.amountMinor, 6_500);
  const again = await t.throwsAsync(adapter().refund(intent.id, { idempotencyKey: key() }), { instanceOf: ConflictError });
  t.is(again?.code, 'payment_state_conflict');
  t.regex(again?.message ?? '', /already been refunded in full/);
  const sum = await db.knex('processor_sandbox_refunds').where({ payment_intent_id: intent.id }).sum({ total: 'amount' }).first();
  t.is(Number(sum?.total), 9_000);
});

test('refund: an authorization not captured cannot be refunded (cancel it instead)', async (t) => {
  const intent = await authorized();
  const error = await t.throwsAsync(adapter().refund(intent.id, { idempotencyKey: key() }), { instanceOf: ConflictError });
  t.is(error?.code, 'payment_state_conflict');
});

test('retrieve: an unknown intent is payment_not_found; a declined one is never a success', async (t) => {
  const unknown = await t.throwsAsync(adapter().retrieve('pi_doesnotexist'), { instanceOf: NotFoundError });
  t.is(unknown?.code, 'payment_not_found');
  const malformed = await t.throwsAsync(adapter().capture('../v1/refunds', { idempotencyKey: key() }), { instanceOf: NotFoundError });
  t.is(malformed?.code, 'payment_not_found');
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.insufficientFunds.number);
  await t.throwsAsync(adapter().authorize({ amountMinor: 100, currency: 'USD', vaultToken, idempotencyKey: key() }));
  const [row] = await intentRows(vaultToken);
  const error = await t.throwsAsync(adapter().retrieve(row.id), { instanceOf: CardDeclinedError });
  t.is(error?.reason, 'insufficient_funds');
});

// --- Idempotency --------------------------------------------------------------------------------

test('idempotency: each money call retried with its key gives the same object, and runs once', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.discover.number);
  const authorizeKey = key();
  const input = { amountMinor: 4_200, currency: 'USD', vaultToken, idempotencyKey: authorizeKey };
  const intent = await adapter().authorize(input);
  t.deepEqual(await adapter().authorize(input), intent);
  t.is((await intentRows(vaultToken)).length, 1, 'one intent');

  const captureKey = key();
  const captured = await adapter().capture(intent.id, { idempotencyKey: captureKey, amountMinor: 4_000 });
  t.deepEqual(await adapter().capture(intent.id, { idempotencyKey: captureKey, amountMinor: 4_000 }), captured, 'not a state conflict: the stored answer');

  const refundKey = key();
  const refund = await adapter().refund(intent.id, { idempotencyKey: refundKey, amountMinor: 1_000 });
  t.deepEqual(await adapter().refund(intent.id, { idempotencyKey: refundKey, amountMinor: 1_000 }), refund);
  t.is((await db.knex('processor_sandbox_refunds').where({ payment_intent_id: intent.id })).length, 1, 'one refund');

  const other = await authorized();
  const cancelKey = key();
  const canceled = await adapter().cancel(other.id, { idempotencyKey: cancelKey });
  t.deepEqual(await adapter().cancel(other.id, { idempotencyKey: cancelKey }), canceled);
});

test('idempotency: a key used again with other parameters is idempotency_conflict', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.visa.number);
  const idempotencyKey = key();
  await adapter().authorize({ amountMinor: 1_000, currency: 'USD', vaultToken, idempotencyKey });
  const error = await t.throwsAsync(adapter().authorize({ amountMinor: 1_001, currency: 'USD', vaultToken, idempotencyKey }), { instanceOf: ConflictError });
  t.is(error?.code, 'idempotency_conflict');
  const intent = await authorized();
  const elsewhere = await t.throwsAsync(adapter().capture(intent.id, { idempotencyKey }), { instanceOf: ConflictError });
  t.is(elsewhere?.code, 'idempotency_conflict', 'nor for another call');
  t.is((await intentRows(vaultToken)).length, 1);
});

test('idempotency: identical requests at once with one key make one intent, and all get it', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.visa.number);
  const input = { amountMinor: 3_300, currency: 'EUR', vaultToken, idempotencyKey: key() };
  const intents = await Promise.all([1, 2, 3, 4].map(() => adapter().authorize(input)));
  t.is(new Set(intents.map((intent) => intent.id)).size, 1);
  t.is((await intentRows(vaultToken)).length, 1);
});

test('idempotency: a request still running answers 409 idempotency_key_in_use to another with its key', async (t) => {
  const vaultToken = await tokenize(SLOW_CARD_NUMBER);
  const idempotencyKey = key();
  const first = stripe('/v1/payment_intents', { form: intentForm(vaultToken), idempotencyKey });
  await eventually(async () => (await db.knex('processor_sandbox_idempotency_keys').where({ idempotency_key: idempotencyKey }).first()) ?? undefined);
  const second = await stripe('/v1/payment_intents', { form: intentForm(vaultToken), idempotencyKey });
  t.is(second.status, 409);
  t.like(second.body.error, { type: 'idempotency_error', code: 'idempotency_key_in_use' });
  const done = await first;
  t.is(done.status, 200);
  const third = await stripe('/v1/payment_intents', { form: intentForm(vaultToken), idempotencyKey });
  t.is(third.body.id, done.body.id);
  t.is(third.headers.get('idempotent-replayed'), 'true');
});

test('idempotency: keys are kept 24 hours, then a request with one runs anew', async (t) => {
  let now = Date.now();
  const timeTravel = await startProcessor({ clock: { now: () => new Date(now) } });
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.visa.number);
  const input = { amountMinor: 500, currency: 'USD', vaultToken, idempotencyKey: key() };
  const first = await adapter({ baseUrl: timeTravel.url }).authorize(input);
  now += 23 * 3600_000;
  t.is((await adapter({ baseUrl: timeTravel.url }).authorize(input)).id, first.id);
  now += 3600_000;
  t.not((await adapter({ baseUrl: timeTravel.url }).authorize(input)).id, first.id);
});

// Serial: run before the others, so that the sweep (a day ahead) deletes no other test's key.
test.serial('idempotency: the periodic sweep deletes keys past their 24 hours', async (t) => {
  const idempotencyKey = key();
  await adapter().authorize({ amountMinor: 500, currency: 'USD', vaultToken: await tokenize(PROCESSOR_TEST_CARDS.visa.number), idempotencyKey });
  const keyRow = () => db.knex('processor_sandbox_idempotency_keys').where({ idempotency_key: idempotencyKey }).first();
  t.is(await sweepExpiredProcessorKeys({ db: db.knex, clock: { now: () => new Date(Date.now() + 23 * 3600_000) } }), 0);
  t.truthy(await keyRow());
  t.true((await sweepExpiredProcessorKeys({ db: db.knex, clock: { now: () => new Date(Date.now() + 24 * 3600_000 + 1000) } })) >= 1);
  t.is(await keyRow(), undefined);
});

// --- Failures of the processor itself ---------------------------------------------------------------

test('a refused API key is payment_unavailable, never the processor’s words', async (t) => {
  const error = await t.throwsAsync(adapter({ apiKey: 'sk_test_not_ours' }).retrieve('pi_anything'), { instanceOf: ProviderUnavailableError });
  t.is(error?.code, 'payment_unavailable');
  t.notRegex(error?.message ?? '', /API Key/);
});

test('a processor that is down is payment_unavailable, after the retries', async (t) => {
  const closed = await listen(new Koa());
  const url = urlOf(closed);
  await new Promise((resolve) => closed.close(resolve));
  const error = await t.throwsAsync(adapter({ baseUrl: `${url}/sandbox/payments` }).authorize({ amountMinor: 100, currency: 'USD', vaultToken: randomUUID(), idempotencyKey: key() }), {
    instanceOf: ProviderUnavailableError,
  });
  t.is(error?.code, 'payment_unavailable');
});

test('an answer that is not the processor’s (an HTML error page) is payment_unavailable', async (t) => {
  const app = new Koa();
  app.use((ctx) => {
    ctx.status = 200;
    ctx.body = '<html>gateway</html>';
  });
  const server = await listen(app);
  const error = await t.throwsAsync(adapter({ baseUrl: urlOf(server) }).retrieve('pi_x'), { instanceOf: ProviderUnavailableError });
  t.is(error?.code, 'payment_unavailable');
});

test('each API key is an account of its own: another key’s intent is not found', async (t) => {
  const intent = await authorized();
  const twoKeys = await startProcessor({ apiKeys: [SANDBOX_PROCESSOR_KEY, 'sk_test_other_account'] });
  const error = await t.throwsAsync(adapter({ baseUrl: twoKeys.url, apiKey: 'sk_test_other_account' }).retrieve(intent.id), { instanceOf: NotFoundError });
  t.is(error?.code, 'payment_not_found');
  t.is((await adapter({ baseUrl: twoKeys.url }).retrieve(intent.id)).id, intent.id);
});

// --- The native dialect, as a Stripe client sees it -------------------------------------------------

test('native: a form-encoded PaymentIntent with bracket metadata, Basic auth, currency in lower case', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.visa.number);
  const basic = `Basic ${Buffer.from(`${SANDBOX_PROCESSOR_KEY}:`).toString('base64')}`;
  const answer = await stripe('/v1/payment_intents', {
    auth: basic,
    form: intentForm(vaultToken, { currency: 'USD', description: 'Flight LHR-JFK', 'metadata[booking_id]': 'bk_123', 'metadata[offer.id]': 'off_1' }),
  });
  t.is(answer.status, 200);
  t.regex(answer.headers.get('content-type') ?? '', /application\/json/);
  t.regex(answer.headers.get('request-id') ?? '', /^req_/);
  const intent = answer.body;
  t.regex(intent.id, /^pi_/);
  t.regex(intent.latest_charge, /^ch_/);
  t.like(intent, {
    object: 'payment_intent',
    amount: 5000,
    amount_capturable: 5000,
    amount_received: 0,
    capture_method: 'manual',
    currency: 'usd',
    status: 'requires_capture',
    payment_method: vaultToken,
    description: 'Flight LHR-JFK',
    cancellation_reason: null,
    last_payment_error: null,
    livemode: false,
  });
  t.deepEqual(intent.metadata, { booking_id: 'bk_123', 'offer.id': 'off_1' });
  t.true(Number.isInteger(intent.created) && Math.abs(intent.created - Date.now() / 1000) < 60, 'unix seconds');
  t.deepEqual((await stripe(`/v1/payment_intents/${intent.id}`)).body, intent);
});

test('native: a decline is a 402 card_error with the failed PaymentIntent; replayed with its key', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.insufficientFunds.number);
  const idempotencyKey = key();
  const answer = await stripe('/v1/payment_intents', { form: intentForm(vaultToken), idempotencyKey });
  t.is(answer.status, 402);
  const { error } = answer.body;
  t.like(error, { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' });
  t.is(typeof error.message, 'string');
  t.like(error.payment_intent, { object: 'payment_intent', status: 'requires_payment_method', amount_capturable: 0 });
  t.like(error.payment_intent.last_payment_error, { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' });
  t.is(answer.headers.get('idempotent-replayed'), null);
  const replay = await stripe('/v1/payment_intents', { form: intentForm(vaultToken), idempotencyKey });
  t.is(replay.status, 402);
  t.is(replay.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(replay.body, answer.body);
  t.is((await intentRows(vaultToken)).length, 1);
});

test('native: a processing error is a 500 api_error, and a 5xx is not replayed', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.processingError.number);
  const idempotencyKey = key();
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await stripe('/v1/payment_intents', { form: intentForm(vaultToken), idempotencyKey });
    t.is(answer.status, 500);
    t.is(answer.body.error.type, 'api_error');
    t.is(answer.headers.get('idempotent-replayed'), null);
  }
});

test('native: capture, cancel and refund answer Stripe’s objects', async (t) => {
  const intent = (await stripe('/v1/payment_intents', { form: intentForm(await tokenize(PROCESSOR_TEST_CARDS.visa.number), { amount: '8000' }) })).body;
  const captured = await stripe(`/v1/payment_intents/${intent.id}/capture`, { form: { amount_to_capture: '7000' } });
  t.like(captured.body, { id: intent.id, status: 'succeeded', amount: 8000, amount_capturable: 0, amount_received: 7000 });
  const refund = await stripe('/v1/refunds', { form: { payment_intent: intent.id, amount: '2000', 'metadata[reason]': 'schedule change' } });
  t.is(refund.status, 200);
  t.regex(refund.body.id, /^re_/);
  t.like(refund.body, { object: 'refund', amount: 2000, currency: 'usd', payment_intent: intent.id, status: 'succeeded' });
  t.true(Number.isInteger(refund.body.created));
  t.deepEqual((await stripe(`/v1/refunds/${refund.body.id}`)).body, refund.body);
  const over = await stripe('/v1/refunds', { form: { payment_intent: intent.id, amount: '5001' } });
  t.is(over.status, 400);
  t.like(over.body.error, { type: 'invalid_request_error', code: 'amount_too_large', param: 'amount' });

  const other = (await stripe('/v1/payment_intents', { form: intentForm(await tokenize(PROCESSOR_TEST_CARDS.visa.number)) })).body;
  const canceled = await stripe(`/v1/payment_intents/${other.id}/cancel`, { form: { cancellation_reason: 'requested_by_customer' } });
  t.like(canceled.body, { status: 'canceled', cancellation_reason: 'requested_by_customer', amount_capturable: 0 });
  const late = await stripe(`/v1/payment_intents/${other.id}/capture`, { form: {} });
  t.is(late.status, 400);
  t.like(late.body.error, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state' });
  t.is(late.body.error.payment_intent.status, 'canceled');
});

test('native: refusals of the request itself', async (t) => {
  const vaultToken = await tokenize(PROCESSOR_TEST_CARDS.visa.number);
  const missing = await stripe('/v1/payment_intents', { form: { currency: 'usd', payment_method: vaultToken, capture_method: 'manual', confirm: 'true' } });
  t.is(missing.status, 400);
  t.like(missing.body.error, { type: 'invalid_request_error', code: 'parameter_missing', param: 'amount' });
  const notInteger = await stripe('/v1/payment_intents', { form: intentForm(vaultToken, { amount: '12.50' }) });
  t.like(notInteger.body.error, { code: 'parameter_invalid_integer', param: 'amount' });
  const automatic = await stripe('/v1/payment_intents', { form: intentForm(vaultToken, { capture_method: 'automatic' }) });
  t.is(automatic.status, 400);
  t.like(automatic.body.error, { type: 'invalid_request_error', param: 'capture_method' });
  t.regex(automatic.body.error.message, /capture_method=manual with confirm=true/);
  const unknownParam = await stripe('/v1/payment_intents', { form: intentForm(vaultToken, { customer: 'cus_1' }) });
  t.like(unknownParam.body.error, { code: 'parameter_unknown', param: 'customer' });
  const noToken = await stripe('/v1/payment_intents', { form: intentForm(randomUUID()) });
  t.is(noToken.status, 400);
  t.like(noToken.body.error, { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method' });
  const notFound = await stripe('/v1/payment_intents/pi_missing');
  t.is(notFound.status, 404);
  t.like(notFound.body.error, { type: 'invalid_request_error', code: 'resource_missing' });
  const badKey = await stripe('/v1/payment_intents/pi_missing', { auth: 'Bearer sk_test_wrong_key_1234' });
  t.is(badKey.status, 401);
  t.is(badKey.body.error.type, 'invalid_request_error');
  t.notRegex(badKey.body.error.message, /sk_test_wrong_key_1234/, 'the key is masked');
  const noKey = await stripe('/v1/payment_intents/pi_missing', { auth: '' });
  t.is(noKey.status, 401);
  const mismatch = key();
  await stripe('/v1/payment_intents', { form: intentForm(vaultToken), idempotencyKey: mismatch });
  const reused = await stripe('/v1/payment_intents', { form: intentForm(vaultToken, { amount: '5001' }), idempotencyKey: mismatch });
  t.is(reused.status, 400);
  t.is(reused.body.error.type, 'idempotency_error');
});

/** Polls `probe` until it gives something (the sandbox finishing in the background). */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
