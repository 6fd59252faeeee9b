/**
 * The traveler's own pages and their API, on the first-party session of the hosted pages (the session
 * cookie the sign-in pages set): the Connected apps page (forms, no JavaScript) and `/v1/apps` (JSON,
 * decisions §2). Without a session, the page signs the traveler in through the authorization endpoint as
 * the first-party account client, and comes back.
 *
 * CSRF: the page's forms carry a token bound to the session; the JSON API takes only JSON bodies and
 * DELETE, which no other site can send here without a CORS preflight that this service never grants.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { UnauthenticatedError } from '../core/errors.js';
import { parseOrThrow } from '../core/validation.js';
import type { UserService } from '../core/users/service.js';
import { accountSignInUrl, returnPathOf, SESSION_CSRF_PURPOSE, SIGN_OUT_PATH } from './account-client.js';
import { signedInBrowser } from './browser-sessions.js';
import type { ConnectedApps } from './connected-apps.js';
import type { CsrfTokens } from './pages/csrf.js';
import { appsPage, signedOutPage } from './pages/apps-page.js';
import { answerOAuthError } from './pages/error-page.js';
import { hostedPageHeaders } from './pages/page-headers.js';
import { formBody, jsonBody } from './pages/request-body.js';

export interface AccountDeps {
  provider: Provider;
  apps: ConnectedApps;
  users: UserService;
  csrf: CsrfTokens;
  authUrl: string;
}

const ScopesBody = z.strictObject({
  scopes: z.array(z.string()).describe('The scopes to keep on; the app’s other scopes are turned off.'),
});

export function accountRoutes(deps: AccountDeps): Router {
  const router = new Router();
  const form = formBody();
  const json = jsonBody();
  const signedIn = session(deps);

  router.get('/account', (ctx) => ctx.redirect('/account/apps'));
  router.get('/account/signed-in', (ctx) => {
    // What the URL says is not shown: anyone can write a link to this page.
    if (ctx.query.error) return answerOAuthError(ctx, 400, 'sign_in_incomplete', 'The sign-in did not complete. Open the Connected apps page again to start over.');
    ctx.status = 303;
    ctx.redirect(returnPathOf(ctx.query.state));
  });
  router.get('/account/apps', signedIn, async (ctx) => {
    const { accountId, binding } = ctx.state.account as SessionState;
    const [user, apps] = await Promise.all([deps.users.getUser(accountId), deps.apps.list(accountId)]);
    hostedPageHeaders(ctx);
    const notice = ctx.query.done === 'revoked' ? 'The app was disconnected.' : ctx.query.done === 'saved' ? 'Your choices were saved.' : undefined;
    ctx.body = appsPage({ email: user.email, apps, csrfToken: deps.csrf.issue(SESSION_CSRF_PURPOSE, binding), signOutAction: SIGN_OUT_PATH, notice });
  });
  router.post(SIGN_OUT_PATH, form, signedIn, pageCsrf(deps), async (ctx) => {
    await endSession(deps.provider, ctx);
    ctx.status = 303;
    ctx.redirect('/account/signed-out');
  });
  router.get('/account/signed-out', (ctx) => {
    hostedPageHeaders(ctx);
    ctx.body = signedOutPage('/account/apps');
  });
  router.post('/account/apps/:clientId/revoke', form, signedIn, pageCsrf(deps), async (ctx) => {
    const { accountId } = ctx.state.account as SessionState;
    await deps.apps.revoke(accountId, ctx.params.clientId as string);
    ctx.status = 303;
    ctx.redirect('/account/apps?done=revoked');
  });
  router.post('/account/apps/:clientId/scopes', form, signedIn, pageCsrf(deps), async (ctx) => {
    const { accountId } = ctx.state.account as SessionState;
    const raw = (ctx.request.body as Record<string, unknown>).scope;
    const scopes = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
    await deps.apps.setScopes(accountId, ctx.params.clientId as string, scopes);
    ctx.status = 303;
    ctx.redirect('/account/apps?done=saved');
  });

  router.get('/v1/apps', signedIn, async (ctx) => {
    ctx.body = await deps.apps.list((ctx.state.account as SessionState).accountId);
  });
  router.delete('/v1/apps/:clientId', signedIn, async (ctx) => {
    await deps.apps.revoke((ctx.state.account as SessionState).accountId, ctx.params.clientId as string);
    ctx.status = 204;
  });
  router.put('/v1/apps/:clientId/scopes', signedIn, json, async (ctx) => {
    const body = parseOrThrow(ScopesBody, ctx.request.body);
    ctx.body = await deps.apps.setScopes((ctx.state.account as SessionState).accountId, ctx.params.clientId as string, body.scopes);
  });
  return router;
}

interface SessionState {
  accountId: string;
  /** The session cookie's id: what the page's CSRF token is bound to. */
  binding: string;
}

/** The signed-in traveler of this browser; the page signs them in, the API answers 401. */
function session(deps: AccountDeps) {
  return async function requireSession(ctx: Context, next: Next): Promise<void> {
    const browser = await signedInBrowser(deps.provider, ctx);
    if (browser) {
      ctx.state.account = { accountId: browser.userId, binding: browser.binding } satisfies SessionState;
      return next();
    }
    if (ctx.path.startsWith('/v1/')) {
      throw new UnauthenticatedError('Sign in on the Connected apps page (/account/apps) first: this API works on that session.', 'session_required');
    }
    ctx.status = 303;
    ctx.redirect(accountSignInUrl(deps.authUrl));
  };
}

/**
 * Signs the traveler out of this browser: the hosted pages' session is deleted and its cookie cleared.
 * The apps they connected keep their consent and refresh tokens (Disconnect ends those).
 */
async function endSession(provider: Provider, ctx: Context): Promise<void> {
  const session = await provider.Session.get(ctx as never);
  if (session.accountId) await session.destroy();
  ctx.cookies.set(provider.cookieName('session'), null, { path: '/', signed: true, httpOnly: true, sameSite: 'lax', secure: ctx.secure });
}

function pageCsrf(deps: AccountDeps) {
  return async function checkCsrf(ctx: Context, next: Next): Promise<void> {
    const { binding } = ctx.state.account as SessionState;
    if (!deps.csrf.verify(SESSION_CSRF_PURPOSE, binding, (ctx.request.body as Record<string, unknown>).csrf)) {
      ctx.status = 303;
      ctx.redirect('/account/apps');
      return;
    }
    return next();
  };
}
