/**
 * The vault sandbox's rows (tables `vault_sandbox_*`). Card numbers and security codes go in sealed
 * under the vault's own key (a SecretBox), bound to their token's id: a dump of the tables holds no card
 * in clear, and a sealed number copied to another row does not open. Fingerprints are HMACs under a key
 * of the vault's, kept sealed in the database so that every instance computes the same ones (a plain hash
 * of a card number is no secret: there are too few numbers). Session keys are kept as digests.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../core/clock.js';
import type { SecretBox } from '../../core/crypto/secret-box.js';
import type { CheckedCard } from './card-checks.js';
import type { WireMetadata, WireMetadataPatch } from './wire.js';

const TOKENS = 'vault_sandbox_tokens';
const SESSIONS = 'vault_sandbox_sessions';
const KEYS = 'vault_sandbox_keys';
const SESSION_KEY_PREFIX = 'key_test_session_';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface StoredToken {
  id: string;
  brand: string;
  last4: string;
  expirationMonth: number;
  expirationYear: number;
  fingerprint: string;
  metadata: Record<string, string>;
  owner: string | null;
  createdAt: Date;
  modifiedAt: Date | null;
}

export interface ClearCard {
  id: string;
  number: string;
  expirationMonth: number;
  expirationYear: number;
  /** Present at the first detokenization only. */
  cvc: string | undefined;
}

export interface StoredSession {
  owner: string;
  origin: string;
  /** Origins that may frame `origin`'s page in turn (every ancestor is checked by the browser). */
  frameAncestors: string[];
  expiresAt: Date;
}

interface TokenRow {
  id: string;
  brand: string;
  last4: string;
  expiration_month: number;
  expiration_year: number;
  fingerprint: string;
  metadata: Record<string, string>;
  owner: string | null;
  created_at: Date;
  modified_at: Date | null;
}

const MASKED_COLUMNS = ['id', 'brand', 'last4', 'expiration_month', 'expiration_year', 'fingerprint', 'metadata', 'owner', 'created_at', 'modified_at'];

export class VaultStore {
  readonly #db: Knex;
  readonly #secrets: SecretBox;
  #fingerprintKey: Promise<Buffer> | undefined;

  constructor(db: Knex, secrets: SecretBox) {
    this.#db = db;
    this.#secrets = secrets;
  }

  async createToken(input: { id: string; card: CheckedCard; metadata: WireMetadata; owner: string | null; now: Date }): Promise<StoredToken> {
    const { id, card } = input;
    const [row] = await this.#db(TOKENS)
      .insert({
        id,
        sealed_number: this.#secrets.seal(card.number, sealContext(id, 'number')),
        sealed_cvc: card.cvc === undefined ? null : this.#secrets.seal(card.cvc, sealContext(id, 'cvc')),
        brand: card.network,
        last4: card.number.slice(-4),
        expiration_month: card.expirationMonth,
        expiration_year: card.expirationYear,
        fingerprint: await this.#fingerprint(card.number),
        metadata: JSON.stringify(input.metadata),
        owner: input.owner,
        created_at: input.now,
        modified_at: null,
      })
      .returning(MASKED_COLUMNS);
    return fromRow(row as TokenRow);
  }

  async findToken(id: string): Promise<StoredToken | undefined> {
    if (!UUID.test(id)) return undefined;
    const row: TokenRow | undefined = await this.#db(TOKENS).where({ id }).first(MASKED_COLUMNS);
    return row && fromRow(row);
  }

  /** Applies a merge patch to the metadata in one statement (two patches at once both apply). */
  async updateMetadata(id: string, patch: WireMetadataPatch | null | undefined, now: Date): Promise<StoredToken | undefined> {
    if (!UUID.test(id)) return undefined;
    const entries = Object.entries(patch ?? {}).filter(([, value]) => value !== undefined);
    const set = Object.fromEntries(entries.filter(([, value]) => value !== null));
    const removed = entries.filter(([, value]) => value === null).map(([key]) => key);
    const metadata =
      patch === null
        ? this.#db.raw(`'{}'::jsonb`)
        : this.#db.raw(`(metadata || ?::jsonb)${' - ?::text'.repeat(removed.length)}`, [JSON.stringify(set), ...removed]);
    const [row] = await this.#db(TOKENS).where({ id }).update({ metadata, modified_at: now }).returning(MASKED_COLUMNS);
    return row && fromRow(row as TokenRow);
  }

