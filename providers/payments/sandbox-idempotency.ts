/**
 * Idempotency keys as Stripe keeps them: scoped to the account (the API key), kept 24 hours, bound to
 * the method, path and parameters of their first use. A replay gives back the stored answer (errors too,
 * but never a 5xx: the processor failed, so a retry runs again). The key is claimed in the database
 * before anything runs, so two requests with one key never both run, whichever instances they reach.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../core/clock.js';
import { StripeRefusal, type Answer } from './sandbox-dialect.js';

const TABLE = 'processor_sandbox_idempotency_keys';
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

export type Claim = { kind: 'claimed' } | { kind: 'replay'; answer: Answer };

export class IdempotencyKeys {
  readonly #db: Knex;
  readonly #clock: Clock;
  /** A key whose request has run this long without an answer was abandoned (its instance stopped): it may be claimed again. */
  readonly #abandonedAfterMs: number;

  constructor(deps: { db: Knex; clock: Clock; abandonedAfterMs: number }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#abandonedAfterMs = deps.abandonedAfterMs;
  }

  /** Claims `key` for a request, or says what to answer instead (a replay, a refusal). */
  async claim(account: string, key: string, fingerprint: string): Promise<Claim> {
    if (key.length > MAX_KEY_LENGTH) {
      throw new StripeRefusal(400, { type: 'invalid_request_error', message: `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters long.` });
    }
    const now = this.#clock.now();
    // Twice at most: a key released (its request failed with a 5xx) between our insert and our read is free again.
    for (let attempt = 0; attempt < 2; attempt++) {
      const claimed = await this.#db.raw(
        `insert into ${TABLE} as k (account, idempotency_key, fingerprint, created_at) values (?, ?, ?, ?)
         on conflict (account, idempotency_key) do update
           set fingerprint = excluded.fingerprint, created_at = excluded.created_at, response_status = null, response_body = null
           where k.created_at <= ? or (k.response_status is null and k.created_at <= ?)
         returning 1`,
        [account, key, fingerprint, now, new Date(now.getTime() - KEY_LIFETIME_MS), new Date(now.getTime() - this.#abandonedAfterMs)],
      );
      if (claimed.rows.length > 0) return { kind: 'claimed' };
      const existing = await this.#db(TABLE).where({ account, idempotency_key: key }).first('fingerprint', 'response_status', 'response_body');
      if (!existing) continue;
      if (existing.fingerprint !== fingerprint) {
        throw new StripeRefusal(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        });
      }
      if (existing.response_status === null) {
        throw new StripeRefusal(409, {
          type: 'idempotency_error',
          code: 'idempotency_key_in_use',
          message: `There is currently another in-progress request using this idempotency key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
        });
      }
      return { kind: 'replay', answer: { status: existing.response_status as number, body: existing.response_body } };
    }
    throw new StripeRefusal(409, { type: 'idempotency_error', code: 'idempotency_key_in_use', message: `The idempotency key ${key} is in use: try again later.` });
  }

  /** Keeps the answer for replays, in the transaction that made its changes when there is one. */
  async remember(account: string, key: string, answer: Answer, trx: Knex | Knex.Transaction = this.#db): Promise<void> {
    await trx(TABLE).where({ account, idempotency_key: key }).update({ response_status: answer.status, response_body: JSON.stringify(answer.body) });
  }

  /** Frees the key: its request failed on the processor's side, so a retry should run again. */
  async release(account: string, key: string): Promise<void> {
    await this.#db(TABLE).where({ account, idempotency_key: key }).whereNull('response_status').delete();
  }

  /** Deletes keys past their 24 hours; returns how many. */
  async sweepExpired(): Promise<number> {
    return this.#db(TABLE).where('created_at', '<=', new Date(this.#clock.now().getTime() - KEY_LIFETIME_MS)).delete();
  }
}

/** What a key is bound to: the method, the path and the parameters (in any order). */
export function fingerprintOf(method: string, path: string, params: unknown): string {
  return createHash('sha256').update(JSON.stringify([method.toUpperCase(), path, canonical(params)])).digest('hex');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]);
  }
  return value;
}
