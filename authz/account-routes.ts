/**
 * The traveler's own pages and their API, on the first-party session of the hosted pages (the session
 * cookie the sign-in pages set): the Connected apps page (forms, no JavaScript) and `/v1/apps` (JSON,
 * decisions §2). Without a session, the page signs the traveler in through the authorization endpoint as
 * the first-party account client, and comes back.
 *
 * An agent that may book (bookings.write) shows its spending limit (decisions §10, §13) in a form of its own:
 * the traveler changes it, or removes it (no limit: every purchase still needs their confirmation).
 *
 * CSRF: the page's forms carry a token bound to the session; the JSON API's changes carry the session's
 * API token in `x-csrf-token` (the one the payment routes take), which GET /v1/apps hands out in its own
 * `x-csrf-token` header. Before either, a change another site's page sends (by Origin or
 * Sec-Fetch-Site) is refused: the forms with the hosted error page, the API with a 403 envelope.
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { ForbiddenError, UnauthenticatedError } from '../core/errors.js';
import type { PreferencesService } from '../core/preferences/service.js';
import type { SpendingLimitSettings } from '../core/purchases/contracts.js';
import { parseOrThrow } from '../core/validation.js';
import type { UserService } from '../core/users/service.js';
import { accountSignInUrl, returnPathOf, SESSION_CSRF_PURPOSE, SIGN_OUT_PATH } from './account-client.js';
import { hasSpendingLimit } from './client-kinds.js';
import { apiCsrfToken, apiCsrfValid, endBrowserSession, signedInBrowser } from './browser-sessions.js';
import type { ConnectedApp, ConnectedApps } from './connected-apps.js';
import { refuseCrossSiteApi, refuseCrossSiteForms } from './cross-site.js';
import type { CsrfTokens } from './pages/csrf.js';
import { appsPage, signedOutPage, type AppSpendingLimit } from './pages/apps-page.js';
import { answerOAuthError } from './pages/error-page.js';
import { hostedPageHeaders } from './pages/page-headers.js';
import { formBody, jsonBody } from './pages/request-body.js';
import { fieldsOfLimit, limitFieldsOf, parseLimitFields, saveOrProblems, type LimitFields, type LimitProblem } from './spending-limit-form.js';

export interface AccountDeps {
  provider: Provider;
  apps: ConnectedApps;
  users: UserService;
  csrf: CsrfTokens;
  authUrl: string;
  spendingLimits: SpendingLimitSettings;
  /** The traveler's preferred currency is a new limit's default currency. */
  preferences: Pick<PreferencesService, 'locale'>;
  /** The exact origins whose pages may post the forms and change things over the API: ours. */
  allowedOrigins: readonly string[];
}

const NOTICES: Record<string, string> = {
  revoked: 'The app was disconnected.',
  saved: 'Your choices were saved.',
  'limit-saved': 'The spending limit was saved.',
  'limit-removed': 'The spending limit was removed: every purchase still needs your confirmation.',
};

const ScopesBody = z.strictObject({
  scopes: z
    .array(z.string())
    .describe('The scopes to keep on, among those the app asked for (the ten and `loyalty.read`); the app’s other scopes are turned off.'),
});

