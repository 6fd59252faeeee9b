/**
 * The contact change (specification: Contact-change payloads): a traveler's e-mail or phone changes only
 * once both are proven. Initiate sends a code to the current e-mail and answers a session; verify-identity
 * takes that code with the session, sends a code to the new contact and answers an access token (in the
 * body); confirm takes the new contact's code with that token, and the new value reaches the user record,
 * which is the sign-in identity (the next sign-in by e-mail finds the traveler by it).
 *
 * Each step names the same `contact_type` and `new_value`; codes have 8 digits, last 10 minutes and allow
 * 5 tries; each step's secrets are kept as HMACs bound to the change; a traveler has one change at a time,
 * and may start 5 an hour, attempts refused for naming another account's e-mail included. The code to the current e-mail is all that stands between a stolen token and
 * the account's sign-in identity, so guessing it must stay hopeless: 25 guesses an hour at 10^8 codes.
 */
import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { ConflictError, GoneError, NotFoundError, RateLimitedError, ValidationError } from '../errors.js';
import type { Mailer, SmsSender } from '../ports.js';
import { parseOrThrow } from '../validation.js';

const CODE_TTL_MS = 10 * 60 * 1000;
const MAX_TRIES = 5;
const STARTS_PER_HOUR = 5;

const ContactType = z.enum(['email', 'phone']);
const E164 = /^\+[1-9]\d{6,18}$/;

const NewValue = z.string().trim().min(3).max(255);

/** An e-mail for an e-mail change, an E.164 number for a phone change. */
function newValueFits(input: { contact_type: 'email' | 'phone'; new_value: string }, context: z.RefinementCtx): void {
  const valid = input.contact_type === 'email' ? z.email().safeParse(input.new_value).success : E164.test(input.new_value);
  if (!valid) {
    context.addIssue({ code: 'custom', path: ['new_value'], message: input.contact_type === 'email' ? 'an e-mail address' : 'an E.164 phone number such as +447700900123' });
  }
}

export const InitiateContactChangeRequest = z
  .strictObject({ contact_type: ContactType, new_value: NewValue })
  .superRefine(newValueFits)
  .meta({ id: 'InitiateContactChangeRequest', examples: [{ contact_type: 'email', new_value: 'amelia.hart@example.org' }] });
export const InitiatedContactChange = z
  .object({ session: z.string().describe('Send it back with the code, to verify-identity.'), challenge_name: z.literal('EMAIL_OTP') })
  .meta({ id: 'InitiatedContactChange', examples: [{ session: 'c3a8e5f1-6d2b-4f97-8a41-9e0b7c5d2f36', challenge_name: 'EMAIL_OTP' }] });

export const VerifyContactIdentityRequest = z
  .strictObject({ contact_type: ContactType, new_value: NewValue, code: z.string().trim().min(1).max(20), session: z.string().min(1).max(100) })
  .superRefine(newValueFits)
  .meta({
    id: 'VerifyContactIdentityRequest',
    examples: [{ contact_type: 'email', new_value: 'amelia.hart@example.org', code: '48207316', session: 'c3a8e5f1-6d2b-4f97-8a41-9e0b7c5d2f36' }],
  });
export const VerifiedContactIdentity = z
  .object({ access_token: z.string().describe('Send it to confirm, with the code sent to the new contact.') })
  .meta({ id: 'VerifiedContactIdentity', examples: [{ access_token: 'HBxqzZbPWXaFprSHJOKq0kGZ5e8VkvH-pG4LyJw6-js' }] });

export const ConfirmContactChangeRequest = z
  .strictObject({
    contact_type: ContactType,
    code: z.string().trim().min(1).max(20),
    access_token: z.string().min(1).max(200),
    new_value: NewValue.optional().describe('Required for a phone; optional for an e-mail.'),
  })
  .superRefine((input, context) => {
    if (input.contact_type === 'phone' && !input.new_value) context.addIssue({ code: 'custom', path: ['new_value'], message: 'required for a phone change' });
  })
  .meta({
    id: 'ConfirmContactChangeRequest',
    examples: [{ contact_type: 'email', new_value: 'amelia.hart@example.org', code: '93051824', access_token: 'HBxqzZbPWXaFprSHJOKq0kGZ5e8VkvH-pG4LyJw6-js' }],
  });

interface ChangeRow {
  id: string;
  user_id: string;
  contact_type: 'email' | 'phone';
  new_value: string;
  stage: 'current_contact' | 'new_contact' | 'done' | 'superseded' | 'refused';
  code_hash: Buffer;
  failed_tries: number;
  access_token_hash: Buffer | null;
  expires_at: Date;
}

export class ContactChanges {
  constructor(private readonly deps: { db: Knex; mailer: Mailer; sms: SmsSender; clock: Clock; hashKey: string }) {}

