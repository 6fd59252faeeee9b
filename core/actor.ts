/** Who is calling on a traveler's behalf, from a verified bearer token. */
export interface Actor {
  userId: string;
  clientId: string;
  /**
   * The granted scopes; null for a legacy token (claim `legacy: true`, issued to a pre-registered partner
   * client that asked for no scope), which the traveler's own rights authorize (Scopes rule 8).
   */
  scopes: ReadonlySet<string> | null;
  /**
   * An administrator acting with an unscoped (legacy) token. A scoped token never carries admin rights,
   * even an administrator's: administrative operations are outside the scope catalog (Scopes rule 7).
   */
  isAdmin: boolean;
  /** The partner whose OAuth client the token was issued to; undefined for a self-registered client. */
  partnerId: string | undefined;
  tokenId: string | undefined;
  /** Seconds since the epoch. */
  expiresAt: number;
}
