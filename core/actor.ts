/** Who is calling on a traveler's behalf, from a verified bearer token. */
export interface Actor {
  userId: string;
  clientId: string;
  /** The granted scopes; null for a legacy token issued without scopes (authorized by the user's own rights). */
  scopes: ReadonlySet<string> | null;
  tokenId: string | undefined;
  /** Seconds since the epoch. */
  expiresAt: number;
}
