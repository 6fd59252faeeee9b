/**
 * A traveler's saved payment methods (decisions §8). Cards are saved from card-vault tokens that the
 * hosted card fields made in the traveler's own session: what the service stores of a card (network, last
 * four, expiry) is read from the vault, never taken from a request. Legacy rows, imported from the
 * previous processor, have no vault token: they list, change expiry and default, and delete like any card,
 * but have no vault-held details. One default per traveler, changed under a lock on the traveler's row.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { ConflictError, isDomainError, NotFoundError, UnprocessableError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { CardVault } from '../ports.js';
import { parseOrThrow } from '../validation.js';
import { FromTokenRequest, LegacyImport, PaymentMethodEdit, type PaymentMethod, type TokenizationSession } from './schemas.js';
import * as store from './store.js';
import type { PaymentMethodRow } from './store.js';

export interface PaymentMethodDeps {
  db: Knex;
  clock: Clock;
  /** Seals vault tokens and legacy references at rest. */
  secrets: SecretBox;
  vault: CardVault;
  logger: Logger;
  /**
   * Keys of the HMACs (owner references, token digests), newest first: the newest makes them, every one
   * is still accepted, so a rotation does not strand a token made a minute before it.
   */
  hashKeys: readonly string[];
}

/** What a booking needs of a card: the copy it keeps, and the token the processor charges. */
export interface ChargeableCard {
  id: string;
  brand: string;
  last4: string;
  vaultToken: string;
}

const TOKEN_PROBLEM = 'is not a card token made in this traveler’s session (or it expired, or was removed): have the traveler enter the card again in the hosted card fields';
const UNIQUE_VIOLATION = '23505';

export class PaymentMethodService {
  constructor(private readonly deps: PaymentMethodDeps) {
    if (deps.hashKeys.length === 0) throw new Error('PaymentMethodService needs at least one hash key');
  }

  /** The default first, then the newest. */
  async list(userId: string): Promise<PaymentMethod[]> {
    return (await store.listRows(this.deps.db, userId)).map(present);
  }

