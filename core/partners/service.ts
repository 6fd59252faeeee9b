/**
 * Partner applications, their API keys and usage plans: what the admin command line and the API key
 * check call. Creating a partner and its first key is one transaction: no partner without a key.
 */
import type { Knex } from 'knex';
import { z } from 'zod';
import { ConflictError, NotFoundError, UnauthenticatedError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import { generateApiKey, matchesHash, prefixOf } from './api-keys.js';
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

/** Told when a key, plan or partner changes, so that caches of verified keys can drop what they hold. */
export type PartnerChangeListener = () => void;

export class PartnerService {
  readonly #db: Knex;
  readonly #listeners = new Set<PartnerChangeListener>();

  constructor(db: Knex) {
    this.#db = db;
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
      keyKind: 'secret',
      allowedOrigins: null,
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
