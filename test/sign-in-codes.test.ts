/**
 * E-mail one-time codes (decisions §5), with the real mail sandbox over HTTP and an injected clock:
 * lengths for new and returning travelers, lifetime, tries, resend pacing, single use under a race.
 */
import { createHash, randomUUID } from 'node:crypto';
import test from 'ava';
import type { Clock } from '../core/clock.js';
import { GoneError, ProviderUnavailableError, RateLimitedError, ValidationError } from '../core/errors.js';
import { SandboxMailer } from '../providers/sandbox-outbox/client.js';
import { SignInCodes } from '../core/sign-in/sign-in-codes.js';
import { jsonOf } from './helpers/http.js';
import { freePort, startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let now = new Date();
const clock: Clock = { now: () => now };
let codes: SignInCodes;

test.before(async () => {
  running = await startService();
  codes = new SignInCodes({ db: running.service.db.knex, mailer: running.service.mailer, clock, hashKey: 'h'.repeat(32) });
});
test.after.always(async () => {
  await running?.close();
});

/** The code in the newest mail to `email`, as a traveler would read it. */
async function codeFor(email: string): Promise<string> {
  const [latest] = await jsonOf(await fetch(`${running.url}/sandbox/mail/messages?to=${encodeURIComponent(email)}`));
  const match = /\b(\d{6,8})\b/.exec(latest.text);
  if (!match) throw new Error(`no code in: ${latest.text}`);
  return match[1] as string;
}

const newAddress = () => `traveler-${randomUUID()}@example.com`;

test.serial('a new traveler gets 6 digits and an account on confirming; next time 8 digits, same account', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  t.like(await codes.start('attempt-a', email), { digits: 6, channel: 'email' });
  const first = await codes.confirm('attempt-a', await codeFor(email));
  t.true(first.created);
  const user = await running.service.db.knex('users').where({ id: first.userId }).first();
  t.is(user.email, email);
  t.is(user.last_login.toISOString(), now.toISOString());

  t.like(await codes.start('attempt-b', email.toUpperCase()), { digits: 8, channel: 'email', sentTo: email });
  const code = await codeFor(email);
  t.is(code.length, 8);
  const again = await codes.confirm('attempt-b', code);
  t.deepEqual(again, { userId: first.userId, email, created: false });
});

test.serial('a code is used once', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-once', email);
  const code = await codeFor(email);
  await codes.confirm('attempt-once', code);
  const error = await t.throwsAsync(codes.confirm('attempt-once', code), { instanceOf: GoneError });
  t.is(error.code, 'code_invalid');
});

test.serial('two confirmations racing with the right code: exactly one signs in', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-race', email);
  const code = await codeFor(email);
  const results = await Promise.allSettled([codes.confirm('attempt-race', code), codes.confirm('attempt-race', code)]);
  t.is(results.filter((result) => result.status === 'fulfilled').length, 1);
  t.is((await running.service.db.knex('users').whereRaw('lower(email) = ?', [email])).length, 1);
});

test.serial('codes last 10 minutes', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-ttl', email);
  const code = await codeFor(email);
  now = new Date('2026-11-22T10:10:00Z');
  const error = await t.throwsAsync(codes.confirm('attempt-ttl', code), { instanceOf: GoneError });
  t.is(error.code, 'code_expired');
});

test.serial('five wrong tries lock the code, even the right one after them', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-tries', email);
  const code = await codeFor(email);
  const wrong = code === '000000' ? '111111' : '000000';
  for (let left = 4; left >= 0; left--) {
    const error = await t.throwsAsync(codes.confirm('attempt-tries', wrong), { instanceOf: ValidationError });
    t.regex(error.message, left > 0 ? new RegExp(`${left} tr`) : /request a new one/);
  }
  const locked = await t.throwsAsync(codes.confirm('attempt-tries', code), { instanceOf: GoneError });
  t.is(locked.code, 'code_locked');
});

test.serial('a new code within the same sign-in: once a minute, and it replaces the old one', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-resend', email);
  const old = await codeFor(email);
  now = new Date('2026-11-22T10:00:40Z');
  const early = await t.throwsAsync(codes.resend('attempt-resend'), { instanceOf: RateLimitedError });
  t.is(early.retryAfterSeconds, 20);
  now = new Date('2026-11-22T10:01:00Z');
  t.like(await codes.resend('attempt-resend'), { digits: 6, channel: 'email' });
  const fresh = await codeFor(email);
  if (fresh !== old) await t.throwsAsync(codes.confirm('attempt-resend', old), { instanceOf: ValidationError });
  t.true((await codes.confirm('attempt-resend', fresh)).created);
});

