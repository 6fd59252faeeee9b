/**
 * The identity module's port onto consent as the authorization server keeps it: a traveler's standing
 * consent for an airline is their Grant for that client, and its scopes are the grant's OpenID scopes as
 * they are now (the Connected apps page's toggles change the grant itself, so a toggle narrows at once).
 */
import type { Knex } from 'knex';
import type Provider from 'oidc-provider';
import type { Clock } from '../core/clock.js';
import type { StandingConsents } from '../core/identity/contracts.js';
import { CONSENT_SCOPE_NAMES } from '../core/scopes.js';
import { findGrantId, grantedScopes } from './grants.js';

export class GrantStandingConsents implements StandingConsents {
  constructor(private readonly deps: { db: Knex; clock: Clock; provider: Provider }) {}

  /**
   * The scopes of a standing consent (connected and not revoked) as they are now, or undefined when there is
   * none: what the identity API discloses and the recognition frame tells the traveler.
   */
  async grantedScopes(userId: string, clientId: string): Promise<string[] | undefined> {
    const grantId = await findGrantId(this.deps.db, this.deps.clock, userId, clientId);
    const grant = grantId ? await this.deps.provider.Grant.find(grantId) : undefined;
    if (!grant) return undefined;
    // The ten and `loyalty.read` (decisions §5), in the catalog's order.
    const granted = grantedScopes(grant);
    return CONSENT_SCOPE_NAMES.filter((scope) => granted.has(scope));
  }
}
