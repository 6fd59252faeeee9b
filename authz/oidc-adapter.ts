/**
 * oidc-provider's storage adapter, on PostgreSQL through knex: every model of the authorization server
 * (sessions, interactions, codes, tokens, grants, clients) in one table, so that any instance can answer
 * any step of a flow. Expiry is judged against the injected clock, so lifetimes can be tested without
 * waiting; rows past their expiry are invisible at once and deleted by the periodic sweep.
 */
import type { Knex } from 'knex';
import { errors } from 'oidc-provider';
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/crypto/secret-box.js';
import { isStorableText } from '../core/input-checks.js';
import { isUrlClientId } from './client-metadata-url.js';
import { readForRefresh, refreshTokenOfRequest, takeRow, type StoredRow } from './refresh-reads.js';

/** A dynamically registered client lives this long after its last successful token exchange. */
export const DYNAMIC_CLIENT_LIFETIME_SECONDS = 30 * 24 * 3600;

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

/** Resolves a client whose id is the URL of its metadata document (ClientMetadataDocuments). */
export interface UrlClientResolver {
  resolve(clientId: string): Promise<OidcPayload>;
}

const TABLE = 'oidc_models';

/**
 * The factory oidc-provider's `adapter` setting takes: model name in, adapter out. Client secrets are
 * sealed with `secrets` before they are written (the server needs them back to compare, so a hash will
 * not do). A client without a partner (dynamically registered) expires 30 days after it was written
 * unless a token exchange extends it (`extendDynamicClient`). A client whose id is a URL is not stored:
 * `documents` resolves it from the metadata document at that URL (without `documents`, it is unknown).
 */
export function oidcAdapterFactory(knex: Knex, clock: Clock, secrets: SecretBox, documents?: UrlClientResolver): (model: string) => OidcAdapter {
  return (model) => (model === 'Client' ? new ClientAdapter(knex, clock, secrets, documents) : new KnexOidcAdapter(knex, clock, model));
}

class KnexOidcAdapter implements OidcAdapter {
  constructor(
    protected readonly knex: Knex,
    protected readonly clock: Clock,
    private readonly kind: string,
  ) {}

  async upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(this.clock.now().getTime() + expiresIn * 1000) : null;
    await this.write(id, payload, expiresAt);
  }

  protected async write(id: string, payload: OidcPayload, expiresAt: Date | null): Promise<void> {
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

  async find(id: string): Promise<OidcPayload | undefined> {
    const row = await this.findRow(id);
    return row && payloadOf(row);
  }

  async findByUid(uid: string): Promise<OidcPayload | undefined> {
    const row = await this.#findWhere({ uid });
    return row && payloadOf(row);
  }

  async findByUserCode(userCode: string): Promise<OidcPayload | undefined> {
    const row = await this.#findWhere({ user_code: userCode });
    return row && payloadOf(row);
  }

  protected findRow(id: string): Promise<StoredRow | undefined> {
    // A refresh token and its grant come with the client's read at the token endpoint (refresh-reads.ts).
    const readAhead = takeRow(this.kind, id);
    return readAhead ? Promise.resolve(readAhead) : this.#findWhere({ id });
  }

  async consume(id: string): Promise<void> {
    // The first consumption counts: a replayed code must still show when it was first used. The library
    // checks "not yet used" on its read, then consumes: two exchanges of one code sent at once both pass
    // that check, so the one whose update finds the row already used is refused here (a code is used once,
    // RFC 6749 §4.1.2), and gets no token.
    const marked = await this.knex(TABLE)
      .where({ kind: this.kind, id })
      .whereNull('consumed_at')
      .update({ consumed_at: this.clock.now() });
    if (marked === 0) throw new errors.InvalidGrant(`${this.kind} already used`);
  }

  async destroy(id: string): Promise<void> {
    await this.knex(TABLE).where({ kind: this.kind, id }).delete();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.knex(TABLE).where({ kind: this.kind, grant_id: grantId }).delete();
  }

  async #findWhere(where: Record<string, string>): Promise<StoredRow | undefined> {
    // Tokens, codes and client ids come from requests: one holding a NUL (which PostgreSQL refuses to
    // even compare) cannot have been stored, so it finds nothing, as any unknown id does.
    if (!Object.values(where).every(isStorableText)) return undefined;
    return this.knex(TABLE)
      .select('payload', 'consumed_at')
      .where({ kind: this.kind, ...where })
      .andWhere((query) => query.whereNull('expires_at').orWhere('expires_at', '>', this.clock.now()))
      .first();
  }
}

