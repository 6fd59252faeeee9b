/**
 * Sign-in by e-mail one-time code (decisions §5): 6 digits for a new traveler (the account is created
 * when the code is confirmed), 8 for a returning one; 10 minutes to live; 5 tries, then a new code is
 * needed; a new code within the same sign-in at most once a minute. Each sign-in attempt (one
 * authorization request) has its own code; starting it again replaces the code at once.
 *
 * Races are settled by the database: confirming locks the attempt's row, so a code is used once, and a
 * new code is written only if the last one is a minute old, in the same statement.
 * Codes are stored as an HMAC under a server secret: a copy of the table does not give them away.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { GoneError, RateLimitedError, ValidationError } from '../errors.js';
import type { Mailer, SmsSender } from '../ports.js';

export const CODE_TTL_SECONDS = 600;
export const MAX_TRIES = 5;
export const RESEND_INTERVAL_SECONDS = 60;

/** Where the code went: the e-mail address, or the traveler's verified phone when they chose SMS. */
export interface CodeSent {
  digits: number;
  /** The traveler's address (the attempt's identity, whichever channel the code went by). */
  email: string;
  channel: 'email' | 'sms';
  /** Shown to the traveler: the address, or the phone's last digits. */
  sentTo: string;
}

export interface SignedIn {
  userId: string;
  email: string;
  /** True when this sign-in created the account. */
  created: boolean;
}

interface CodeRow {
  attempt_id: string;
  email: string;
  code_hash: Buffer;
  digits: number;
  failed_tries: number;
  expires_at: Date;
  sent_at: Date;
  used_at: Date | null;
}

export class SignInCodes {
  readonly #db: Knex;
  readonly #mailer: Mailer;
  readonly #sms: SmsSender | undefined;
  readonly #clock: Clock;
  readonly #hashKey: string;

  constructor(deps: { db: Knex; mailer: Mailer; sms?: SmsSender; clock: Clock; hashKey: string }) {
    this.#db = deps.db;
    this.#mailer = deps.mailer;
    this.#sms = deps.sms;
    this.#clock = deps.clock;
    this.#hashKey = deps.hashKey;
  }

  /**
   * Sends a fresh code for this sign-in attempt; returns its length (6: new traveler, 8: returning).
   * Starting an attempt that already has a code counts as asking for a new one (once a minute).
   */
  async start(attemptId: string, email: string): Promise<CodeSent> {
    const address = email.trim().toLowerCase();
    const traveler = await this.#traveler(address);
    return this.#issue(attemptId, address, traveler ? 8 : 6, this.#smsPhone(traveler));
  }

  /** "Send a new code": at most once a minute within one sign-in attempt. */
  async resend(attemptId: string): Promise<CodeSent> {
    const row: CodeRow | undefined = await this.#db('sign_in_codes').where({ attempt_id: attemptId }).first();
    if (!row) throw new GoneError('This sign-in has no code to resend: enter your e-mail address again.', 'sign_in_not_started');
    return this.#issue(attemptId, row.email, row.digits, this.#smsPhone(await this.#traveler(row.email)));
  }

  /** The code this attempt is waiting for (for showing the code form again), if any. */
  async pending(attemptId: string): Promise<CodeSent | undefined> {
    const row: CodeRow | undefined = await this.#db('sign_in_codes').where({ attempt_id: attemptId }).first();
    if (!row) return undefined;
    const phone = this.#smsPhone(await this.#traveler(row.email));
    return phone ? smsSent(row.digits, row.email, phone) : { digits: row.digits, email: row.email, channel: 'email', sentTo: row.email };
  }

