/**
 * OAuth client authentication for the identity API: `Authorization: Basic` (client_secret_basic, RFC 6749
 * §2.3.1) checked against the authorization server's own client store, so that the secret an airline
 * uses at the token endpoint is the one it uses here. Nothing else opens these routes: no API key, no
 * bearer token, no secret in the body.
 *
 * Failed attempts count per caller address in the same guard as invalid API keys: a client id is no
 * secret, so without the cap a secret could be guessed at leisure.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';
import { InvalidClientError } from '../core/errors.js';
import { isStorableText } from '../core/input-checks.js';
import { CLIENT_AUTH_MESSAGES } from '../core/oauth/client-authentication.js';
import { CLIENT_ID_URL_MAX_LENGTH, isUrlClientId } from './client-metadata-url.js';
import type { FailedAuthGuard } from './failed-auth-guard.js';

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

export class ClientCredentialsVerifier {
  constructor(
    private readonly provider: Provider,
    private readonly failures: Pick<FailedAuthGuard, 'assertAllowed' | 'recordFailure'>,
  ) {}

  /** `authorization` is the request's Authorization header ('' when absent); `address` the caller's. */
  async verify(authorization: string, address: string): Promise<{ clientId: string }> {
    if (authorization === '') throw new InvalidClientError(CLIENT_AUTH_MESSAGES.missing);
    await this.failures.assertAllowed(address);
    const credentials = parseBasic(authorization);
    if (!credentials) {
      await this.failures.recordFailure(address);
      throw new InvalidClientError(/^Bearer\b/i.test(authorization) ? CLIENT_AUTH_MESSAGES.bearer : CLIENT_AUTH_MESSAGES.malformed);
    }
    // A metadata-document client (an https URL) is public: it has no secret to present.
    if (isUrlClientId(credentials.clientId)) throw wrongMethod('none');
    const client = await this.#find(credentials.clientId);
    if (!client) return this.#refuse(address);
    if (client.clientAuthMethod !== 'client_secret_basic') throw wrongMethod(client.clientAuthMethod ?? 'none');
    if (!sameSecret(credentials.secret, client.clientSecret)) return this.#refuse(address);
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
  async #refuse(address: string): Promise<never> {
    await this.failures.recordFailure(address);
    throw new InvalidClientError(CLIENT_AUTH_MESSAGES.failed);
  }
}

function parseBasic(header: string): { clientId: string; secret: string } | undefined {
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