function payloadOf(row: StoredRow): OidcPayload {
  const payload = JSON.parse(row.payload) as OidcPayload;
  return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
}

/** How many opened client secrets ClientAdapter keeps (see `#opened`). */
const OPENED_SECRETS = 1000;

class ClientAdapter extends KnexOidcAdapter {
  /**
   * Client secrets last opened, by client id and the sealed text they were opened from. Every find still
   * reads the row: this only spares decrypting the same sealed text again, so a rotated secret or a
   * deleted client is seen at its next read, as before.
   */
  readonly #opened = new Map<string, { sealed: string; secret: string }>();

  constructor(
    knex: Knex,
    clock: Clock,
    private readonly secrets: SecretBox,
    private readonly documents: UrlClientResolver | undefined,
  ) {
    super(knex, clock, 'Client');
  }

  override async upsert(id: string, payload: OidcPayload): Promise<void> {
    const secret = payload.client_secret;
    const stored = typeof secret === 'string' ? { ...payload, client_secret: this.secrets.seal(secret, context(id)) } : payload;
    // Partner clients and the sandbox's demo airline (sandbox-demo-client.ts) do not expire.
    const dynamic = !payload.partner_id && payload.sandbox_demo !== true;
    const expiresAt = dynamic ? new Date(this.clock.now().getTime() + DYNAMIC_CLIENT_LIFETIME_SECONDS * 1000) : null;
    await this.write(id, stored, expiresAt);
  }

  override async find(id: string): Promise<OidcPayload | undefined> {
    // oidc-provider asks the adapter first: this is where it learns of clients described by a document
    // (its own experimental resolver is off, so that one path, ours, applies the rules in every case).
    if (isUrlClientId(id)) return this.documents?.resolve(id);
    // Authenticating the client of a refresh: its token, grant and traveler are read in the same statement.
    const refreshToken = refreshTokenOfRequest();
    const row = refreshToken ? await readForRefresh(this.knex, this.clock.now(), id, refreshToken) : await this.findRow(id);
    if (!row) return undefined;
    const payload = payloadOf(row);
    const sealed = payload.client_secret;
    return typeof sealed === 'string' ? { ...payload, client_secret: this.#open(id, sealed) } : payload;
  }

  #open(id: string, sealed: string): string {
    const opened = this.#opened.get(id);
    if (opened?.sealed === sealed) return opened.secret;
    const secret = this.secrets.open(sealed, context(id));
    this.#opened.delete(id);
    if (this.#opened.size >= OPENED_SECRETS) this.#opened.delete(this.#opened.keys().next().value as string);
    this.#opened.set(id, { sealed, secret });
    return secret;
  }
}

function context(clientId: string): string {
  return `oidc_models:Client:${clientId}`;
}

/** A successful token exchange keeps a dynamically registered client alive for another 30 days. */
export async function extendDynamicClient(knex: Knex, clock: Clock, clientId: string): Promise<void> {
  const now = clock.now();
  await knex(TABLE)
    .where({ kind: 'Client', id: clientId })
    .whereNotNull('expires_at')
    .andWhere('expires_at', '>', now)
    .update({ expires_at: new Date(now.getTime() + DYNAMIC_CLIENT_LIFETIME_SECONDS * 1000) });
}

/**
 * Deletes rows whose lifetime has ended, and everything issued to clients whose registration has
 * expired (their refresh tokens, grants and codes die with them); returns how many rows went. Safe to
 * run on every instance at once.
 */
export async function sweepExpiredOidcModels(knex: Knex, clock: Clock): Promise<number> {
  const now = clock.now();
  const expiredClients = knex(TABLE).select('id').where({ kind: 'Client' }).andWhere('expires_at', '<=', now);
  const orphans = await knex(TABLE).whereNot({ kind: 'Client' }).whereIn('client_id', expiredClients).delete();
  return orphans + (await knex(TABLE).where('expires_at', '<=', now).delete());
}
