/**
 * The sandbox's demo airline ("Demo Air") as an OAuth client: confidential (client_secret_basic, as every
 * airline calling the identity endpoints is), with a stable client id and one redirect, its own page on
 * http://<auth host>:<demo port>/. A confidential client may not redirect to a loopback address
 * (core/oauth/client-rules.ts); this one may, because it is marked `sandbox_demo`, which registration
 * cannot set and which the authorization server honours only in sandbox mode.
 *
 * Its secret is derived from the newest cookie key with an HMAC: every instance derives the same one,
 * nothing is kept in clear (the adapter seals it like any client secret), and it rotates with the keys.
 * Written at every start, so a changed port or key takes effect at once.
 */
import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/crypto/secret-box.js';
import { oidcAdapterFactory } from './oidc-adapter.js';

export const SANDBOX_DEMO_CLIENT_ID = 'sandbox-demo-airline';
export const SANDBOX_DEMO_CLIENT_NAME = 'Demo Air (sandbox)';
/** Client metadata that marks the demo airline's client. */
export const SANDBOX_DEMO_PROPERTY = 'sandbox_demo';

export interface SandboxDemoClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** True for the demo airline's own client, and only while the server runs in sandbox mode. */
export function isSandboxDemoClient(metadata: Record<string, unknown>, sandbox: boolean): boolean {
  return sandbox && metadata[SANDBOX_DEMO_PROPERTY] === true && metadata['client_id'] === SANDBOX_DEMO_CLIENT_ID;
}

export function sandboxDemoSecret(cookieKey: string): string {
  return createHmac('sha256', cookieKey).update('sandbox demo airline client secret').digest('base64url');
}

/** Creates or updates the demo airline's client; `demoOrigin` is its page's origin. */
export async function upsertSandboxDemoClient(deps: { db: Knex; clock: Clock; secrets: SecretBox; cookieKey: string; demoOrigin: string }): Promise<SandboxDemoClient> {
  const client: SandboxDemoClient = {
    clientId: SANDBOX_DEMO_CLIENT_ID,
    clientSecret: sandboxDemoSecret(deps.cookieKey),
    redirectUri: `${deps.demoOrigin}/`,
  };
  await oidcAdapterFactory(deps.db, deps.clock, deps.secrets)('Client').upsert(client.clientId, {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(deps.clock.now().getTime() / 1000),
    client_name: SANDBOX_DEMO_CLIENT_NAME,
    [SANDBOX_DEMO_PROPERTY]: true,
    redirect_uris: [client.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    client_secret: client.clientSecret,
    client_secret_expires_at: 0,
  });
  return client;
}
