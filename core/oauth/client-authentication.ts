/**
 * What the identity API answers when a client's credentials fail (`invalid_client`): the words are here,
 * in core, so that the verifier (authz/client-credentials.ts) and the reference's examples (rest/) say the
 * same thing.
 */
const HOW = 'send Authorization: Basic base64(client_id:client_secret) with your confidential client’s credentials (client_secret_basic)';

export const CLIENT_AUTH_MESSAGES = {
  missing: `This route authenticates your OAuth client, not a partner key or a traveler: ${HOW}.`,
  bearer: `A bearer token does not open this route: ${HOW}.`,
  malformed: `The Authorization header is not valid Basic credentials: ${HOW}.`,
  /** Unknown client and wrong secret answer alike: the answer does not confirm that a client id exists. */
  failed: `Client authentication failed (unknown client, wrong secret, or an expired registration): ${HOW}.`,
  public: 'This client is public (token_endpoint_auth_method none) and has no secret: the identity API takes a confidential client registered for client_secret_basic only.',
  wrongMethod: (method: string) =>
    `This client is registered for ${method}, not for Basic credentials: the identity API takes a confidential client registered for client_secret_basic only.`,
} as const;
