/**
 * OAuth errors that cannot go back to the client (an unknown client, a redirect_uri that does not match,
 * every scope declined, a sign-in opened in another browser, a failure on our side): a browser gets one
 * of our pages (our stylesheet, the hosted pages' headers) saying in plain words what happened and what
 * to do, with the request id to quote; anything else gets the specification's OAuth envelope
 * `{error, error_description}` as JSON. The status is the caller's.
 */
import type { Context } from 'koa';
import { html, page } from './html.js';
import { hostedPageHeaders } from './page-headers.js';

/**
 * The library's errors in our words: its own descriptions are terse lower-case notes for developers
 * ("authorization request has expired"); the traveler reading the page needs what happened and what to do.
 */
const PLAIN_WORDS: Record<string, string> = {
  invalid_request: 'The app that sent you here made a request we cannot complete. Go back to it and start again.',
  invalid_client: 'The app that sent you here is not registered with us, or its registration expired. Go back to it and try again later.',
  invalid_redirect_uri: 'The app that sent you here gave a return address it did not register with us. Tell the app’s makers.',
  invalid_scope: 'The app asked for permissions we do not have, or ones you declined before. Go back to it: it can ask again for fewer or other permissions.',
  invalid_target: 'The app asked for access to a service we do not offer. Tell the app’s makers.',
  unauthorized_client: 'The app that sent you here may not sign travelers in this way. Tell the app’s makers.',
  unsupported_response_type: 'The app that sent you here asked for something we do not support. Tell the app’s makers.',
  access_denied: 'Access was not allowed. Go back to the app you came from.',
  login_required: 'You need to sign in first. Go back to the app and start again.',
  consent_required: 'The app needs your permission first. Go back to the app and start again.',
  interaction_required: 'You need to sign in or give permission first. Go back to the app and start again.',
  session_not_found: 'This sign-in has expired or was opened in another browser. Go back to the app you came from and start again.',
  temporarily_unavailable: 'Signing in is not possible for a moment. Try again in a few minutes.',
  server_error: 'Something went wrong on our side. Go back to the app you came from and try again in a moment.',
};

export function answerOAuthError(ctx: Context, status: number, error: string, description: string, developerDetail?: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  if (ctx.accepts('json', 'html') === 'html') {
    hostedPageHeaders(ctx);
    ctx.type = 'html';
    const requestId = ctx.state.requestId as string | undefined;
    ctx.body = page(
      'We could not continue',
      html`<p class="error" role="alert">${description}</p>
    <p class="hint">Error code: <code>${error}</code>${developerDetail ? html` (for the app’s developers: ${developerDetail})` : ''}.${
      requestId ? html` If you contact support, quote request id <code>${requestId}</code>.` : ''
    }</p>`,
    );
    return;
  }
  ctx.body = { error, error_description: description };
}

/**
 * oidc-provider's `renderError` (the status is already set), for a browser: the traveler reads our words;
 * what the library found wrong stays beside the error code for the app's developers (a failure on our
 * side is in the log instead). JSON answers keep the library's description, except a server error's
 * (see authorization-routes.ts).
 */
export function renderAuthorizationError(ctx: Context, out: { error: string; error_description?: string }): void {
  const plain = PLAIN_WORDS[out.error] ?? 'We could not complete this request. Go back to the app you came from and start again.';
  answerOAuthError(ctx, ctx.status, out.error, plain, out.error !== 'server_error' ? out.error_description : undefined);
}

