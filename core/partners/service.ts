/**
 * Partner applications, their API keys and usage plans: what the admin command line and the API key
 * check call. Creating a partner and its first key is one transaction: no partner without a key.
 */
import type { Knex } from 'knex';
import { z } from 'zod';
import { ConflictError, NotFoundError, UnauthenticatedError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import { generateApiKey, generatePublishableKey, matchesHash, modeOf, prefixOf, type KeyMode } from './api-keys.js';
import { checkAllowedOrigins } from './origins.js';
import {
  CreatePartnerInput,
  UpdatePartnerInput,
  UsagePlan,
  type Partner,
  type PartnerIdentity,
} from './schemas.js';
import * as store from './store.js';

export interface CreatedPartner {
  partner_id: string;
  name: string;
  plan_id: string;
  key_id: string;
  /** The whole key: shown this once, never stored. */
  api_key: string;
}

export interface CreatedKey {
  partner_id: string;
  key_id: string;
  prefix: string;
  api_key: string;
}

export interface CreatedPublishableKey extends CreatedKey {
  kind: 'publishable';
  allowed_origins: string[];
}

export interface PartnerServiceOptions {
  /**
   * Sandbox mode (config.sandbox): publishable keys are made `pk_test_` (else `pk_live_`), may list http
   * origins, and a key of the other mode is refused. Default false.
   */
  sandbox?: boolean;
}

/** Told when a key, plan or partner changes, so that caches of verified keys can drop what they hold. */
export type PartnerChangeListener = () => void;

export class PartnerService {
  readonly #db: Knex;
  readonly #sandbox: boolean;
  readonly #mode: KeyMode;
  readonly #listeners = new Set<PartnerChangeListener>();

  constructor(db: Knex, options: PartnerServiceOptions = {}) {
    this.#db = db;
    this.#sandbox = options.sandbox ?? false;
    this.#mode = this.#sandbox ? 'test' : 'live';
  }

  onChange(listener: PartnerChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async createPartner(input: CreatePartnerInput): Promise<CreatedPartner> {
    const data = parseOrThrow(CreatePartnerInput, input);
    return this.#db.transaction(async (trx) => {
      await this.#requirePlan(trx, data.plan_id);
      const partner = await store.insertPartner(trx, data);
      const key = generateApiKey();
      const row = await store.insertApiKey(trx, { partner_id: partner.id, prefix: key.prefix, secret_hash: key.secretHash });
      return { partner_id: partner.id, name: partner.name, plan_id: partner.plan_id, key_id: row.id, api_key: key.apiKey };
    });
  }

  async updatePartner(input: UpdatePartnerInput): Promise<Partner> {
    const data = parseOrThrow(UpdatePartnerInput, input);
    const updated = await this.#db.transaction(async (trx) => {
      if (data.plan_id !== undefined) await this.#requirePlan(trx, data.plan_id);
      const { partner_id, ...changes } = data;
      const row = await store.updatePartner(trx, partner_id, changes);
      if (!row) throw new NotFoundError(`No partner has the id ${partner_id}: run \`partner list\` to see them.`);
      return row;
    });
    this.#changed();
    return this.getPartner(updated.id);
  }

  async getPartner(partnerId: string): Promise<Partner> {
    const row = await store.findPartner(this.#db, partnerId);
    if (!row) throw new NotFoundError(`No partner has the id ${partnerId}: run \`partner list\` to see them.`);
    const [partner] = await this.#describe([row]);
    return partner as Partner;
  }

  async listPartners(): Promise<Partner[]> {
    return this.#describe(await store.listPartnerRows(this.#db));
  }

  async createKey(partnerId: string): Promise<CreatedKey> {
    parseOrThrow(z.uuid({ message: 'must be a partner id (a UUID)' }), partnerId, 'partner');
    const partner = await store.findPartner(this.#db, partnerId);
    if (!partner) throw new NotFoundError(`No partner has the id ${partnerId}: run \`partner list\` to see them.`);
    const key = generateApiKey();
    const row = await store.insertApiKey(this.#db, { partner_id: partnerId, prefix: key.prefix, secret_hash: key.secretHash });
    return { partner_id: partnerId, key_id: row.id, prefix: key.prefix, api_key: key.apiKey };
  }

  /**
   * A publishable key (decisions §12): for a partner's pages, reaching only the checkout's routes and only
   * from `allowed_origins`, each an exact origin (origins.ts).
   */
  async createPublishableKey(input: { partner_id: string; allowed_origins: readonly string[] }): Promise<CreatedPublishableKey> {
    const partnerId = input.partner_id;
    parseOrThrow(z.uuid({ message: 'must be a partner id (a UUID)' }), partnerId, 'partner');
    const origins = checkAllowedOrigins(input.allowed_origins, { sandbox: this.#sandbox });
    const partner = await store.findPartner(this.#db, partnerId);
    if (!partner) throw new NotFoundError(`No partner has the id ${partnerId}: run \`partner list\` to see them.`);
    const key = generatePublishableKey(this.#mode);
    const row = await store.insertApiKey(this.#db, {
      partner_id: partnerId,
      prefix: key.prefix,
      secret_hash: key.secretHash,
      kind: 'publishable',
      allowed_origins: origins,
    });
    // The preflight's cache of allowed origins learns of the new ones at once on this instance.
    this.#changed();
    return { partner_id: partnerId, key_id: row.id, prefix: key.prefix, api_key: key.apiKey, kind: 'publishable', allowed_origins: origins };
  }

  /** Every origin an active publishable key lists: the ones a preflight may be answered for. */
  async activePublishableOrigins(): Promise<string[]> {
    return store.activePublishableOrigins(this.#db);
  }

  /** Revokes a key by id or visible prefix; revoking twice is harmless. */
  async revokeKey(keyIdOrPrefix: string) {
    const row = await store.revokeApiKey(this.#db, keyIdOrPrefix);
    if (!row) throw new NotFoundError(`No API key has the id or prefix ${keyIdOrPrefix}: run \`partner list\` to see them.`);
    this.#changed();
    return { key_id: row.id, partner_id: row.partner_id, prefix: row.prefix, revoked_at: row.revoked_at?.toISOString() ?? null };
  }

  async setPlan(input: unknown): Promise<UsagePlan> {
    const plan = await store.upsertPlan(this.#db, parseOrThrow(UsagePlan, input));
    this.#changed();
    return plan;
  }

  async listPlans(): Promise<UsagePlan[]> {
    return store.listPlans(this.#db);
  }

  /**
   * Checks a presented API key against the database: unknown, malformed and revoked keys all fail alike,
   * so a caller cannot tell which of them it holds.
   */
  async authenticate(apiKey: string): Promise<PartnerIdentity> {
    const prefix = prefixOf(apiKey);
    const row = prefix ? await store.findKeyWithPartner(this.#db, prefix) : undefined;
    if (!row || row.revoked_at || !matchesHash(apiKey, row.secret_hash)) {
      throw new UnauthenticatedError(
        'The API key in x-api-key is not valid: it is unknown or has been revoked. Use an active key of your partner application.',
        'invalid_api_key',
      );
    }
    // Only the holder of the whole key gets this far: saying which mode it belongs to tells nobody else anything.
    const mode = modeOf(prefix as string);
    if (row.kind === 'publishable' && mode !== this.#mode) {
      throw new UnauthenticatedError(
        `This publishable key is a ${mode === 'test' ? 'sandbox (pk_test_)' : 'production (pk_live_)'} key, and this service runs in ${this.#sandbox ? 'sandbox' : 'production'} mode: use a pk_${this.#mode}_ key made for it.`,
        'invalid_api_key',
      );
    }
    return {
      partnerId: row.partner_id,
      keyId: row.key_id,
      plan: {
        id: row.plan_id,
        requests_per_second: row.requests_per_second,
        burst: row.burst,
        requests_per_day: row.requests_per_day,
      },
      allowedOperations: row.allowed_operations ? new Set(row.allowed_operations) : null,
      keyKind: row.kind,
      allowedOrigins: row.kind === 'publishable' ? (row.key_origins ?? []) : null,
    };
  }

  async #requirePlan(db: Knex, planId: string): Promise<void> {
    if (!(await store.findPlan(db, planId))) {
      throw new ConflictError(`There is no usage plan named ${planId}: create it first with \`plan set --name ${planId} ...\`.`, 'unknown_plan');
    }
  }

  async #describe(rows: store.PartnerRow[]): Promise<Partner[]> {
    if (rows.length === 0) return [];
    const plans = new Map((await store.listPlans(this.#db)).map((plan) => [plan.id, plan]));
    const keys = await store.listKeySummaries(
      this.#db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      partner_id: row.id,
      name: row.name,
      plan: plans.get(row.plan_id) as UsagePlan,
      allowed_operations: row.allowed_operations,
      created_at: row.created_at.toISOString(),
      api_keys: keys.filter((key) => key.partner_id === row.id).map(({ partner_id: _, ...key }) => key),
    }));
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