  async get(userId: string, id: string): Promise<PaymentMethod> {
    return present(await this.#row(this.deps.db, userId, id));
  }

  /**
   * The card a booking charges: the one named, or else the traveler's default. Only vault-backed credit
   * cards can be charged: a legacy row or a wallet is 422 `payment_method_not_chargeable`, an expired card
   * 422 `payment_method_expired`; another traveler's id is a 404 like an unknown one.
   */
  async chargeable(userId: string, id: string | undefined): Promise<ChargeableCard> {
    const row =
      id === undefined
        ? (await store.listRows(this.deps.db, userId)).find((candidate) => candidate.is_default)
        : await this.#row(this.deps.db, userId, id);
    if (!row) {
      throw new UnprocessableError(
        'The traveler has no default payment method: name one with payment_method_id (list them with list_payment_methods), or have the traveler save a card first.',
        'payment_method_required',
      );
    }
    if (row.method_type !== 'credit_card' || row.vault_token === null) {
      throw new UnprocessableError(
        `Payment method ${row.id} cannot be charged by the service (a legacy card or a wallet): have the traveler add the card again in the card fields, or choose another.`,
        'payment_method_not_chargeable',
      );
    }
    const now = this.deps.clock.now();
    if (row.exp_year * 12 + row.exp_month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
      throw new UnprocessableError(`Payment method ${row.id} expired at the end of ${row.exp_month}/${row.exp_year}: choose another card, or update its expiry.`, 'payment_method_expired');
    }
    return { id: row.id, brand: row.brand, last4: row.last4, vaultToken: this.#token(row) };
  }

  /**
   * The reference the vault keeps as the owner of tokens made in this traveler's sessions: an HMAC of the
   * user id, so the vault never learns who the traveler is, and a token is only ever saved by its owner.
   */
  vaultOwnerOf(userId: string): string {
    return ownerUnder(this.deps.hashKeys[0] as string, userId);
  }

  /** `frameAncestors`: pages that frame `origin`'s page in turn (the partner page around the hosted checkout). */
  async openTokenizationSession(userId: string, origin: string, frameAncestors: readonly string[] = []): Promise<Omit<TokenizationSession, 'csrfToken'>> {
    const session = await this.deps.vault.openSession({ owner: this.vaultOwnerOf(userId), origin, ...(frameAncestors.length > 0 ? { frameAncestors } : {}) });
    return { vaultUrl: this.deps.vault.publicUrl, sessionKey: session.sessionKey, expiresAt: session.expiresAt.toISOString() };
  }

  /** Saves the card behind a vault token made in this traveler's session; its details come from the vault. */
  async fromToken(userId: string, input: unknown): Promise<{ id: string }> {
    const body = parseOrThrow(FromTokenRequest, input);
    const tokenId = body.vaultToken.toLowerCase();
    const card = await this.deps.vault.readCard(tokenId);
    // Unknown and someone else's read alike: the answer must not tell that another traveler's token exists.
    const owners = this.deps.hashKeys.map((key) => ownerUnder(key, userId));
    if (!card || card.owner === undefined || !owners.some((owner) => safeEqual(owner, card.owner as string))) {
      throw new ValidationError([{ field: 'vaultToken', rule: 'vault_token', message: `vaultToken ${TOKEN_PROBLEM}` }]);
    }
    if (card.brand === undefined) {
      throw new UnprocessableError('This card’s network is not accepted: use a Visa, Mastercard, American Express or Discover card.', 'card_brand_not_accepted');
    }
    if (card.expYear < 2024 || card.expYear > 2050 || card.expMonth < 1 || card.expMonth > 12 || !/^\d{4}$/.test(card.last4)) {
      throw new UnprocessableError('This card’s expiry date cannot be saved (years 2024-2050 only): use another card.', 'card_expiry_not_accepted');
    }
    const digests = this.deps.hashKeys.map((key) => digestUnder(key, tokenId));
    const exists = () => new ConflictError('This card token is already saved as a payment method: list them with GET /v1/users/me/payment-methods.', 'payment_method_exists');
    const id = crypto.randomUUID();
    const now = this.deps.clock.now();
    try {
      await this.deps.db.transaction(async (trx) => {
        await this.#lockTraveler(trx, userId);
        if (await store.digestTaken(trx, digests)) throw exists();
        const isDefault = body.isDefault ?? (await store.countRows(trx, userId)) === 0;
        if (isDefault) await store.clearDefault(trx, userId);
        await store.insertRow(trx, {
          id,
          user_id: userId,
          method_type: 'credit_card',
          brand: card.brand as NonNullable<typeof card.brand>,
          last4: card.last4,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          is_default: isDefault,
          vault_token: this.deps.secrets.seal(tokenId, sealContext(id, 'vault_token')),
          vault_token_digest: digests[0] as string,
          fingerprint: card.fingerprint || null,
          legacy_reference: null,
          created_at: now,
          updated_at: now,
        });
      });
    } catch (error) {
      // Two requests saving one token at once: the unique digest lets one through.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION && String((error as { constraint?: string }).constraint).includes('digest')) throw exists();
      throw error;
    }
    return { id };
  }

  async edit(userId: string, id: string, input: unknown): Promise<PaymentMethod> {
    const edit = parseOrThrow(PaymentMethodEdit, input);
    const vaultDetails = 'cardholderName' in edit || 'zip' in edit;
    if (vaultDetails) {
      // The vault first, outside the transaction: a slow vault must not hold the traveler's lock (nor the
      // embedded database's one connection). If it refuses, nothing has changed; if the row's change then
      // fails, the vault holds details the traveler asked for, and a retry writes them again.
      const row = await this.#row(this.deps.db, userId, id);
      if (row.vault_token === null) {
        throw new UnprocessableError(
          'This card was carried over from our previous payment processor and has no cardholder name or billing ZIP to change: change its expiry or default flag, or have the traveler add the card again through the hosted card fields.',
          'legacy_payment_method',
        );
      }
      if (edit.expMonth !== undefined || edit.expYear !== undefined) this.#checkNotExpired(edit.expMonth ?? row.exp_month, edit.expYear ?? row.exp_year);
      await this.deps.vault.updateCardDetails(this.#token(row), {
        ...('cardholderName' in edit ? { cardholderName: edit.cardholderName ?? null } : {}),
        ...('zip' in edit ? { billingZip: edit.zip ?? null } : {}),
      });
    }
    await this.deps.db.transaction(async (trx) => {
      // Every change of a traveler's cards takes the traveler's row first: two edits making defaults take turns.
      await this.#lockTraveler(trx, userId);
      const row = await this.#row(trx, userId, id, { forUpdate: true });
      const expMonth = edit.expMonth ?? row.exp_month;
      const expYear = edit.expYear ?? row.exp_year;
      if (edit.expMonth !== undefined || edit.expYear !== undefined) this.#checkNotExpired(expMonth, expYear);
      if (edit.isDefault === true) await store.clearDefault(trx, userId, row.id);
      await store.updateRow(trx, row.id, {
        exp_month: expMonth,
        exp_year: expYear,
        ...(edit.isDefault === undefined ? {} : { is_default: edit.isDefault }),
        updated_at: this.deps.clock.now(),
      });
    });
    return this.get(userId, id);
  }

  /** The row goes whatever the vault says; the vault's copy is redacted afterwards, best effort. */
  async delete(userId: string, id: string): Promise<void> {
    if (!store.UUID.test(id)) throw notFound(id);
    const row = await this.deps.db.transaction((trx) => store.deleteRow(trx, userId, id));
    if (!row) throw notFound(id);
    if (row.vault_token === null) return;
    try {
      await this.deps.vault.redact(this.#token(row));
    } catch (error) {
      // Never the token or the card: the id is enough to find the row's history, and the vault's own log has the rest.
      this.deps.logger.warn(
        { payment_method_id: row.id, error_code: isDomainError(error) ? error.code : 'unexpected' },
        'the card vault did not redact a deleted payment method’s token: it stays in the vault until redacted by hand',
      );
    }
  }

  /** A card of the previous processor, with no vault token (the admin command line). */
  async importLegacy(input: LegacyImport): Promise<{ id: string }> {
    const fields = parseOrThrow(LegacyImport, input);
    const userId = await store.findUserId(this.deps.db, fields.user);
    if (!userId) throw new NotFoundError(`There is no traveler ${fields.user}: give their id or e-mail address.`, 'user_not_found');
    const id = crypto.randomUUID();
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (trx) => {
      await this.#lockTraveler(trx, userId);
      if (fields.isDefault) await store.clearDefault(trx, userId);
      await store.insertRow(trx, {
        id,
        user_id: userId,
        method_type: fields.methodType,
        brand: fields.brand,
        last4: fields.last4,
        exp_month: fields.expMonth,
        exp_year: fields.expYear,
        is_default: fields.isDefault,
        vault_token: null,
        vault_token_digest: null,
        fingerprint: null,
        legacy_reference: fields.legacyReference === undefined ? null : this.deps.secrets.seal(fields.legacyReference, sealContext(id, 'legacy_reference')),
        created_at: now,
        updated_at: now,
      });
    });
    return { id };
  }

  async #lockTraveler(trx: Knex.Transaction, userId: string): Promise<void> {
    if (!(await store.lockTraveler(trx, userId))) throw new NotFoundError('The traveler of this token no longer exists: sign them in again.', 'user_not_found');
  }

