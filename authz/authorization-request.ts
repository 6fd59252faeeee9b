/**
 * The scope rules that come before the library sees an authorization request (Scopes rules 1 and 8):
 * unknown scope values answer 400 `invalid_scope` (the library would drop them silently); a request
 * naming none of the ten nor `loyalty.read` asks, for a dynamically registered client, for all ten
 * (never `loyalty.read`, which is asked only by name: Scopes rule 9), and for a
 * pre-registered partner client keeps the legacy behaviour: no scope set, no consent screen (it is
 * given `openid`, so that the traveler's grant is not empty); the service's own account client asks
 * for identity scopes only. The code always comes back in the query.
 */
import type { Context, Next } from 'koa';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { InvalidScopeError, readScopeRequest } from '../core/scope-requests.js';
import { clientKindOf } from './client-kinds.js';
import { ClientMetadataRefused } from './client-metadata-documents.js';
import { isUrlClientId } from './client-metadata-url.js';
import { canonicalAuthorizationResources } from './resource-indicators.js';
import { answerOAuthError } from './pages/error-page.js';

/** `resources`: the served resource indicators, in the form tokens name them (resource-indicators.ts). */
export function checkAuthorizationRequest(provider: Provider, resources: readonly string[]) {
  return async function checkScopes(ctx: Context, next: Next): Promise<void> {
    canonicalAuthorizationResources(ctx, resources);
    const clientId = ctx.query.client_id;
    let client;
    try {
      client = typeof clientId === 'string' ? await provider.Client.find(clientId) : undefined;
    } catch (error) {
      const refusal = unusableDocument(String(clientId), error);
      if (refusal) return answerOAuthError(ctx, 400, 'invalid_client', refusal.error_description as string);
      throw error;
    }
    // Without a known client the library answers (invalid_client) and nothing is redirected anywhere.
    if (!client) return next();
    const mode = ctx.query.response_mode;
    if (mode !== undefined && mode !== 'query') {
      return answerOAuthError(ctx, 400, 'invalid_request', 'The code comes back in the redirect’s query: omit response_mode, or send response_mode=query.');
    }
    const scope = ctx.query.scope;
    if (scope !== undefined && typeof scope !== 'string') {
      return answerOAuthError(ctx, 400, 'invalid_request', 'Send `scope` once, as space-separated values.');
    }
    let request;
    try {
      request = readScopeRequest(scope, clientKindOf(client));
    } catch (error) {
      if (error instanceof InvalidScopeError) return answerOAuthError(ctx, 400, 'invalid_scope', error.message);
      throw error;
    }
    const named = new Set((scope ?? '').split(' ').filter(Boolean));
    const wanted = request.legacy ? ['openid', ...request.identity] : [...request.identity, ...request.scopes];
    const same = wanted.length === named.size && wanted.every((value) => named.has(value));
    if (!same) ctx.query = { ...ctx.query, scope: [...new Set(wanted)].join(' ') };
    return next();
  };
}

/**
 * A client_id naming a metadata document that cannot be used: our refusal, or the library's own objection
 * to the metadata read from it, said as ours. Answered here, before the library would fetch it again.
 */
function unusableDocument(clientId: string, error: unknown): errors.OIDCProviderError | undefined {
  if (error instanceof ClientMetadataRefused) return error;
  if (isUrlClientId(clientId) && error instanceof errors.OIDCProviderError && error.status === 400) {
    return new ClientMetadataRefused(String(error.error_description ?? error.message));
  }
  return undefined;
}