  async initiate(userId: string, input: unknown): Promise<z.infer<typeof InitiatedContactChange>> {
    const { contact_type: type, new_value: raw } = parseOrThrow(InitiateContactChangeRequest, input);
    const value = normalized(type, raw);
    const user: { email: string; phone_number: string | null } = await this.deps.db('users').where({ id: userId }).first('email', 'phone_number');
    if ((type === 'email' ? user.email.toLowerCase() : user.phone_number) === value) {
      throw new ValidationError([{ field: 'new_value', rule: 'unchanged', message: `this is already the traveler's ${type === 'email' ? 'e-mail' : 'phone'}` }]);
    }
    const id = randomUUID();
    const code = newCode();
    const started = await this.deps.db.transaction(async (trx) => {
      // Starts are counted under a lock on the traveler, so two at once cannot both slip under the limit.
      await trx('users').where({ id: userId }).forUpdate().first('id');
      const hourAgo = new Date(this.deps.clock.now().getTime() - 3_600_000);
      const count = await trx('contact_changes').where({ user_id: userId }).where('created_at', '>', hourAgo).count({ count: '*' }).first();
      if (Number(count?.count ?? 0) >= STARTS_PER_HOUR) {
        throw new RateLimitedError('A contact change can be started 5 times an hour: wait, then start again.', 3600, 'too_many_contact_changes');
      }
      // An address of another account is refused only once the attempt is counted (kept as `refused`,
      // leaving the traveler's change in progress alone): otherwise initiate would tell, without bound,
      // which addresses have accounts.
      const taken = type === 'email' && (await this.#ownedByAnother(trx, userId, value));
      // One change at a time: starting again retires the one before (kept, so that it counts above).
      if (!taken) await trx('contact_changes').where({ user_id: userId }).whereIn('stage', ['current_contact', 'new_contact']).update({ stage: 'superseded' });
      await trx('contact_changes').insert({
        id,
        user_id: userId,
        contact_type: type,
        new_value: value,
        stage: taken ? 'refused' : 'current_contact',
        code_hash: this.#hash(id, 'code', code),
        expires_at: this.#expiry(),
        created_at: this.deps.clock.now(),
      });
      return !taken;
    });
    if (!started) throw inUse();
    await this.deps.mailer.send({
      to: user.email,
      subject: 'Confirm it is you',
      text: `Your code is ${code}. Someone asked to change the ${type === 'email' ? 'e-mail address' : 'phone number'} of your account. It expires in 10 minutes. If it was not you, ignore this message.`,
    });
    return { session: id, challenge_name: 'EMAIL_OTP' };
  }

  async verifyIdentity(userId: string, input: unknown): Promise<z.infer<typeof VerifiedContactIdentity>> {
    const request = parseOrThrow(VerifyContactIdentityRequest, input);
    const accessToken = randomBytes(32).toString('base64url');
    const code = newCode();
    const row = await this.#step(userId, 'current_contact', request.code, (trx) =>
      trx('contact_changes').where({ id: UUID.test(request.session) ? request.session : randomUUID(), user_id: userId }),
      { contact_type: request.contact_type, new_value: normalized(request.contact_type, request.new_value) },
      (change) => ({
        stage: 'new_contact',
        failed_tries: 0,
        code_hash: this.#hash(change.id, 'code', code),
        access_token_hash: this.#hash(change.id, 'token', accessToken),
        expires_at: this.#expiry(),
      }),
    );
    const text = `Your code is ${code}. Enter it to make this your new ${row.contact_type === 'email' ? 'e-mail address' : 'phone number'}. It expires in 10 minutes.`;
    if (row.contact_type === 'email') await this.deps.mailer.send({ to: row.new_value, subject: 'Confirm your new e-mail address', text });
    else await this.deps.sms.send({ to: row.new_value, text });
    return { access_token: `${row.id}.${accessToken}` };
  }

  /** The new value reaches the user record: the e-mail is the sign-in identity; a phone is verified by this. */
  async confirm(userId: string, input: unknown): Promise<void> {
    const request = parseOrThrow(ConfirmContactChangeRequest, input);
    const [changeId = '', secret = ''] = request.access_token.split('.');
    await this.#step(
      userId,
      'new_contact',
      request.code,
      (trx) => trx('contact_changes').where({ id: UUID.test(changeId) ? changeId : randomUUID(), user_id: userId }),
      { contact_type: request.contact_type, ...(request.new_value ? { new_value: normalized(request.contact_type, request.new_value) } : {}) },
      () => ({ stage: 'done' }),
      (change) => {
        const token = change.access_token_hash;
        const candidate = this.#hash(change.id, 'token', secret);
        return token && token.length === candidate.length && timingSafeEqual(token, candidate) ? undefined : invalidToken();
      },
      async (trx, change) => {
        const now = this.deps.clock.now();
        if (change.contact_type === 'email') {
          if (await this.#ownedByAnother(trx, userId, change.new_value)) throw inUse();
          // Another account may take the address between the check and the update: the unique index says so.
          await trx('users')
            .where({ id: userId })
            .update({ email: change.new_value, updated_at: now })
            .catch((error: unknown) => {
              if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw inUse();
              throw error;
            });
        } else {
          await trx('users').where({ id: userId }).update({ phone_number: change.new_value, phone_verified: true, updated_at: now });
        }
      },
    );
  }

