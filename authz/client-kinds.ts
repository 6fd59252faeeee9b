/**
 * Which kind of client an OAuth client is (decisions §13), from its stored metadata. One reading, used by
 * the authorization server (which resources a client may ask tokens for), the consent page (what it
 * offers and says), the identity endpoints and the recognition frame (airlines only), and connected apps.
 *
 * - partner: `partner_id` set by the admin command line (registration can never set it);
 * - airline: a partner client the admin marked with `airline` (`client mark-airline`), or the sandbox's
 *   demo airline (its client loads only in sandbox mode);
 * - agent: everything self-registered (dynamic registration, a Client ID Metadata Document);
 * - first_party: the service's own account client (the Connected apps page's sign-in).
 */
import type { ClientKind } from '../core/scope-requests.js';
import { ACCOUNT_CLIENT_ID } from './account-client.js';
import { SANDBOX_DEMO_PROPERTY } from './sandbox-demo-client.js';

/** The client metadata property that marks an airline client; only the admin command line writes it. */
export const AIRLINE_PROPERTY = 'airline';

/** What the kinds are read from: an oidc-provider Client, or a stored client's metadata. */
export interface ClientMetadataView {
  readonly [key: string]: unknown;
}

export function clientKindOf(client: ClientMetadataView): ClientKind {
  const clientId = client['clientId'] ?? client['client_id'];
  if (clientId === ACCOUNT_CLIENT_ID) return 'first_party';
  if (client[SANDBOX_DEMO_PROPERTY] === true) return 'airline';
  if (typeof client['partner_id'] !== 'string') return 'agent';
  return client[AIRLINE_PROPERTY] === true ? 'airline' : 'partner';
}

/** Partner and airline clients are pre-registered by the operator; agents register themselves. */
export function isPartnerKind(kind: ClientKind): boolean {
  return kind === 'partner' || kind === 'airline';
}

/**
 * Whether the traveler sets a spending limit for this client (decisions §10, §13): an agent that may book.
 * A partner's or an airline's client books over the REST API, where no limit would ever be enforced.
 */
export function hasSpendingLimit(kind: ClientKind, scopes: readonly string[]): boolean {
  return kind === 'agent' && scopes.includes('bookings.write');
}
