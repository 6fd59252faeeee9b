/**
 * What the identity module needs from the authorization server, as ports: core knows nothing of
 * oidc-provider, whose grants hold the traveler's consent.
 */

/** The traveler's standing consent for one client, as the authorization server keeps it. */
export interface StandingConsents {
  /**
   * The scopes the traveler has granted this client and not turned off (the ten and `loyalty.read`),
   * or undefined when there is no standing consent (never connected, or disconnected).
   */
  grantedScopes(userId: string, clientId: string): Promise<string[] | undefined>;
}