  /**
   * One step: the change row locked; its stage, `guard`, values, expiry and tries checked; the code
   * compared; on success `apply` run and `next` written, in the same transaction. Wrong tries are committed before
   * the error is raised, so that they count.
   */
  async #step(
    userId: string,
    stage: ChangeRow['stage'],
    code: string,
    find: (trx: Knex.Transaction) => Knex.QueryBuilder,
    expected: { contact_type: string; new_value?: string },
    next: (change: ChangeRow) => Record<string, unknown>,
    guard?: (change: ChangeRow) => Error | undefined,
    apply?: (trx: Knex.Transaction, change: ChangeRow) => Promise<void>,
  ): Promise<ChangeRow> {
    const outcome = await this.deps.db.transaction(async (trx): Promise<{ error: Error } | { change: ChangeRow }> => {
      const change: ChangeRow | undefined = await find(trx).forUpdate().first();
      if (!change || change.stage !== stage || change.user_id !== userId) {
        return {
          error:
            stage === 'current_contact'
              ? new NotFoundError('There is no contact change with this session: start again with initiate.', 'contact_change_not_found')
              : invalidToken(),
        };
      }
      const refused = guard?.(change);
      if (refused) return { error: refused };
      const mismatched = (['contact_type', 'new_value'] as const).filter((field) => expected[field] !== undefined && expected[field] !== change[field]);
      if (mismatched.length > 0) {
        return { error: new ValidationError(mismatched.map((field) => ({ field, rule: 'matches_initiate', message: `${field} must be the one sent to initiate` }))) };
      }
      if (change.expires_at <= this.deps.clock.now()) return { error: new GoneError('This code has expired (codes last 10 minutes): start again with initiate.', 'code_expired') };
      if (change.failed_tries >= MAX_TRIES) return { error: new GoneError('Too many wrong codes: start again with initiate.', 'code_locked') };
      const candidate = this.#hash(change.id, 'code', code.trim());
      if (candidate.length !== change.code_hash.length || !timingSafeEqual(candidate, change.code_hash)) {
        const tries = change.failed_tries + 1;
        await trx('contact_changes').where({ id: change.id }).update({ failed_tries: tries });
        const left = MAX_TRIES - tries;
        const hint = left > 0 ? `${left} ${left === 1 ? 'try' : 'tries'} left` : 'start again with initiate';
        return { error: new ValidationError([{ field: 'code', rule: 'code', message: `code is not the one we sent: ${hint}` }], `That code is not right: ${hint}.`) };
      }
      await apply?.(trx, change);
      await trx('contact_changes').where({ id: change.id }).update(next(change));
      return { change };
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.change;
  }

  /** Deletes changes whose last code expired a day ago or more (finished and retired ones too). */
  async sweepExpired(): Promise<number> {
    return this.deps.db('contact_changes').where('expires_at', '<', new Date(this.deps.clock.now().getTime() - 86_400_000)).delete();
  }

  /** An e-mail is one account's: the unique index settles races; this check says it plainly first. */
  async #ownedByAnother(db: Knex, userId: string, email: string): Promise<boolean> {
    const owner: { id: string } | undefined = await db('users').whereRaw('lower(email) = ?', [email]).whereNot({ id: userId }).first('id');
    return owner !== undefined;
  }

  #expiry(): Date {
    return new Date(this.deps.clock.now().getTime() + CODE_TTL_MS);
  }

  #hash(changeId: string, purpose: 'code' | 'token', secret: string): Buffer {
    return createHmac('sha256', this.deps.hashKey).update(`contact-change:${changeId}:${purpose}:${secret}`).digest();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function normalized(type: 'email' | 'phone', value: string): string {
  return type === 'email' ? value.trim().toLowerCase() : value.trim();
}

const UNIQUE_VIOLATION = '23505';

function inUse(): ConflictError {
  return new ConflictError('This e-mail address belongs to another account: choose another one.', 'contact_in_use');
}

function newCode(): string {
  return String(randomInt(0, 100_000_000)).padStart(8, '0');
}

function invalidToken(): Error {
  return new ValidationError([{ field: 'access_token', rule: 'valid', message: 'not the access token verify-identity gave for this change: start again with initiate' }]);
}
