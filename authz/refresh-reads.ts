/**
 * The refresh grant's reads in one statement. oidc-provider reads, one after the other, the client (to
 * authenticate it), the refresh token, its grant and the traveler (findAccount): four round trips to
 * PostgreSQL, where its memory adapter makes none. When the library asks our adapter for the client of a
 * refresh request at the token endpoint, `readForRefresh` reads all four in one prepared statement and
 * keeps the three others for that request alone (keyed by its Koa context, which the library hands its
 * adapter through `Provider.ctx`); each is taken once, by the read that asks for that very id.
 *
 * Nothing is cached: every refresh reads its rows from the database, as before, in one snapshot instead
 * of four moments a millisecond apart. A revoked grant, a deleted token or client, a rotated secret stop
 * working exactly when they did. A row the statement did not find is read again the usual way.
 */
import type { Knex } from 'knex';
import Provider from 'oidc-provider';
import { queryPrepared } from '../core/db/prepared.js';
import { isStorableText } from '../core/input-checks.js';
import type { UserRow } from '../core/users/store.js';

/** A row of oidc_models as the adapter reads it. */
export interface StoredRow {
  payload: string;
  consumed_at: Date | null;
}

/** What a token needs of its traveler (authorization-server.ts: findAccount, extraTokenClaims). */
export type AccountUser = Pick<UserRow, 'id' | 'email' | 'phone_number' | 'is_admin' | 'first_name' | 'middle_name' | 'last_name'>;

/**
 * The client, the refresh token, its grant (by the token's grant_id) and its traveler (by its account_id),
 * each only while it has not expired. Clients and grants are never consumed (only codes and tokens are),
 * so theirs is not read. Account ids are the users' uuids; one that is not (none is) finds no traveler
 * here, rather than failing the statement. Few columns: pg sets up a parser for each one, on each query.
 */
const REFRESH_READS = `
SELECT users.id, users.email, users.phone_number, users.is_admin, users.first_name, users.middle_name, users.last_name,
  client.payload AS client, token.payload AS token, token.consumed_at AS token_consumed_at,
  token.grant_id, grant_row.payload AS grant
FROM (SELECT 1) AS one
LEFT JOIN oidc_models client ON client.kind = 'Client' AND client.id = $1 AND (client.expires_at IS NULL OR client.expires_at > $3)
LEFT JOIN oidc_models token ON token.kind = 'RefreshToken' AND token.id = $2 AND (token.expires_at IS NULL OR token.expires_at > $3)
LEFT JOIN oidc_models grant_row ON grant_row.kind = 'Grant' AND grant_row.id = token.grant_id AND (grant_row.expires_at IS NULL OR grant_row.expires_at > $3)
LEFT JOIN users ON users.id = CASE WHEN token.account_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN token.account_id::uuid END`;

type ReadsRow = { [Column in keyof AccountUser]: AccountUser[Column] | null } & {
  client: string | null;
  token: string | null;
  token_consumed_at: Date | null;
  grant_id: string | null;
  grant: string | null;
};

/** What a refresh request read ahead: `<kind> <id>` → its row; `User <id>` → the traveler. */
const readAhead = new WeakMap<object, Map<string, StoredRow | AccountUser>>();

/** The refresh token of the refresh request the library is serving at the token endpoint, if it is one. */
export function refreshTokenOfRequest(): string | undefined {
  const ctx = Provider.ctx;
  if (!ctx || ctx.oidc.route !== 'token') return undefined;
  const params = ctx.oidc.params as { grant_type?: unknown; refresh_token?: unknown } | undefined;
  if (params?.grant_type !== 'refresh_token' || typeof params.refresh_token !== 'string') return undefined;
  // A value holding a NUL cannot have been stored (PostgreSQL refuses to even compare it): read as usual.
  return isStorableText(params.refresh_token) ? params.refresh_token : undefined;
}

/**
 * The client's row, read with the refresh token's, its grant's and its traveler's, which are kept for
 * the rest of this request (see `takeRow`, `takeUser`). Undefined when the client is not there.
 */
export async function readForRefresh(knex: Knex, now: Date, clientId: string, refreshToken: string): Promise<StoredRow | undefined> {
  // A client id holding a NUL cannot have been stored either: no such client.
  if (!isStorableText(clientId)) return undefined;
  const [row] = await queryPrepared<ReadsRow>(knex, 'oidc_refresh_reads', REFRESH_READS, [clientId, refreshToken, now]);
  if (!row) return undefined;
  const { client, token, token_consumed_at: tokenConsumedAt, grant_id: grantId, grant, ...user } = row;
  const kept = new Map<string, StoredRow | AccountUser>();
  if (token !== null) kept.set(`RefreshToken ${refreshToken}`, { payload: token, consumed_at: tokenConsumedAt });
  // The library asks for the grant by the token payload's grantId, which the adapter wrote to grant_id.
  if (grant !== null && grantId !== null) kept.set(`Grant ${grantId}`, { payload: grant, consumed_at: null });
  if (user.id !== null) kept.set(`User ${user.id}`, user as AccountUser);
  const ctx = Provider.ctx;
  if (ctx) readAhead.set(ctx, kept);
  return client === null ? undefined : { payload: client, consumed_at: null };
}

/** The row of `kind` and `id` this request read ahead, handed out once; undefined if there is none. */
export function takeRow(kind: string, id: string): StoredRow | undefined {
  return take(`${kind} ${id}`) as StoredRow | undefined;
}

/** The traveler `id` this request read ahead with its refresh token, handed out once. */
export function takeUser(id: string): AccountUser | undefined {
  return take(`User ${id}`) as AccountUser | undefined;
}

function take(key: string): StoredRow | AccountUser | undefined {
  const ctx = Provider.ctx;
  const kept = ctx && readAhead.get(ctx);
  const value = kept?.get(key);
  if (value) kept?.delete(key);
  return value;
}
