/**
 * The `x-api-key` check of partner routes, as a chain of small steps: who is calling (401), may their key
 * be used here (a publishable key: the checkout's routes only, from its origins; 403), may they call this
 * operation (403), do they have budget left (429). The key verifier and the usage limiter are handed in by
 * the composition root; this door only knows their shapes.
 */
import type { Context, Next } from 'koa';
import { ForbiddenError, RateLimitedError, UnauthenticatedError } from '../core/errors.js';
import { PUBLISHABLE_KEY_OPERATIONS, type PartnerIdentity, type UsageDecision } from '../core/partners/schemas.js';
import { allowOrigin } from './publishable-cors.js';

export interface ApiKeyCheck {
  /**
   * `address` is the caller's (ctx.ip: behind TRUST_PROXY, the one the proxy adds): failed keys are counted
   * per key and per network of the address, and a caller past a budget is refused (429) before any lookup.
   */
  verify(apiKey: string, address: string): Promise<PartnerIdentity>;
}

export interface UsageCheck {
  consume(partner: PartnerIdentity): Promise<UsageDecision>;
}

export interface PartnerAuthDeps {
  apiKeys: ApiKeyCheck;
  usage: UsageCheck;
}

export function requireApiKey(deps: PartnerAuthDeps, operationId: string) {
  return async function checkApiKey(ctx: Context, next: Next): Promise<void> {
    ctx.state.operationId = operationId;
    const apiKey = ctx.get('x-api-key');
    if (apiKey === '') {
      throw new UnauthenticatedError('This route needs your partner API key: send it in the x-api-key header.', 'api_key_missing');
    }
    const partner = await deps.apiKeys.verify(apiKey, ctx.ip);
    ctx.state.partner = partner;
    if (partner.keyKind === 'publishable') ensurePublishableKeyFits(ctx, partner, operationId);
    ensureAllowed(partner, operationId);
    applyBudget(ctx, await deps.usage.consume(partner));
    return next();
  };
}

/** How much of a received Origin a refusal repeats: enough to recognize it, not a page of text. */
const ORIGIN_ECHO_LENGTH = 200;

/**
 * A publishable key sits in a web page for anyone to read (decisions §12): it opens the checkout's routes
 * only, and only to requests whose Origin is one it lists. Origin is what a browser says about the page;
 * this keeps other sites' pages from using the key, not someone's own program, which is why the key
 * reaches nothing but what a checkout page needs. Once it fits, the page may read the answer (CORS).
 */
function ensurePublishableKeyFits(ctx: Context, partner: PartnerIdentity, operationId: string): void {
  if (!PUBLISHABLE_KEY_OPERATIONS.has(operationId)) {
    throw new ForbiddenError(
      `A publishable key reaches only the checkout's routes (${[...PUBLISHABLE_KEY_OPERATIONS].join(', ')}), not ${operationId}: use your secret key from your backend.`,
      'publishable_key_not_allowed',
    );
  }
  const origin = ctx.get('origin');
  const allowed = partner.allowedOrigins ?? [];
  if (!allowed.includes(origin)) {
    const received = origin === '' ? 'The request carries no Origin header (a browser sends one from a page)' : `The request's Origin is ${JSON.stringify(origin.slice(0, ORIGIN_ECHO_LENGTH))}`;
    throw new ForbiddenError(
      `${received}, and this publishable key works only from pages of ${allowed.join(', ')}. ` +
        'Call from one of those pages, or ask the platform team for a publishable key listing your page\'s exact origin (scheme://host[:port]).',
      'origin_not_allowed',
    );
  }
  allowOrigin(ctx, origin);
}

function ensureAllowed(partner: PartnerIdentity, operationId: string): void {
  if (partner.allowedOperations && !partner.allowedOperations.has(operationId)) {
    throw new ForbiddenError(
      `Your partner application is not allowed to call ${operationId}. Ask the platform team to add it to your route allowlist.`,
      'operation_not_allowed',
    );
  }
}

/** draft-ietf-httpapi-ratelimit-headers: the policies, then where the caller stands in the tightest one. */
function applyBudget(ctx: Context, decision: UsageDecision): void {
  ctx.set('RateLimit-Policy', decision.policyHeader);
  ctx.set('RateLimit', `"${decision.policy.name}";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) {
    const window = decision.policy.windowSeconds === 1 ? 'per second' : 'per day';
    throw new RateLimitedError(
      `Rate limit reached: your plan allows ${decision.policy.limit} requests ${window}. Retry after ${decision.resetSeconds} s (see Retry-After).`,
      decision.resetSeconds,
    );
  }
}
