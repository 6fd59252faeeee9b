/**
 * The service's own first-party client: the Connected apps page signs the traveler in through the same
 * hosted pages as any client, as this client. It never gets a consent screen and never appears among
 * the traveler's connected apps.
 */
export const ACCOUNT_CLIENT_ID = 'travel-partner-account';