test.serial('starting the same attempt again is pacing-limited too, and so are two resends at once', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-again', email);
  const again = await t.throwsAsync(codes.start('attempt-again', email), { instanceOf: RateLimitedError });
  t.is(again.code, 'code_resend_too_soon');
  now = new Date('2026-11-22T10:01:00Z');
  const results = await Promise.allSettled([codes.resend('attempt-again'), codes.resend('attempt-again')]);
  t.is(results.filter((result) => result.status === 'fulfilled').length, 1);
  const mails = await jsonOf(await fetch(`${running.url}/sandbox/mail/messages?to=${encodeURIComponent(email)}`));
  t.is(mails.length, 2);
});

test.serial('a code whose mail could not be sent can be replaced at once', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  const broken = new SignInCodes({
    db: running.service.db.knex,
    mailer: new SandboxMailer(`http://127.0.0.1:${await freePort()}/sandbox`),
    clock,
    hashKey: 'h'.repeat(32),
  });
  const failed = await t.throwsAsync(broken.start('attempt-mailfail', email), { instanceOf: ProviderUnavailableError });
  t.is(failed.code, 'mail_unavailable');
  t.like(await codes.resend('attempt-mailfail'), { digits: 6, channel: 'email' });
  t.truthy(await codeFor(email));
});

test.serial('only a keyed hash of the code is stored', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-hash', email);
  const code = await codeFor(email);
  const row = await running.service.db.knex('sign_in_codes').where({ attempt_id: 'attempt-hash' }).first();
  t.false(JSON.stringify({ ...row, code_hash: row.code_hash.toString('hex') }).includes(code));
  // Not a plain digest that anyone could recompute for every possible code.
  t.notDeepEqual(row.code_hash, createHash('sha256').update(`attempt-hash:${code}`).digest());
});

test.serial('two first sign-ins of one address at once end in one account', async (t) => {
  now = new Date('2026-11-22T10:00:00Z');
  const email = newAddress();
  await codes.start('attempt-x', email);
  const x = await codeFor(email);
  await codes.start('attempt-y', email);
  const y = await codeFor(email);
  const [first, second] = await Promise.all([codes.confirm('attempt-x', x), codes.confirm('attempt-y', y)]);
  t.is(first.userId, second.userId);
  t.deepEqual([first.created, second.created].sort(), [false, true]);
  t.is((await running.service.db.knex('users').whereRaw('lower(email) = ?', [email])).length, 1);
});

test.serial('the service sweeps expired codes and authorization-server rows', async (t) => {
  const knex = running.service.db.knex;
  const past = new Date(Date.now() - 60_000);
  const future = new Date(Date.now() + 600_000);
  const code = { email: 'sweep@example.com', code_hash: Buffer.alloc(32), digits: 6, sent_at: past };
  await knex('sign_in_codes').insert([
    { ...code, attempt_id: 'sweep-old', expires_at: past },
    { ...code, attempt_id: 'sweep-live', expires_at: future },
  ]);
  await knex('oidc_models').insert([
    { kind: 'Session', id: 'sweep-old', payload: '{}', expires_at: past },
    { kind: 'Session', id: 'sweep-live', payload: '{}', expires_at: future },
  ]);
  t.true((await running.service.sweepExpired()) >= 2);
  t.deepEqual(await knex('sign_in_codes').whereIn('attempt_id', ['sweep-old', 'sweep-live']).pluck('attempt_id'), ['sweep-live']);
  t.deepEqual(await knex('oidc_models').whereIn('id', ['sweep-old', 'sweep-live']).pluck('id'), ['sweep-live']);
});

test.serial('SMS only for a verified phone with SMS sign-in on; otherwise the code goes by e-mail', async (t) => {
  now = new Date();
  const withSms = new SignInCodes({ db: running.service.db.knex, mailer: running.service.mailer, sms: running.service.sms, clock, hashKey: 'h'.repeat(32) });
  const email = newAddress();
  const phone = `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
  await running.service.db.knex('users').insert({ email, phone_number: phone, phone_verified: false, sms_sign_in: true });
  t.like(await withSms.start(`sms-a-${randomUUID()}`, email), { channel: 'email', digits: 8 }, 'phone not verified: e-mail');

  await running.service.db.knex('users').where({ email }).update({ phone_verified: true, sms_sign_in: false });
  t.like(await withSms.start(`sms-b-${randomUUID()}`, email), { channel: 'email' }, 'SMS sign-in off: e-mail');

  await running.service.db.knex('users').where({ email }).update({ sms_sign_in: true });
  const attempt = `sms-c-${randomUUID()}`;
  const sent = await withSms.start(attempt, email);
  t.like(sent, { channel: 'sms', digits: 8, sentTo: `your phone ending in ${phone.slice(-2)}` });
  const [message] = await jsonOf(await fetch(`${running.url}/sandbox/sms/messages?to=${encodeURIComponent(phone)}`));
  const code = /\b(\d{8})\b/.exec(message.text)?.[1] as string;
  t.like(await withSms.confirm(attempt, code), { email, created: false });
});
