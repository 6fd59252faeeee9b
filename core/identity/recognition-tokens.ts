/**
 * Recognition tokens (decisions §5, Identity surface rule 1): 128 random bits, base64url, 120 seconds,
 * single use, bound to the one client whose recognition frame minted it. Only a SHA-256 digest is stored:
 * the token is a bearer secret, and 128 random bits need no salt or key to resist guessing.
 *
 * Redeeming is one conditional write, so that of two racing redemptions exactly one wins, and every
 * refusal (unknown, expired, replayed, another client's) costs the same single statement: the answers
 * cannot be told apart by their timing (Identity surface rule 2).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';

export const RECOGNITION_TOKEN_SECONDS = 120;
const TOKEN_BYTES = 16;
/** A base64url token of 16 bytes is 22 characters; anything else cannot be one of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22}$/;

export class RecognitionTokens {
  readonly #db: Knex;
  readonly #clock: Clock;

  constructor(deps: { db: Knex; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  /** A fresh token for this traveler and client; the caller has checked the session and the consent. */
  async mint(userId: string, clientId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = this.#clock.now();
    const expiresAt = new Date(now.getTime() + RECOGNITION_TOKEN_SECONDS * 1000);
    await this.#db('recognition_tokens').insert({ token_digest: digest(token), user_id: userId, client_id: clientId, expires_at: expiresAt, created_at: now });
    return { token, expiresAt };
  }

  /**
   * Uses the token up and says whose it was, or undefined when it is unknown, expired, already used or
   * another client's. Another client's attempt does not use it up.
   */
  async redeem(token: string, clientId: string, db: Knex = this.#db): Promise<{ userId: string } | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const now = this.#clock.now();
    const [row]: { user_id: string }[] = await db('recognition_tokens')
      .where({ token_digest: digest(token), client_id: clientId })
      .whereNull('used_at')
      .andWhere('expires_at', '>', now)
      .update({ used_at: now })
      .returning('user_id');
    return row ? { userId: row.user_id } : undefined;
  }

  /** On disconnect: tokens minted for the client die with the consent. */
  async forget(userId: string, clientId: string, db: Knex = this.#db): Promise<void> {
    await db('recognition_tokens').where({ user_id: userId, client_id: clientId }).delete();
  }

  /** Deletes tokens past their life (used ones included): a periodic sweeper. */
  async sweepExpired(): Promise<number> {
    return this.#db('recognition_tokens').where('expires_at', '<=', this.#clock.now()).delete();
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