  /** The traveler's row, or 404: another traveler's id, an unknown one or one that is not a UUID alike. */
  async #row(db: Knex, userId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentMethodRow> {
    const row = store.UUID.test(id) ? await store.findRow(db, userId, id, options) : undefined;
    if (!row) throw notFound(id);
    return row;
  }

  #token(row: PaymentMethodRow): string {
    return this.deps.secrets.open(row.vault_token as string, sealContext(row.id, 'vault_token'));
  }

  /** A card expires at the end of its month; the traveler's day may already be the next month somewhere. */
  #checkNotExpired(month: number, year: number): void {
    const now = this.deps.clock.now();
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (year * 12 + (month - 1) < current - 1 || (year * 12 + (month - 1) < current && now.getUTCDate() > 1)) {
      const message = 'the expiry (expMonth and expYear together) is in the past: send the date printed on the card';
      throw new ValidationError([
        { field: 'expMonth', rule: 'not_expired', message },
        { field: 'expYear', rule: 'not_expired', message },
      ]);
    }
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`There is no payment method ${id} of this traveler: list them with GET /v1/users/me/payment-methods.`, 'payment_method_not_found');
}

function present(row: PaymentMethodRow): PaymentMethod {
  return {
    id: row.id,
    userId: row.user_id,
    methodType: row.method_type,
    last4: row.last4,
    brand: row.brand,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    isDefault: row.is_default,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function sealContext(id: string, column: 'vault_token' | 'legacy_reference'): string {
  return `payment_methods:${id}:${column}`;
}

/** A key of its own per use, derived from one configured key: an owner reference is never a token digest. */
function hmac(key: string, label: string, value: string): string {
  const derived = crypto.createHmac('sha256', key).update(label).digest();
  return crypto.createHmac('sha256', derived).update(value).digest('base64url');
}

function ownerUnder(key: string, userId: string): string {
  return `owner_${hmac(key, 'card vault owner', userId.toLowerCase())}`;
}

function digestUnder(key: string, tokenId: string): string {
  return hmac(key, 'payment method vault token', tokenId);
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
