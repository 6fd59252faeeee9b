/**
 * The sign-in attempt a hosted page acts on: oidc-provider's interaction of this browser (its interaction
 * cookie), which must be the one in the URL, with the CSRF token checked on posts. It also works out who
 * the page names as the app: its registered name and, for an app we did not onboard, the host that
 * speaks for it.
 */
import type { Context, Middleware, Next } from 'koa';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { ClientKind } from '../core/scope-requests.js';
import { clientKindOf } from './client-kinds.js';
import { isUrlClientId } from './client-metadata-url.js';
import type { CsrfTokens } from './pages/csrf.js';
import { answerOAuthError } from './pages/error-page.js';
import { hostedPageHeaders } from './pages/page-headers.js';

export interface AttemptDeps {
  provider: Provider;
  csrf: CsrfTokens;
}

export interface AttemptState {
  interaction: Interaction;
  csrfToken: string;
  clientName: string;
  /** For a self-registered client (not a partner we onboarded): where it sends the traveler back to. */
  unverifiedHost: string | undefined;
  /** For a client identified by its metadata document's URL: that URL's host, which speaks for it. */
  documentHost: string | undefined;
  /** Which kind of client asks (decisions §13): only an agent is offered a spending limit, an airline says it recognizes. */
  clientKind: ClientKind;
}

/**
 * Resolves the sign-in attempt of this browser (its interaction cookie) and checks that it is the one in
 * the URL and, on posts, the CSRF token. Sets the page headers, whose form-action allows the client's
 * redirect (browsers apply form-action to the redirects that follow a form post).
 */
export function attempt(deps: AttemptDeps, options: { csrf?: boolean } = {}): Middleware {
  return async function resolveAttempt(ctx: Context, next: Next) {
    let interaction: Interaction;
    try {
      interaction = await deps.provider.interactionDetails(ctx.req, ctx.res);
    } catch {
      return expired(ctx);
    }
    const uid = (ctx as unknown as { params: { uid: string } }).params.uid;
    if (interaction.uid !== uid) return expired(ctx);
    const binding = ctx.cookies.get('_interaction', { signed: true }) ?? '';
    if (options.csrf && !deps.csrf.verify(uid, binding, (ctx.request.body as Record<string, unknown> | undefined)?.csrf)) {
      return answerOAuthError(
        ctx,
        403,
        'invalid_request',
        'This form has expired or was sent from another site. Go back to the app you came from and start again.',
      );
    }
    const client = await deps.provider.Client.find(String(interaction.params.client_id));
    const clientKind = client ? clientKindOf(client) : 'agent';
    hostedPageHeaders(ctx, String(interaction.params.redirect_uri ?? ''));
    const state: AttemptState = {
      interaction,
      csrfToken: deps.csrf.issue(uid, binding),
      clientName: client?.clientName ?? 'an app',
      unverifiedHost: client && clientKind === 'agent' ? hostOf(String(interaction.params.redirect_uri ?? '')) : undefined,
      documentHost: client && isUrlClientId(client.clientId) ? hostOf(client.clientId) : undefined,
      clientKind,
    };
    ctx.state.attempt = state;
    return next();
  };
}

function expired(ctx: Context): void {
  answerOAuthError(
    ctx,
    400,
    'invalid_request',
    'This sign-in has expired or was opened in another browser. Go back to the app you came from and start again.',
  );
}

function hostOf(uri: string): string | undefined {
  try {
    return new URL(uri).host;
  } catch {
    return undefined;
  }
}