  async #traveler(address: string): Promise<TravelerContact | undefined> {
    return this.#db('users').whereRaw('lower(email) = ?', [address]).first('id', 'phone_number', 'phone_verified', 'sms_sign_in');
  }

  /** SMS only for a verified phone whose owner turned SMS sign-in on, and when SMS can be sent. */
  #smsPhone(traveler: TravelerContact | undefined): string | undefined {
    if (!this.#sms || !traveler?.sms_sign_in || !traveler.phone_verified || !traveler.phone_number) return undefined;
    return traveler.phone_number;
  }

  /** Checks the code; on success the traveler's account exists (created now if new) and is returned. */
  async confirm(attemptId: string, code: string): Promise<SignedIn> {
    const now = this.#clock.now();
    const outcome = await this.#db.transaction(async (trx) => {
      const row: CodeRow | undefined = await trx('sign_in_codes').where({ attempt_id: attemptId }).forUpdate().first();
      if (!row || row.used_at) {
        return { error: new GoneError('This code is no longer valid: request a new one.', 'code_invalid') };
      }
      if (row.expires_at <= now) {
        return { error: new GoneError('This code has expired (codes last 10 minutes): request a new one.', 'code_expired') };
      }
      if (row.failed_tries >= MAX_TRIES) {
        return { error: new GoneError('Too many wrong codes: request a new one.', 'code_locked') };
      }
      if (!this.#matches(attemptId, code, row.code_hash)) {
        const tries = row.failed_tries + 1;
        await trx('sign_in_codes').where({ attempt_id: attemptId }).update({ failed_tries: tries });
        const left = MAX_TRIES - tries;
        const hint = left > 0 ? `${left} ${left === 1 ? 'try' : 'tries'} left` : 'request a new one';
        return {
          error: new ValidationError(
            [{ field: 'code', rule: 'code', message: `code is not the one we sent: ${hint}` }],
            `That code is not right: ${hint}.`,
          ),
        };
      }
      await trx('sign_in_codes').where({ attempt_id: attemptId }).update({ used_at: now });
      return { signedIn: await findOrCreateTraveler(trx, row.email, now) };
    });
    // Wrong tries are committed before the error is raised, so that they count.
    if ('error' in outcome) throw outcome.error;
    return outcome.signedIn;
  }

  async #issue(attemptId: string, email: string, digits: number, phone: string | undefined): Promise<CodeSent> {
    const now = this.#clock.now();
    const code = newCode(digits);
    const row = {
      attempt_id: attemptId,
      email,
      code_hash: this.#hash(attemptId, code),
      digits,
      failed_tries: 0,
      expires_at: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      sent_at: now,
      used_at: null,
    };
    // Replaces the attempt's code only if the last one went out a minute ago or more: two requests at
    // once cannot both send.
    const written = await this.#db('sign_in_codes')
      .insert(row)
      .onConflict('attempt_id')
      .merge()
      .where('sign_in_codes.sent_at', '<=', new Date(now.getTime() - RESEND_INTERVAL_SECONDS * 1000))
      .returning('attempt_id');
    if (written.length === 0) throw await this.#tooSoon(attemptId, now);
    // The code as one unbroken run of digits, so that mail clients, phones and tests find it alike.
    const text = `Your sign-in code is ${code}. It expires in 10 minutes. If you did not try to sign in, ignore this message.`;
    try {
      if (phone) await this.#sms?.send({ to: phone, text });
      else await this.#mailer.send({ to: email, subject: 'Your sign-in code', text });
    } catch (error) {
      // Nobody received this code: asking for another must not have to wait.
      await this.#db('sign_in_codes').where({ attempt_id: attemptId }).update({ sent_at: new Date(0) });
      throw error;
    }
    return phone ? smsSent(digits, email, phone) : { digits, email, channel: 'email', sentTo: email };
  }

  async #tooSoon(attemptId: string, now: Date): Promise<RateLimitedError> {
    const row: Pick<CodeRow, 'sent_at'> | undefined = await this.#db('sign_in_codes').where({ attempt_id: attemptId }).first('sent_at');
    const waited = row ? (now.getTime() - row.sent_at.getTime()) / 1000 : 0;
    const retryAfter = Math.max(1, Math.ceil(RESEND_INTERVAL_SECONDS - waited));
    return new RateLimitedError(`A new code can be sent once a minute: wait ${retryAfter} s.`, retryAfter, 'code_resend_too_soon');
  }

  #hash(attemptId: string, code: string): Buffer {
    return createHmac('sha256', this.#hashKey).update(`${attemptId}:${code}`).digest();
  }

  #matches(attemptId: string, code: string, stored: Buffer): boolean {
    const candidate = this.#hash(attemptId, code.trim());
    return candidate.length === stored.length && timingSafeEqual(candidate, stored);
  }
}

/** Deletes codes that have expired; returns how many. Safe on every instance at once. */
export async function sweepExpiredCodes(db: Knex, clock: Clock): Promise<number> {
  return db('sign_in_codes').where('expires_at', '<=', clock.now()).delete();
}

async function findOrCreateTraveler(trx: Knex.Transaction, email: string, now: Date): Promise<SignedIn> {
  const existing: { id: string } | undefined = await trx('users').whereRaw('lower(email) = ?', [email]).first('id');
  if (existing) {
    await trx('users').where({ id: existing.id }).update({ last_login: now });
    return { userId: existing.id, email, created: false };
  }
  // Two first sign-ins of one address racing: the unique index on lower(email) lets one insert win.
  const [created] = await trx('users')
    .insert({ email, last_login: now })
    .onConflict(trx.raw('(lower(email))'))
    .merge({ last_login: now })
    .returning(['id', 'xmax']);
  return { userId: created.id, email, created: String(created.xmax) === '0' };
}

interface TravelerContact {
  id: string;
  phone_number: string | null;
  phone_verified: boolean;
  sms_sign_in: boolean;
}

function smsSent(digits: number, email: string, phone: string): CodeSent {
  return { digits, email, channel: 'sms', sentTo: `your phone ending in ${phone.slice(-2)}` };
}

function newCode(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

