/**
 * OAuth errors that cannot go back to the client (an unknown client, a redirect_uri that does not match,
 * every scope declined): a browser gets a page saying what happened and what to do; anything else gets
 * the specification's OAuth envelope `{error, error_description}` as JSON. The status is the caller's.
 */
import type { Context } from 'koa';
import { html, page } from './html.js';

const NEXT_STEP: Record<string, string> = {
  invalid_scope: 'Go back to the app you came from: it can ask again for fewer or other permissions.',
  invalid_client: 'The app that sent you here is not registered (or its registration expired). Go back to it and try again.',
  invalid_redirect_uri: 'The app that sent you here gave a return address it did not register. Tell the app’s makers.',
  invalid_request: 'The app that sent you here made a request this service cannot read. Go back to it and try again.',
};

export function answerOAuthError(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  if (ctx.accepts('json', 'html') === 'html') {
    ctx.type = 'html';
    ctx.body = page(
      'We could not continue',
      html`<p class="error" role="alert">${description}</p>
    <p>${NEXT_STEP[error] ?? 'Go back to the app you came from and start again.'}</p>
    <p class="hint">Error code: <code>${error}</code></p>`,
    );
    return;
  }
  ctx.body = { error, error_description: description };
}

/** oidc-provider's `renderError`: the status is already set. */
export function renderAuthorizationError(ctx: Context, out: { error: string; error_description?: string }): void {
  answerOAuthError(ctx, ctx.status, out.error, out.error_description ?? 'The authorization request cannot be processed.');
}
