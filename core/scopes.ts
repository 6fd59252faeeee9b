/**
 * The scope catalog: one list, read by the authorization server, the REST and MCP doors and the docs.
 * Write does not imply read.
 *
 * Two kinds of scope a traveler decides on:
 * - the ten (SCOPES): what a token lets a client do through the REST API and the tool endpoint;
 * - the identity surface's (IDENTITY_SURFACE_SCOPES, decisions §5): what an airline's backend may read
 *   about the traveler through `/v1/identity/resolve`, which it calls with its client credentials, not a
 *   token. They are asked on the consent page and toggled on the Connected apps page like the ten, but no
 *   REST route or tool checks them, and they are never part of "all ten" (Scopes rule 8).
 */
export const SCOPES = {
  'profile.read': 'Read your profile',
  'profile.write': 'Update your profile and profile photo',
  'preferences.read': 'Read your travel, locale and security preferences',
  'preferences.write': 'Update your travel, locale and security preferences',
  'passengers.read': 'List and read your saved travelers and their documents',
  'passengers.write': 'Create, update and delete your saved travelers',
  'payments.read': 'List and read your saved payment methods (network and last four digits only)',
  'payments.write': 'Update and remove your saved payment methods',
  'bookings.read': 'List and read your bookings and trip history',
  'bookings.write': 'Search flights, build offers, select seats and create bookings',
} as const;

export type Scope = keyof typeof SCOPES;

/** The ten: the scopes of the REST API and the tool endpoint, and "all ten" of Scopes rule 8. */
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** An airline reads the loyalty programs it linked to the traveler (resolve's `loyalty` group). */
export const LOYALTY_READ = 'loyalty.read';

/** Scopes of the identity surface (decisions §5), with their consent-page descriptions. */
export const IDENTITY_SURFACE_SCOPES = {
  [LOYALTY_READ]: 'Share the loyalty programs this airline linked to your account',
} as const;

export type IdentitySurfaceScope = keyof typeof IDENTITY_SURFACE_SCOPES;

/** Every scope a traveler decides on for a client: the ten, then the identity surface's. */
export type ConsentScope = Scope | IdentitySurfaceScope;

/** What the consent and Connected apps pages say about each scope. */
export const CONSENT_SCOPES: Readonly<Record<ConsentScope, string>> = { ...SCOPES, ...IDENTITY_SURFACE_SCOPES };

/** Every scope a traveler decides on, in the order the pages list them. */
export const CONSENT_SCOPE_NAMES = Object.keys(CONSENT_SCOPES) as ConsentScope[];

/**
 * Scopes that a request naming them asks again even after the traveler declined or turned them off
 * (Scopes rule 9). Every other declined scope is never offered again (rule 4).
 */
export const REASKABLE_SCOPES: ReadonlySet<ConsentScope> = new Set<ConsentScope>([LOYALTY_READ]);

const CONSENT = new Set<string>(CONSENT_SCOPE_NAMES);

export function isConsentScope(value: string): value is ConsentScope {
  return CONSENT.has(value);
}

/** Identity scopes may accompany the ten and never trigger consent. */
export const IDENTITY_SCOPES = ['openid', 'email', 'profile'] as const;
