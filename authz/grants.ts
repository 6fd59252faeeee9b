/**
 * Consent as stored by the authorization server: one Grant per traveler and client, holding the scopes
 * granted and the scopes declined. The scopes a traveler decides on (the ten and the identity surface's
 * `loyalty.read`) are kept on the OpenID side and on every resource server alike, so that consent is per
 * client (Scopes rule 3), whichever audience a token is for.
 */
import type { Knex } from 'knex';
import type { Grant } from 'oidc-provider';
import type { Clock } from '../core/clock.js';
import { isConsentScope, SCOPE_NAMES, type ConsentScope, type Scope } from '../core/scopes.js';

const TEN = new Set<string>(SCOPE_NAMES);

/** The traveler's grant for this client, if any (newest first, should there ever be two). */
export async function findGrantId(db: Knex, clock: Clock, accountId: string, clientId: string): Promise<string | undefined> {
  const row: { id: string } | undefined = await db('oidc_models')
    .where({ kind: 'Grant', account_id: accountId, client_id: clientId })
    .andWhere((query) => query.whereNull('expires_at').orWhere('expires_at', '>', clock.now()))
    .orderBy('created_at', 'desc')
    .first('id');
  return row?.id;
}

/** Scopes the traveler granted this client and has not turned off (identity scopes aside). */
export function grantedScopes(grant: Grant): Set<ConsentScope> {
  return new Set(grant.getOIDCScope().split(' ').filter(isConsentScope));
}

/** Scopes the traveler declined or turned off for this client. */
export function declinedScopes(grant: Grant): Set<ConsentScope> {
  return new Set(grant.getRejectedOIDCScope().split(' ').filter(isConsentScope));
}

/** Every scope the traveler has decided on for this client, either way. */
export function encounteredScopes(grant: Grant): Set<ConsentScope> {
  return new Set([...grantedScopes(grant), ...declinedScopes(grant)]);
}

/**
 * Scopes of the ten the traveler has decided on for this client, either way: what ends a partner's legacy
 * authorization (Scopes rule 8). `loyalty.read` does not: it opens no route of the API, so an airline
 * asking for it keeps its legacy grant as it was.
 */
export function decidedOnTen(grant: Grant): Set<Scope> {
  return new Set([...encounteredScopes(grant)].filter((scope): scope is Scope => TEN.has(scope)));
}

/** The library's stored shape of declined scopes, which it can add to but not take from. */
interface Rejected {
  openid?: { scope?: string };
  resources?: Record<string, string>;
}

/** Grants `scopes` (restoring any that were declined) on the OpenID side and for every resource. */
export function approve(grant: Grant, scopes: readonly string[], resources: readonly string[]): void {
  if (scopes.length === 0) return;
  grant.addOIDCScope(scopes.join(' '));
  for (const resource of resources) grant.addResourceScope(resource, scopes.join(' '));
  const rejected = (grant as unknown as { rejected?: Rejected }).rejected;
  if (!rejected) return;
  const keep = (value: string | undefined) => (value ?? '').split(' ').filter((scope) => scope && !scopes.includes(scope)).join(' ');
  if (rejected.openid) rejected.openid.scope = keep(rejected.openid.scope);
  for (const resource of Object.keys(rejected.resources ?? {})) {
    (rejected.resources as Record<string, string>)[resource] = keep(rejected.resources?.[resource]);
  }
}

/**
 * Declines `scopes` (turning off any that were granted); a declined scope is not offered again, unless
 * a request names `loyalty.read` (Scopes rule 9).
 */
export function decline(grant: Grant, scopes: readonly string[], resources: readonly string[]): void {
  if (scopes.length === 0) return;
  grant.rejectOIDCScope(scopes.join(' '));
  for (const resource of resources) grant.rejectResourceScope(resource, scopes.join(' '));
}
