/**
 * The hosted purchase confirmation page at `{AUTH_URL}/confirm/{id}` (decisions §10), on the traveler's
 * first-party session (the cookie the sign-in pages set). A traveler who is not signed in is signed in
 * through the authorization endpoint as the account client, and comes back here. Only the traveler the
 * purchase is for sees it and decides it: another traveler gets a 403 page and changes nothing.
 *
 * Confirm and Decline are forms posted with a CSRF token bound to this browser's session and to this one
 * confirmation; after either, the browser is sent back to the page (303), which shows the new state.
 * Posted from another site's page (by Origin or Sec-Fetch-Site), either is refused first, with the hosted
 * error page (403), and decides nothing.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type Provider from 'oidc-provider';
import { DomainError } from '../core/errors.js';
import type { ClientNames } from '../core/purchases/confirmations.js';
import type { ConfirmationDecisions } from '../core/purchases/contracts.js';
import type { UserService } from '../core/users/service.js';
import { accountSignInUrl, SESSION_CSRF_PURPOSE, SIGN_OUT_PATH } from './account-client.js';
import { signedInBrowser, type SignedInBrowser } from './browser-sessions.js';
import { refuseCrossSiteForms } from './cross-site.js';
import type { CsrfTokens } from './pages/csrf.js';
import { confirmationPage, notFoundPage, notYoursPage } from './pages/confirm-page.js';
import { hostedPageHeaders } from './pages/page-headers.js';
import { formBody } from './pages/request-body.js';

export interface ConfirmDeps {
  provider: Provider;
  confirmations: ConfirmationDecisions;
  users: UserService;
  csrf: CsrfTokens;
  authUrl: string;
  /** The exact origins whose pages may post the decision: ours. */
  allowedOrigins: readonly string[];
}

export const CONFIRM_PREFIX = '/confirm';

export function confirmRoutes(deps: ConfirmDeps): Router {
  const router = new Router({ prefix: `${CONFIRM_PREFIX}/:id` });
  const form = formBody();
  router.use(refuseCrossSiteForms(deps.allowedOrigins));

  router.get('/', knownShape, async (ctx) => {
    const browser = await signedInBrowser(deps.provider, ctx);
    if (!browser) {
      ctx.status = 303;
      ctx.redirect(accountSignInUrl(deps.authUrl, pagePath(ctx)));
      return;
    }
    await show(deps, ctx, browser);
  });
  router.post('/confirm', knownShape, form, (ctx) => decide(deps, ctx, 'confirm'));
  router.post('/decline', knownShape, form, (ctx) => decide(deps, ctx, 'decline'));
  return router;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is no confirmation's (a mangled link) is 404 at once, signed in or not: it names nothing. */
async function knownShape(ctx: Context, next: Next): Promise<void> {
  if (UUID.test(String(ctx.params.id))) return next();
  hostedPageHeaders(ctx);
  ctx.status = 404;
  ctx.type = 'html';
  ctx.body = notFoundPage();
}

/** The page of the confirmation for the signed-in traveler, in whatever state it is. */
async function show(deps: ConfirmDeps, ctx: Context, browser: SignedInBrowser): Promise<void> {
  const id = ctx.params.id as string;
  hostedPageHeaders(ctx);
  ctx.type = 'html';
  const view = await viewOrPage(deps, ctx, browser);
  if (!view) return;
  const email = (await deps.users.getUser(browser.userId)).email;
  const { status, body } = confirmationPage({
    view,
    email,
    decision: {
      confirmAction: `${CONFIRM_PREFIX}/${view.id}/confirm`,
      declineAction: `${CONFIRM_PREFIX}/${view.id}/decline`,
      csrfToken: deps.csrf.issue(decisionPurpose(id), browser.binding),
    },
    signOut: { action: SIGN_OUT_PATH, csrfToken: deps.csrf.issue(SESSION_CSRF_PURPOSE, browser.binding) },
  });
  ctx.status = status;
  ctx.body = body;
}

/**
 * The traveler's decision. Whose it is is checked before the form's token, so that another traveler's
 * browser gets the 403 page whatever it sends; a form without this session's token (another site's)
 * changes nothing and lands on the page. A decision the state no longer allows (expired, used, decided
 * otherwise) changes nothing either: the page then says what the confirmation is.
 */
async function decide(deps: ConfirmDeps, ctx: Context, decision: 'confirm' | 'decline'): Promise<void> {
  const id = ctx.params.id as string;
  const browser = await signedInBrowser(deps.provider, ctx);
  if (browser) {
    hostedPageHeaders(ctx);
    ctx.type = 'html';
    const view = await viewOrPage(deps, ctx, browser);
    if (!view) return;
    if (deps.csrf.verify(decisionPurpose(id), browser.binding, (ctx.request.body as Record<string, unknown>).csrf)) {
      try {
        await (decision === 'confirm' ? deps.confirmations.confirm(id, browser.userId) : deps.confirmations.decline(id, browser.userId));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
      }
    }
  }
  ctx.status = 303;
  ctx.redirect(pagePath(ctx));
}

/** The view, or (having answered with the page that says so) undefined for an unknown or another traveler's confirmation. */
async function viewOrPage(deps: ConfirmDeps, ctx: Context, browser: SignedInBrowser) {
  try {
    return await deps.confirmations.view(ctx.params.id as string, browser.userId);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.kind === 'forbidden') {
      ctx.status = 403;
      const email = (await deps.users.getUser(browser.userId)).email;
      ctx.body = notYoursPage({ email, signOut: { action: SIGN_OUT_PATH, csrfToken: deps.csrf.issue(SESSION_CSRF_PURPOSE, browser.binding) } });
      return undefined;
    }
    if (error.kind === 'not_found') {
      ctx.status = 404;
      ctx.body = notFoundPage();
      return undefined;
    }
    throw error;
  }
}

/** The CSRF purpose of one confirmation's forms: a token for one does not decide another. */
function decisionPurpose(id: string): string {
  return `purchase-confirmation:${id.toLowerCase()}`;
}

/** This confirmation's page, as a path the sign-in's return accepts (lowercase segments). */
function pagePath(ctx: Context): string {
  return `${CONFIRM_PREFIX}/${String(ctx.params.id).toLowerCase()}`;
}

/**
 * The name the traveler knows an agent by, from the authorization server's client: its registered
 * client_name, else the host of its client id (a client ID metadata document's URL) or of its redirect
 * URI, else the id itself.
 */
export function oidcClientNames(provider: Provider): ClientNames {
  return {
    async nameOf(clientId) {
      const client = await provider.Client.find(clientId).catch(() => undefined);
      return client?.clientName ?? hostOf(clientId) ?? hostOf(client?.redirectUris?.[0]) ?? clientId;
    },
  };
}

function hostOf(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    return new URL(uri).host || undefined;
  } catch {
    return undefined;
  }
}