export function accountRoutes(deps: AccountDeps): Router {
  const router = new Router();
  const form = formBody();
  const json = jsonBody();
  const signedIn = session(deps);
  const csrfHeader = apiCsrf(deps);
  // First of all, for every route below: no change from another site's page.
  router.use('/account', refuseCrossSiteForms(deps.allowedOrigins));
  router.use('/v1/apps', refuseCrossSiteApi(deps.allowedOrigins));

  router.get('/account', (ctx) => ctx.redirect('/account/apps'));
  router.get('/account/signed-in', (ctx) => {
    // What the URL says is not shown: anyone can write a link to this page.
    if (ctx.query.error) return answerOAuthError(ctx, 400, 'sign_in_incomplete', 'The sign-in did not complete. Open the Connected apps page again to start over.');
    ctx.status = 303;
    ctx.redirect(returnPathOf(ctx.query.state));
  });
  router.get('/account/apps', signedIn, async (ctx) => {
    const notice = typeof ctx.query.done === 'string' && Object.hasOwn(NOTICES, ctx.query.done) ? NOTICES[ctx.query.done] : undefined;
    await showApps(deps, ctx, { notice });
  });
  router.post(SIGN_OUT_PATH, form, signedIn, pageCsrf(deps), async (ctx) => {
    await endBrowserSession(deps.provider, ctx);
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

  router.post('/account/apps/:clientId/spending-limit', form, signedIn, pageCsrf(deps), async (ctx) => {
    const { accountId } = ctx.state.account as SessionState;
    const clientId = ctx.params.clientId as string;
    const app = await buyingApp(deps, accountId, clientId);
    if (!app) return showApps(deps, ctx, { status: 404, error: notBuying(clientId) });
    const values = limitFieldsOf(ctx.request.body);
    const parsed = parseLimitFields(values);
    const problems = parsed.ok ? await saveOrProblems(() => deps.spendingLimits.set(accountId, clientId, parsed.limit)) : parsed.problems;
    if (problems.length > 0) {
      return showApps(deps, ctx, {
        status: 400,
        error: `The spending limit for ${app.client_name} is not valid: correct it below, or clear both amounts for no limit. Nothing was changed.`,
        retry: { clientId, values, problems },
      });
    }
    ctx.status = 303;
    ctx.redirect(`/account/apps?done=${parsed.ok && parsed.limit ? 'limit-saved' : 'limit-removed'}`);
  });
  router.post('/account/apps/:clientId/spending-limit/remove', form, signedIn, pageCsrf(deps), async (ctx) => {
    const { accountId } = ctx.state.account as SessionState;
    const clientId = ctx.params.clientId as string;
    if (!(await buyingApp(deps, accountId, clientId))) return showApps(deps, ctx, { status: 404, error: notBuying(clientId) });
    await deps.spendingLimits.set(accountId, clientId, null);
    ctx.status = 303;
    ctx.redirect('/account/apps?done=limit-removed');
  });

  router.get('/v1/apps', signedIn, async (ctx) => {
    const { accountId, binding } = ctx.state.account as SessionState;
    // The token this browser's changes must carry; like the list, for this browser only.
    ctx.set({ 'x-csrf-token': apiCsrfToken(deps.csrf, { userId: accountId, binding }), 'Cache-Control': 'no-store' });
    ctx.body = await deps.apps.list(accountId);
  });
  router.delete('/v1/apps/:clientId', signedIn, csrfHeader, async (ctx) => {
    await deps.apps.revoke((ctx.state.account as SessionState).accountId, ctx.params.clientId as string);
    ctx.status = 204;
  });
  router.put('/v1/apps/:clientId/scopes', signedIn, csrfHeader, json, async (ctx) => {
    const body = parseOrThrow(ScopesBody, ctx.request.body);
    ctx.body = await deps.apps.setScopes((ctx.state.account as SessionState).accountId, ctx.params.clientId as string, body.scopes);
  });
  return router;
}

/**
 * Renders the Connected apps page for the signed-in traveler; with `retry`, one app's limit form shows
 * what the traveler typed and what is wrong with it.
 */
async function showApps(
  deps: AccountDeps,
  ctx: Context,
  options: { status?: number; notice?: string; error?: string; retry?: { clientId: string; values: LimitFields; problems: LimitProblem[] } },
): Promise<void> {
  const { accountId, binding } = ctx.state.account as SessionState;
  const [user, apps] = await Promise.all([deps.users.getUser(accountId), deps.apps.list(accountId)]);
  const spendingLimits = await spendingLimitsOf(deps, accountId, apps);
  const retried = options.retry && spendingLimits.get(options.retry.clientId);
  if (options.retry && retried) spendingLimits.set(options.retry.clientId, { ...retried, values: options.retry.values, problems: options.retry.problems });
  hostedPageHeaders(ctx);
  ctx.status = options.status ?? 200;
  ctx.body = appsPage({
    email: user.email,
    apps,
    csrfToken: deps.csrf.issue(SESSION_CSRF_PURPOSE, binding),
    signOutAction: SIGN_OUT_PATH,
    notice: options.notice,
    error: options.error,
    spendingLimits,
  });
}

/** The limits of the agents that may book, with what each spent in the last 30 days where it has a 30-day cap. */
async function spendingLimitsOf(deps: AccountDeps, accountId: string, apps: ConnectedApp[]): Promise<Map<string, AppSpendingLimit>> {
  const buying = apps.filter(limited);
  if (buying.length === 0) return new Map();
  const { currency_code: preferred } = await deps.preferences.locale(accountId);
  const entries = await Promise.all(
    buying.map(async (app): Promise<[string, AppSpendingLimit]> => {
      const current = await deps.spendingLimits.get(accountId, app.client_id);
      // What was spent matters beside a 30-day cap only.
      const spentIn30Days = current && current.per30DaysMinor !== null ? await deps.spendingLimits.spentIn30Days(accountId, app.client_id, current.currency) : undefined;
      return [app.client_id, { current, spentIn30Days, values: fieldsOfLimit(current, preferred), problems: [] }];
    }),
  );
  return new Map(entries);
}

/** An agent holding bookings.write (client-kinds.ts: only such an app has a spending limit). */
function limited(app: ConnectedApp): boolean {
  return hasSpendingLimit(app.kind, app.granted);
}

/** The traveler's connected app `clientId` if it has a spending limit to change. */
async function buyingApp(deps: AccountDeps, accountId: string, clientId: string): Promise<ConnectedApp | undefined> {
  return (await deps.apps.list(accountId)).find((app) => app.client_id === clientId && limited(app));
}

function notBuying(clientId: string): string {
  return `No agent ${clientId} may book for you (it is not connected, does not hold bookings.write, or is a partner's app, whose bookings are not made through your confirmation), so it has no spending limit to change. The agents below that may book show theirs.`;
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

/** The API's changes: the session's API token in `x-csrf-token` (GET /v1/apps gives it), as on the payment routes. */
function apiCsrf(deps: AccountDeps) {
  return async function checkCsrfHeader(ctx: Context, next: Next): Promise<void> {
    const { accountId, binding } = ctx.state.account as SessionState;
    if (!apiCsrfValid(deps.csrf, { userId: accountId, binding }, ctx.get('x-csrf-token'))) {
      throw new ForbiddenError(
        'Send the CSRF token of this session in the x-csrf-token header: GET /v1/apps gives it in its x-csrf-token response header (so does GET /v1/payments/tokenization-session).',
        'csrf_token_invalid',
      );
    }
    return next();
  };
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
