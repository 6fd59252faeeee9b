/**
 * oidc-provider's storage adapter, on PostgreSQL through knex: every model of the authorization server
 * (sessions, interactions, codes, tokens, grants, clients) in one table, so that any instance can answer
 * any step of a flow. Expiry is judged against the injected clock, so lifetimes can be tested without
 * waiting; rows past their expiry are invisible at once and deleted by the periodic sweep.
 */
import type { Knex } from 'knex';
import type { Clock } from '../core/clock.js';

/** What oidc-provider hands the adapter and reads back (its `AdapterPayload`). */
export interface OidcPayload {
  grantId?: string;
  uid?: string;
  userCode?: string;
  client_id?: string;
  clientId?: string;
  accountId?: string;
  consumed?: unknown;
  [key: string]: unknown;
}

/** The adapter interface of oidc-provider, one instance per model name. */
export interface OidcAdapter {
  upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<OidcPayload | undefined>;
  findByUid(uid: string): Promise<OidcPayload | undefined>;
  findByUserCode(userCode: string): Promise<OidcPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

const TABLE = 'oidc_models';

interface Row {
  payload: string;
  consumed_at: Date | null;
}

/** The factory oidc-provider's `adapter` setting takes: model name in, adapter out. */
export function oidcAdapterFactory(knex: Knex, clock: Clock): (model: string) => OidcAdapter {
  return (model) => new KnexOidcAdapter(knex, clock, model);
}

class KnexOidcAdapter implements OidcAdapter {
  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
    private readonly kind: string,
  ) {}

  async upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(this.clock.now().getTime() + expiresIn * 1000) : null;
    const columns = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      account_id: payload.accountId ?? null,
      user_code: payload.userCode ?? null,
      client_id: payload.clientId ?? payload.client_id ?? null,
      expires_at: expiresAt,
    };
    await this.knex(TABLE)
      .insert({ kind: this.kind, id, ...columns })
      .onConflict(['kind', 'id'])
      .merge(columns);
  }

  find(id: string): Promise<OidcPayload | undefined> {
    return this.#findWhere({ id });
  }

  findByUid(uid: string): Promise<OidcPayload | undefined> {
    return this.#findWhere({ uid });
  }

  findByUserCode(userCode: string): Promise<OidcPayload | undefined> {
    return this.#findWhere({ user_code: userCode });
  }

  async consume(id: string): Promise<void> {
    // The first consumption counts: a replayed code must still show when it was first used.
    await this.knex(TABLE)
      .where({ kind: this.kind, id })
      .whereNull('consumed_at')
      .update({ consumed_at: this.clock.now() });
  }

  async destroy(id: string): Promise<void> {
    await this.knex(TABLE).where({ kind: this.kind, id }).delete();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.knex(TABLE).where({ kind: this.kind, grant_id: grantId }).delete();
  }

  async #findWhere(where: Record<string, string>): Promise<OidcPayload | undefined> {
    const row: Row | undefined = await this.knex(TABLE)
      .select('payload', 'consumed_at')
      .where({ kind: this.kind, ...where })
      .andWhere((query) => query.whereNull('expires_at').orWhere('expires_at', '>', this.clock.now()))
      .first();
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as OidcPayload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
  }
}

/** Deletes rows whose lifetime has ended; returns how many. Safe to run on every instance at once. */
export async function sweepExpiredOidcModels(knex: Knex, clock: Clock): Promise<number> {
  return knex(TABLE).where('expires_at', '<=', clock.now()).delete();
}