  /** Deletes the token and its card; false when there was none. */
  async deleteToken(id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    return (await this.#db(TOKENS).where({ id }).delete()) > 0;
  }

  /**
   * The card in clear, for the processor. The security code is erased as it is read (no code is kept
   * after an authorization); the row lock makes two reads at once give it to one of them only.
   */
  async detokenize(id: string): Promise<ClearCard | undefined> {
    if (!UUID.test(id)) return undefined;
    return this.#db.transaction(async (trx) => {
      const row: { sealed_number: string; sealed_cvc: string | null; expiration_month: number; expiration_year: number } | undefined = await trx(TOKENS)
        .where({ id })
        .forUpdate()
        .first('sealed_number', 'sealed_cvc', 'expiration_month', 'expiration_year');
      if (!row) return undefined;
      if (row.sealed_cvc !== null) await trx(TOKENS).where({ id }).update({ sealed_cvc: null });
      return {
        id,
        number: this.#secrets.open(row.sealed_number, sealContext(id, 'number')),
        expirationMonth: row.expiration_month,
        expirationYear: row.expiration_year,
        cvc: row.sealed_cvc === null ? undefined : this.#secrets.open(row.sealed_cvc, sealContext(id, 'cvc')),
      };
    });
  }

  /** A new session key; only its digest is kept. */
  async createSession(input: { owner: string; origin: string; frameAncestors?: readonly string[]; expiresAt: Date; now: Date }): Promise<string> {
    const key = `${SESSION_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
    await this.#db(SESSIONS).insert({
      key_digest: digest(key),
      owner: input.owner,
      origin: input.origin,
      frame_ancestors: [...(input.frameAncestors ?? [])],
      expires_at: input.expiresAt,
      created_at: input.now,
    });
    return key;
  }

  /** The session of `key`, expired or not (the caller decides); undefined when there is none. */
  async findSession(key: string): Promise<StoredSession | undefined> {
    if (!isSessionKey(key)) return undefined;
    const row: { owner: string; origin: string; frame_ancestors: string[] | null; expires_at: Date } | undefined = await this.#db(SESSIONS)
      .where({ key_digest: digest(key) })
      .first('owner', 'origin', 'frame_ancestors', 'expires_at');
    return row && { owner: row.owner, origin: row.origin, frameAncestors: row.frame_ancestors ?? [], expiresAt: row.expires_at };
  }

  async #fingerprint(number: string): Promise<string> {
    this.#fingerprintKey ??= this.#loadFingerprintKey().catch((error: unknown) => {
      this.#fingerprintKey = undefined;
      throw error;
    });
    return createHmac('sha256', await this.#fingerprintKey).update(number).digest('base64url');
  }

  /** The vault's fingerprint key, made by whichever instance needs it first. */
  async #loadFingerprintKey(): Promise<Buffer> {
    const context = `${KEYS}:fingerprint`;
    const read = () => this.#db(KEYS).where({ name: 'fingerprint' }).first('sealed_key') as Promise<{ sealed_key: string } | undefined>;
    let row = await read();
    if (!row) {
      const sealed = this.#secrets.seal(randomBytes(32).toString('base64'), context);
      await this.#db(KEYS).insert({ name: 'fingerprint', sealed_key: sealed }).onConflict('name').ignore();
      row = await read();
    }
    if (!row) throw new Error('The vault sandbox could not keep its fingerprint key');
    return Buffer.from(this.#secrets.open(row.sealed_key, context), 'base64');
  }
}

export function isSessionKey(key: string): boolean {
  return key.startsWith(SESSION_KEY_PREFIX);
}

/** Deletes the sessions that have expired; returns how many. Safe on every instance at once. */
export async function sweepExpiredVaultSessions(db: Knex, clock: Clock): Promise<number> {
  return db(SESSIONS).where('expires_at', '<=', clock.now()).delete();
}

function sealContext(id: string, field: 'number' | 'cvc'): string {
  return `${TOKENS}:${id}:${field}`;
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function fromRow(row: TokenRow): StoredToken {
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    expirationMonth: row.expiration_month,
    expirationYear: row.expiration_year,
    fingerprint: row.fingerprint,
    metadata: row.metadata,
    owner: row.owner,
    createdAt: row.created_at,
    modifiedAt: row.modified_at,
  };
}
