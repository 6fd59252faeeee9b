/**
 * The scope catalog: one list, read by the authorization server, the REST and MCP doors and the docs.
 * Write does not imply read.
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

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** Identity scopes may accompany the ten and never trigger consent. */
export const IDENTITY_SCOPES = ['openid', 'email', 'profile'] as const;
