/**
 * The bearer token check of traveler routes: a JWT verified locally (the verifier is handed in by the
 * composition root), then the route's scope. A legacy token (issued without scopes) passes scope checks:
 * it is authorized by the traveler's own rights (Scopes rule 8).
 */
import type { Context, Next } from 'koa';
import type { Actor } from '../core/actor.js';
import { ForbiddenError, InsufficientScopeError, InvalidTokenError } from '../core/errors.js';
import type { PartnerIdentity } from '../core/partners/schemas.js';
import type { Scope } from '../core/scopes.js';

export interface BearerCheck {
  verify(token: string): Promise<Actor>;
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

export function requireBearer(bearer: BearerCheck, scope: Scope | undefined) {
  return async function checkBearer(ctx: Context, next: Next): Promise<void> {
    const match = BEARER.exec(ctx.get('authorization'));
    if (!match) {
      throw new InvalidTokenError("This route acts for a traveler: send the traveler's access token as Authorization: Bearer <token>.");
    }
    const actor = await bearer.verify(match[1] as string);
    // A partner's traveler token is not another partner's: the key and the token must belong together.
    const partner = ctx.state.partner as PartnerIdentity | undefined;
    if (actor.partnerId && partner && actor.partnerId !== partner.partnerId) {
      throw new ForbiddenError(
        "This access token was issued to another partner's OAuth client: use a token of your own client with your API key.",
        'token_partner_mismatch',
      );
    }
    if (scope && actor.scopes && !actor.scopes.has(scope)) throw new InsufficientScopeError(scope);
    ctx.state.actor = actor;
    return next();
  };
}
