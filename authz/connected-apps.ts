/**
 * Connected apps: the clients a traveler has granted something, with their scopes; revoke one, or turn
 * single scopes off and on (Revocation; the Consent and grants table).
 * - Revoke ends the client's refresh tokens and codes and forgets its consent, the traveler's pairwise
 *   id, its outstanding recognition tokens and the spending limit they set for it at once: the next
 *   refresh is 400 `invalid_grant`. Access tokens already issued live out their 15 minutes (they are
 *   verified locally, without a lookup).
 * - A toggle changes the grant; the next refresh issues a token with the new set. Turning every scope
 *   off leaves no consent: that refresh is 400 `invalid_scope`.
 * - The scopes are the ten and the identity surface's `loyalty.read`, each toggleable once the app
 *   asked for it; `loyalty.read` off stops an airline's resolve from disclosing loyalty at once.
 */
import type { Knex } from 'knex';
import type Provider from 'oidc-provider';
import type { Clock } from '../core/clock.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import { isStorableText } from '../core/input-checks.js';
import { CONSENT_SCOPE_NAMES, isConsentScope, type ConsentScope } from '../core/scopes.js';
import type { SpendingLimits } from '../core/purchases/spending-limits.js';
import type { PairwiseIds } from '../core/users/pairwise-ids.js';
import type { RecognitionTokens } from '../core/identity/recognition-tokens.js';
import { ACCOUNT_CLIENT_ID } from './account-client.js';
import { clientKindOf } from './client-kinds.js';
import { ClientMetadataRefused } from './client-metadata-documents.js';
import { approve, decline, declinedScopes, findGrantId, grantedScopes } from './grants.js';

export interface ConnectedApp {
  client_id: string;
  client_name: string;
  /** Scopes the app may use now. */
  granted: ConsentScope[];
  /** Scopes the traveler declined or turned off (the app asked for them). */
  declined: ConsentScope[];
  connected_at: string;
  /**
   * Which kind of app (decisions §13): `agent` (registered itself; its purchases need the traveler's
   * confirmation, and it may have a spending limit), `partner` (a partner's app), `airline` (a partner's
   * app that recognizes the traveler on its sites).
   */
  kind: 'agent' | 'partner' | 'airline';
}

export class ConnectedApps {
  constructor(
    private readonly deps: {
      db: Knex;
      clock: Clock;
      provider: Provider;
      pairwiseIds: PairwiseIds;
      recognitionTokens: Pick<RecognitionTokens, 'forget'>;
      resources: string[];
      spendingLimits: Pick<SpendingLimits, 'remove'>;
    },
  ) {}

  async list(accountId: string): Promise<ConnectedApp[]> {
    const rows: { id: string; client_id: string; created_at: Date }[] = await this.deps
      .db('oidc_models')
      .where({ kind: 'Grant', account_id: accountId })
      .whereNot({ client_id: ACCOUNT_CLIENT_ID })
      .andWhere((query) => query.whereNull('expires_at').orWhere('expires_at', '>', this.deps.clock.now()))
      .orderBy('created_at')
      .select('id', 'client_id', 'created_at');
    const apps: ConnectedApp[] = [];
    for (const row of rows) {
      const [grant, client] = await Promise.all([this.deps.provider.Grant.find(row.id), this.#client(row.client_id)]);
      // A grant whose client registration expired is gone with it.
      if (!grant || client === undefined) continue;
      apps.push({
        client_id: row.client_id,
        client_name: client.name,
        granted: inCatalogOrder(grantedScopes(grant)),
        declined: inCatalogOrder(declinedScopes(grant)),
        connected_at: row.created_at.toISOString(),
        kind: client.kind,
      });
    }
    return apps;
  }

  /**
   * The app's name and kind, or undefined when the client is gone. An app identified by a metadata document that
   * cannot be read just now is still listed, by its document's host, so that it can be disconnected.
   */
  async #client(clientId: string): Promise<{ name: string; kind: ConnectedApp['kind'] } | undefined> {
    try {
      const client = await this.deps.provider.Client.find(clientId);
      if (!client) return undefined;
      const kind = clientKindOf(client);
      // The account client is never listed (its grants are left out above).
      if (kind === 'first_party') return undefined;
      return { name: client.clientName ?? clientId, kind };
    } catch (error) {
      // A metadata document is an agent's.
      if (error instanceof ClientMetadataRefused) return { name: URL.canParse(clientId) ? new URL(clientId).host : clientId, kind: 'agent' };
      throw error;
    }
  }

  async revoke(accountId: string, clientId: string): Promise<void> {
    if (clientId === ACCOUNT_CLIENT_ID || !isStorableText(clientId)) throw notConnected(clientId);
    await this.deps.db.transaction(async (trx) => {
      const grants = trx('oidc_models').select('id').where({ kind: 'Grant', account_id: accountId, client_id: clientId });
      const ended = await trx('oidc_models').whereIn('grant_id', grants).delete();
      const forgotten = await trx('oidc_models').where({ kind: 'Grant', account_id: accountId, client_id: clientId }).delete();
      if (ended + forgotten === 0) throw notConnected(clientId);
      await this.deps.pairwiseIds.forget(accountId, clientId, trx);
      // Tokens the recognition frame minted before the revocation resolve to nobody, like the old guid.
      await this.deps.recognitionTokens.forget(accountId, clientId, trx);
      // A later connection of the same app starts without a limit, as any new connection does.
      await this.deps.spendingLimits.remove(accountId, clientId, trx);
    });
  }

  /** Sets which of the scopes the app asked for are on; the rest are off. Returns the app as it is now. */
  async setScopes(accountId: string, clientId: string, enabled: readonly string[]): Promise<ConnectedApp> {
    const unknown = enabled.filter((scope) => !isConsentScope(scope));
    if (unknown.length > 0) {
      throw new ValidationError([{ field: 'scopes', rule: 'scope', message: `unknown scope ${unknown.join(', ')}: the scopes are ${CONSENT_SCOPE_NAMES.join(', ')}` }]);
    }
    if (!isStorableText(clientId)) throw notConnected(clientId);
    const grantId = await findGrantId(this.deps.db, this.deps.clock, accountId, clientId);
    const grant = grantId ? await this.deps.provider.Grant.find(grantId) : undefined;
    if (!grant || clientId === ACCOUNT_CLIENT_ID) throw notConnected(clientId);
    const asked = [...grantedScopes(grant), ...declinedScopes(grant)];
    const notAsked = enabled.filter((scope) => !asked.includes(scope as ConsentScope));
    if (notAsked.length > 0) {
      throw new ValidationError([
        { field: 'scopes', rule: 'asked', message: `${notAsked.join(', ')}: this app never asked for it, so it cannot be turned on here` },
      ]);
    }
    approve(grant, asked.filter((scope) => enabled.includes(scope)), this.deps.resources);
    decline(grant, asked.filter((scope) => !enabled.includes(scope)), this.deps.resources);
    await grant.save();
    const app = (await this.list(accountId)).find((item) => item.client_id === clientId);
    if (!app) throw notConnected(clientId);
    return app;
  }
}

/** Also for an id PostgreSQL could not even compare (a NUL from the path): no app has one. */
function notConnected(clientId: string): NotFoundError {
  return new NotFoundError(`No connected app ${clientId}: the list of your connected apps shows their ids.`, 'app_not_found');
}

function inCatalogOrder(scopes: Set<ConsentScope>): ConsentScope[] {
  return CONSENT_SCOPE_NAMES.filter((scope) => scopes.has(scope));
}
