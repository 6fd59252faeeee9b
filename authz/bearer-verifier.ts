/**
 * Verifies bearer access tokens locally: an RS256 JWT signed by our authorization server, checked for
 * signature, issuer, audience and expiry on every request. A verified token is remembered until it
 * expires (verification costs ~100 µs of RS256; a Map lookup costs nothing), so a client's repeated
 * calls pay for it once. The result is the actor a door authorizes: who, through which client, with
 * which scopes.
 */
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Actor } from '../core/actor.js';
import { InvalidTokenError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';

export interface BearerVerifierOptions {
  /** The public key set of the authorization server. */
  jwks: JSONWebKeySet;
  issuer: string;
  /** The audiences this door accepts (the API, the tool endpoint, or both). */
  audiences: string[];
  clock: Clock;
}

const MAX_REMEMBERED = 50_000;
// A token's clock and ours may differ a little; never more than this.
const CLOCK_TOLERANCE_SECONDS = 5;

export class BearerVerifier {
  readonly #keys: ReturnType<typeof createLocalJWKSet>;
  readonly #options: BearerVerifierOptions;
  readonly #verified = new Map<string, Actor>();

  constructor(options: BearerVerifierOptions) {
    this.#options = options;
    this.#keys = createLocalJWKSet(options.jwks);
  }

  async verify(token: string): Promise<Actor> {
    const nowSeconds = Math.floor(this.#options.clock.now().getTime() / 1000);
    const known = this.#verified.get(token);
    if (known) {
      if (known.expiresAt > nowSeconds) return known;
      this.#verified.delete(token);
      throw expired();
    }
    const actor = toActor(await this.#check(token, nowSeconds));
    if (this.#verified.size >= MAX_REMEMBERED) this.#verified.clear();
    this.#verified.set(token, actor);
    return actor;
  }

  async #check(token: string, nowSeconds: number): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.#keys, {
        algorithms: ['RS256'],
        issuer: this.#options.issuer,
        audience: this.#options.audiences,
        currentDate: new Date(nowSeconds * 1000),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw expired();
      throw new InvalidTokenError(
        'The access token is not valid for this API (signature, issuer or audience): obtain a new one through the authorization flow.',
      );
    }
  }
}

function expired(): InvalidTokenError {
  return new InvalidTokenError('The access token has expired: refresh it with your refresh token, or sign the traveler in again.');
}

function toActor(payload: JWTPayload): Actor {
  const userId = payload['custom:user_id'];
  const clientId = payload.client_id;
  if (typeof userId !== 'string' || typeof clientId !== 'string') {
    throw new InvalidTokenError('The access token lacks the traveler or the client it was issued to: obtain a new one.');
  }
  // Legacy (authorized by the traveler's own rights) only when the issuer says so: a token whose scope
  // claim is merely absent (oidc-provider drops an empty one) has no scope at all.
  const legacy = payload.legacy === true;
  const scope = typeof payload.scope === 'string' ? payload.scope : '';
  return {
    userId,
    clientId,
    scopes: legacy ? null : new Set(scope.split(' ').filter(Boolean)),
    isAdmin: legacy && payload.admin === true,
    partnerId: typeof payload.partner_id === 'string' ? payload.partner_id : undefined,
    tokenId: payload.jti,
    expiresAt: payload.exp as number,
  };
}
