/**
 * The service's own first-party client: the Connected apps page signs the traveler in through the same
 * hosted pages as any client, as this client. It never gets a consent screen and never appears among
 * the traveler's connected apps.
 */
export const ACCOUNT_CLIENT_ID = 'travel-partner-account';

/** Where the traveler signs out of the hosted pages (the Connected apps page and the consent page). */
export const SIGN_OUT_PATH = '/account/sign-out';

/** What the CSRF tokens of the session's own forms (sign out, connected apps) are issued for. */
export const SESSION_CSRF_PURPOSE = 'account';
