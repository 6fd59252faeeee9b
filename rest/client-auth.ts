/**
 * The OAuth client credentials check of the identity API's routes (`client_basic`): the Authorization
 * header goes to the verifier the composition root hands in (authz/), which answers the client or throws
 * `invalid_client`. An `x-api-key` sent beside it is ignored: the key identifies a partner application,
 * not the client whose travelers these routes are about.
 */
import type { Context, Next } from 'koa';
import type { ClientIdentity } from './route-table.js';

export interface ClientCredentialsCheck {
  /** `authorization` is the header as sent ('' when absent); `address` the caller's, whose network failures are counted by. */
  verify(authorization: string, address: string): Promise<ClientIdentity>;
}

export function requireClientCredentials(clients: ClientCredentialsCheck) {
  return async function checkClientCredentials(ctx: Context, next: Next): Promise<void> {
    ctx.state.client = await clients.verify(ctx.get('authorization'), ctx.ip);
    return next();
  };
}
