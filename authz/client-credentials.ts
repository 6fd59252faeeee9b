/**
 * OAuth client authentication for the identity API: `Authorization: Basic` (client_secret_basic, RFC 6749
 * §2.3.1) checked against the authorization server's own client store, so that the secret an airline
 * uses at the token endpoint is the one it uses here. Nothing else opens these routes: no API key, no
 * bearer token, no secret in the body.
 *
 * Failed attempts count in the same guard as invalid API keys and the token endpoint's wrong secrets, per
 * client id and per network of the caller: a client id is no secret, so without the cap a secret could be
 * guessed at leisure. A secret that verified (here or at the token endpoint) is known to be right, and is
 * served even from a network past its budget (failed-auth-guard.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';
import { InvalidClientError } from '../core/errors.js';
import { isStorableText } from '../core/input-checks.js';
import { CLIENT_AUTH_MESSAGES } from '../core/oauth/client-authentication.js';
import { clientKindOf } from './client-kinds.js';
import { CLIENT_ID_URL_MAX_LENGTH, isUrlClientId } from './client-metadata-url.js';
import type { Credential, FailedAuthGuard } from './failed-auth-guard.js';

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

export class ClientCredentialsVerifier {
  constructor(
    private readonly provider: Provider,
    private readonly failures: Pick<FailedAuthGuard, 'assertAllowed' | 'recordFailure' | 'recordSuccess'>,
  ) {}

  /** `authorization` is the request's Authorization header ('' when absent); `address` the caller's. */
  async verify(authorization: string, address: string): Promise<{ clientId: string }> {
    if (authorization === '') throw new InvalidClientError(CLIENT_AUTH_MESSAGES.missing);
    const credentials = parseBasic(authorization);
    if (!credentials) {
      // Names no client: counts for the network only.
      await this.failures.assertAllowed(address);
      await this.failures.recordFailure(address);
      throw new InvalidClientError(/^Bearer\b/i.test(authorization) ? CLIENT_AUTH_MESSAGES.bearer : CLIENT_AUTH_MESSAGES.malformed);
    }
    // The same credential as at the token endpoint (token-failed-auth.ts): one secret, known right in both places.
    const credential: Credential = { kind: 'oauth_client', id: credentials.clientId, secret: credentials.secret };
    await this.failures.assertAllowed(address, credential);
    // A metadata-document client (an https URL) is an agent's: unknown here, like every client but an airline's.
    if (isUrlClientId(credentials.clientId)) return this.#refuse(address, credential);
    const client = await this.#find(credentials.clientId);
    if (!client) return this.#refuse(address, credential);
    const right = sameSecret(credentials.secret, client.clientSecret);
    // Only airline clients are served here (decisions §13): any other client is unknown, told apart by
    // nothing. Its right secret is no guess, though: it is refused without counting against it (the same
    // secret opens the token endpoint, where it must stay known to be right).
    if (clientKindOf(client) !== 'airline') {
      if (right) throw new InvalidClientError(CLIENT_AUTH_MESSAGES.failed);
      return this.#refuse(address, credential);
    }
    if (client.clientAuthMethod !== 'client_secret_basic') throw wrongMethod(client.clientAuthMethod ?? 'none');
    if (!right) return this.#refuse(address, credential);
    await this.failures.recordSuccess(credential);
    return { clientId: client.clientId };
  }

  async #find(clientId: string) {
    if (clientId.length > CLIENT_ID_URL_MAX_LENGTH || !isStorableText(clientId)) return undefined;
    try {
      return await this.provider.Client.find(clientId);
    } catch {
      // Stored metadata the library no longer accepts (the sandbox's demo client outside sandbox mode, say).
      return undefined;
    }
  }

  /**
   * Unknown client and wrong secret answer alike, so a guessed client id is not confirmed by a wrong secret.
   * (A public or client_secret_post client is told what it is, the specification's 400, before any secret.)
   */
  async #refuse(address: string, credential: Credential): Promise<never> {
    await this.failures.recordFailure(address, credential);
    throw new InvalidClientError(CLIENT_AUTH_MESSAGES.failed);
  }
}

/** `Authorization: Basic` as RFC 6749 §2.3.1 has it; undefined when it is not that, or a part is empty. */
export function parseBasic(header: string): { clientId: string; secret: string } | undefined {
  const match = BASIC.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  // RFC 6749 §2.3.1: both are form-encoded before they are joined (decoded as the token endpoint does).
  const clientId = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return clientId && secret ? { clientId, secret } : undefined;
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
}

/** Constant time over digests of equal length, whatever the lengths of the secrets. */
function sameSecret(presented: string, stored: string | undefined): boolean {
  if (!stored) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(stored));
}

function wrongMethod(method: string): InvalidClientError {
  return new InvalidClientError(method === 'none' ? CLIENT_AUTH_MESSAGES.public : CLIENT_AUTH_MESSAGES.wrongMethod(method), 'validation');
}
