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
    // The key and the token must belong together (decisions §13): a token of a client of the key's partner.
    // An agent's token (a client of no partner) never opens the REST API, whatever key comes with it: its
    // purchases go through the tool endpoint, the traveler's confirmation and the spending limit.
    const partner = ctx.state.partner as PartnerIdentity | undefined;
    if (partner && actor.partnerId !== partner.partnerId) throw tokenPartnerMismatch(actor);
    if (scope && actor.scopes && !actor.scopes.has(scope)) throw new InsufficientScopeError(scope);
    ctx.state.actor = actor;
    return next();
  };
}

function tokenPartnerMismatch(actor: Actor): ForbiddenError {
  const message = actor.partnerId
    ? "This access token was issued to another partner's OAuth client: use a token of your own client with your API key."
    : 'This access token was not issued to an OAuth client of your partner (it belongs to a self-registered agent, or to no partner): the REST API takes tokens of your own clients only. Agents act through the tool endpoint /v1/mcp.';
  return new ForbiddenError(message, 'token_partner_mismatch');
}
