/**
 * The specification's scope rules (Authentication, Scopes rules 1-9) as plain functions, so that the
 * authorization server, the consent page and the tests share one reading of them:
 *
 * 1. Unknown values are refused (`invalid_scope`); `openid`, `email`, `profile` may accompany the ten
 *    and the identity surface's `loyalty.read`.
 * 2. A token carries requested ∩ granted.
 * 3. Consent is per client and incremental; what is already granted is not asked again.
 * 4. A declined scope is not offered again; the code is issued without it.
 * 5. Declining every requested scope fails the request (`invalid_scope`).
 * 8. No `scope` (or identity scopes only): an agent (a self-registered client) asks for all ten (never
 *    `loyalty.read`); a pre-registered partner or airline client keeps the legacy behaviour (no scope
 *    set, no consent screen).
 * 9. A request naming `loyalty.read` asks for it again even when the traveler declined it or turned it
 *    off (the page says so). Only a request naming it does: a request without `scope` never names it,
 *    so it never re-prompts anything.
 * The service's own first-party client (the Connected apps page signs the traveler in with it) needs
 * none of these: it gets the identity scopes only, whatever it names, and never a consent screen.
 */
import { DomainError } from './errors.js';
import { CONSENT_SCOPE_NAMES, IDENTITY_SCOPES, isConsentScope, REASKABLE_SCOPES, SCOPE_NAMES, type ConsentScope } from './scopes.js';

export class InvalidScopeError extends DomainError {
  constructor(message: string) {
    super('validation', 'invalid_scope', message);
  }
}

/**
 * The kinds of OAuth clients (decisions §13): a partner's client (admin command line), an airline client
 * (a partner client the admin marked for the identity surface), an agent (self-registered: dynamic
 * registration or a metadata document, belonging to no partner), and the service's own account client.
 */
export type ClientKind = 'agent' | 'partner' | 'airline' | 'first_party';

export type ScopeRequest =
  | { legacy: true; identity: string[] }
  | { legacy: false; identity: string[]; scopes: ConsentScope[] };

const IDENTITY = new Set<string>(IDENTITY_SCOPES);

/** Reads the `scope` parameter of an authorization request (rules 1 and 8). */
export function readScopeRequest(scope: string | undefined, client: ClientKind): ScopeRequest {
  const values = [...new Set((scope ?? '').split(' ').filter(Boolean))];
  const unknown = values.filter((value) => !IDENTITY.has(value) && !isConsentScope(value));
  if (unknown.length > 0) {
    throw new InvalidScopeError(`Unknown scope ${unknown.map((value) => `"${value}"`).join(', ')}: the scopes are ${CONSENT_SCOPE_NAMES.join(', ')}.`);
  }
  const identity = values.filter((value) => IDENTITY.has(value));
  if (client === 'first_party') return { legacy: false, identity: identity.length > 0 ? identity : ['openid'], scopes: [] };
  const scopes = values.filter(isConsentScope);
  if (scopes.length > 0) return { legacy: false, identity, scopes };
  return client === 'agent' ? { legacy: false, identity, scopes: [...SCOPE_NAMES] } : { legacy: true, identity };
}

/** Declined scopes that this request asks again because it names them (rule 9). */
export function scopesToReask(requested: readonly ConsentScope[], declined: ReadonlySet<string>): ConsentScope[] {
  return requested.filter((scope) => declined.has(scope) && REASKABLE_SCOPES.has(scope));
}

/**
 * What the consent screen offers: requested, not yet granted, and not declined before (rules 3, 4),
 * unless the request names a re-askable scope (rule 9).
 */
export function scopesToOffer<S extends ConsentScope>(requested: readonly S[], granted: ReadonlySet<string>, declined: ReadonlySet<string>): S[] {
  return requested.filter((scope) => !granted.has(scope) && (!declined.has(scope) || REASKABLE_SCOPES.has(scope)));
}

/** What the token carries (rule 2); an empty result means every requested scope was declined (rule 5). */
export function scopesForToken<S extends ConsentScope>(requested: readonly S[], granted: ReadonlySet<string>): S[] {
  const result = requested.filter((scope) => granted.has(scope));
  if (result.length === 0) {
    throw new InvalidScopeError('Every requested permission was declined: there is nothing to authorize.');
  }
  return result;
}
