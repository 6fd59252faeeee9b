/**
 * The hosted pages of an authorization request: e-mail, then the one-time code, then consent, one box
 * per scope (a declined `loyalty.read` that the request names again comes back unticked, with a note
 * saying so: Scopes rule 9). oidc-provider sends the browser to `/interaction/<uid>` when it needs the
 * traveler; these handlers do the asking and hand the outcome back to it (`interactionResult`), which
 * redirects on.
 *
 * Every form carries a CSRF token bound to the attempt and to this browser's interaction cookie, and
 * every handler resolves the attempt through that cookie: a form posted from elsewhere, or an attempt
 * pushed into someone else's browser, goes nowhere. A post another site's page sends (by Origin or
 * Sec-Fetch-Site) is refused before all that, with the hosted error page (403).
 */
import Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { Grant, Interaction } from 'oidc-provider';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { PreferencesService } from '../core/preferences/service.js';
import type { SpendingLimit, SpendingLimitSettings } from '../core/purchases/contracts.js';
import { DomainError, RateLimitedError, ValidationError } from '../core/errors.js';
import { InvalidScopeError, scopesForToken, scopesToOffer, scopesToReask } from '../core/scope-requests.js';
import { IDENTITY_SCOPES, isConsentScope, type ConsentScope } from '../core/scopes.js';
import type { SignInCodes } from '../core/sign-in/sign-in-codes.js';
import { findUserById } from '../core/users/store.js';
import type { AbuseLimits, SignInCodeAllowance } from './abuse-limits.js';
import { ACCOUNT_CLIENT_ID, SESSION_CSRF_PURPOSE, SIGN_OUT_PATH } from './account-client.js';
import { REFUSED_SCOPE_REQUESTS } from './authorization-server.js';
import { refuseCrossSiteForms } from './cross-site.js';
import { hasSpendingLimit } from './client-kinds.js';
import { approve, decline, declinedScopes, findGrantId, grantedScopes } from './grants.js';
import type { CsrfTokens } from './pages/csrf.js';
import { answerOAuthError } from './pages/error-page.js';
import { attempt, type AttemptState } from './interaction-attempt.js';
import { formBody } from './pages/request-body.js';
import { codePage, consentPage, emailPage } from './pages/sign-in-pages.js';
import { fieldsOfLimit, limitFieldsOf, parseLimitFields, saveOrProblems, type LimitFields, type LimitProblem } from './spending-limit-form.js';

export interface InteractionDeps {
  provider: Provider;
  limits: AbuseLimits;
  codes: SignInCodes;
  csrf: CsrfTokens;
  db: Knex;
  clock: Clock;
  /** The resource servers whose grants carry the traveler's scopes (consent is per client, not per audience). */
  resources: string[];
  /** Where the spending limit chosen with bookings.write is kept (decisions §10). */
  spendingLimits: Pick<SpendingLimitSettings, 'set'>;
  /** The traveler's preferred currency is the limit's default currency. */
  preferences: Pick<PreferencesService, 'locale'>;
  /** The exact origins whose pages may post the forms: ours. */
  allowedOrigins: readonly string[];
}


const IDENTITY = new Set<string>(IDENTITY_SCOPES);
const Email = z.email().max(255);

export function interactionRoutes(deps: InteractionDeps): Router {
  const router = new Router({ prefix: '/interaction/:uid' });
  const form = formBody();
  const pages = new InteractionPages(deps);

  router.use(refuseCrossSiteForms(deps.allowedOrigins));
  router.get('/', attempt(deps), (ctx) => pages.show(ctx));
  router.post('/email', form, attempt(deps, { csrf: true }), (ctx) => pages.submitEmail(ctx));
  router.post('/code', form, attempt(deps, { csrf: true }), (ctx) => pages.submitCode(ctx));
  router.post('/resend', form, attempt(deps, { csrf: true }), (ctx) => pages.resend(ctx));
  router.post('/consent', form, attempt(deps, { csrf: true }), (ctx) => pages.allow(ctx));
  router.post('/deny', form, attempt(deps, { csrf: true }), (ctx) => pages.deny(ctx));
  return router;
}

const UNIQUE_VIOLATION = '23505';

interface DecisionInputs {
  grant: Grant;
  /** The scopes the request names (the ten and loyalty.read). */
  requested: ConsentScope[];
  /** What the consent page asks: requested, not decided before, or declined but asked again (rule 9). */
  offer: ConsentScope[];
  /** The part of `offer` that the traveler declined before and the request names again (rule 9). */
  reasked: ConsentScope[];
  /** Identity scopes the request names (never asked). */
  identity: string[];
}

/** What the traveler sent when the consent page comes back with a problem: shown again as they left it. */
interface ConsentRetry {
  ticked: string[];
  limit: LimitFields;
  problems: LimitProblem[];
}

class InteractionPages {
  constructor(private readonly deps: InteractionDeps) {}

  async show(ctx: Context): Promise<void> {
    const { interaction } = ctx.state.attempt as AttemptState;
    if (interaction.prompt.name === 'login') return this.#emailForm(ctx);
    return this.#consent(ctx);
  }

  async submitEmail(ctx: Context): Promise<void> {
    const { interaction } = ctx.state.attempt as AttemptState;
    const raw = field(ctx, 'email').trim();
    const email = Email.safeParse(raw);
    if (!email.success) return this.#emailForm(ctx, { status: 400, email: raw, error: 'Enter your e-mail address, like name@example.com.' });
    let allowance: SignInCodeAllowance;
    try {
      allowance = await this.deps.limits.signInCode(email.data, ctx.ip);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      return this.#emailForm(ctx, { status: 429, email: raw, error: error.message });
    }
    try {
      const sent = await this.deps.codes.start(interaction.uid, email.data);
      return this.#codeForm(ctx, sent);
    } catch (error) {
      // No code went out: what the limits counted for it is given back.
      await allowance.refund();
      // Asked again within the minute: the code already sent still works.
      if (error instanceof RateLimitedError) return this.#codeForm(ctx, await this.#pending(ctx), error);
      // The mail could not go out: say so on the form, so the traveler can try again.
      if (error instanceof DomainError) return this.#emailForm(ctx, { status: statusOf(error), email: raw, error: error.message });
      throw error;
    }
  }

  async submitCode(ctx: Context): Promise<void> {
    const { interaction } = ctx.state.attempt as AttemptState;
    try {
      const signedIn = await this.deps.codes.confirm(interaction.uid, field(ctx, 'code'));
      await this.deps.limits.signedIn(signedIn.userId, ctx.ip);
      const returnTo = await this.deps.provider.interactionResult(
        ctx.req,
        ctx.res,
        { login: { accountId: signedIn.userId, amr: ['otp'], remember: false } },
        { mergeWithLastSubmission: false },
      );
      return redirect(ctx, returnTo);
    } catch (error) {
      if (error instanceof DomainError) return this.#codeForm(ctx, await this.#pending(ctx), error);
      throw error;
    }
  }

  async resend(ctx: Context): Promise<void> {
    const { interaction } = ctx.state.attempt as AttemptState;
    let allowance: SignInCodeAllowance | undefined;
    try {
      const pending = await this.deps.codes.pending(interaction.uid);
      if (pending) allowance = await this.deps.limits.signInCode(pending.email, ctx.ip);
      const sent = await this.deps.codes.resend(interaction.uid);
      return this.#codeForm(ctx, sent, undefined, 'We sent you a new code.');
    } catch (error) {
      // No new code went out (asked again within the minute, say): what the limits counted is given back.
      await allowance?.refund();
      if (error instanceof DomainError) return this.#codeForm(ctx, await this.#pending(ctx), error);
      throw error;
    }
  }

  async allow(ctx: Context): Promise<void> {
    const { interaction, clientKind } = ctx.state.attempt as AttemptState;
    if (interaction.prompt.name !== 'consent') return this.show(ctx);
    const ticked = new Set(fields(ctx, 'scope'));
    // The limit is checked and saved before anything is granted: a form with a problem grants nothing.
    const asked = ticked.has('bookings.write') ? await this.#decisionInputs(interaction) : undefined;
    if (asked && hasSpendingLimit(clientKind, asked.offer)) {
      const limit = limitFieldsOf(ctx.request.body);
      const problems = await this.#saveLimit(interaction, limit);
      if (problems.length > 0) return this.#consentForm(ctx, asked, { ticked: [...ticked], limit, problems });
    }
    const { grant, grantId, requested } = await this.#decide(interaction, ({ grant, offer, identity }) => {
      approve(grant, [...identity, ...offer.filter((scope) => ticked.has(scope))], this.deps.resources);
      decline(
        grant,
        offer.filter((scope) => !ticked.has(scope)),
        this.deps.resources,
      );
    });
    // Declines are saved first: they are remembered even when nothing is left to authorize (rules 4, 5).
    // A re-asked loyalty.read left unticked is simply declined again (rule 9).
    if (requested.length > 0) {
      try {
        scopesForToken(requested, grantedScopes(grant));
      } catch (error) {
        if (error instanceof InvalidScopeError) return allDeclined(ctx);
        throw error;
      }
    }
    return this.#finishConsent(ctx, grantId);
  }

  async deny(ctx: Context): Promise<void> {
    const returnTo = await this.deps.provider.interactionResult(ctx.req, ctx.res, {
      error: 'access_denied',
      error_description: 'The traveler did not allow access.',
    });
    return redirect(ctx, returnTo);
  }

  /** Shows the consent page, or completes consent at once when there is nothing to ask (rules 1, 3, 4, 8). */
  async #consent(ctx: Context): Promise<void> {
    const { interaction } = ctx.state.attempt as AttemptState;
    const { reasons } = interaction.prompt;
    if (reasons.includes(REFUSED_SCOPE_REQUESTS.allDeclined)) return allDeclined(ctx);
    if (reasons.includes(REFUSED_SCOPE_REQUESTS.legacyOnScopedGrant)) {
      return answerOAuthError(
        ctx,
        400,
        'invalid_scope',
        'The traveler has already chosen which permissions this app gets: the app must name the scopes it asks for.',
      );
    }
    const asked = await this.#decisionInputs(interaction);
    if (asked.offer.length === 0) {
      const { grantId } = await this.#decide(interaction, ({ grant, identity }) => approve(grant, identity, this.deps.resources));
      return this.#finishConsent(ctx, grantId);
    }
    return this.#consentForm(ctx, asked);
  }

  /** The consent page asking for `offer`; with `retry`, again with the traveler's choices and what is wrong with them (400). */
  async #consentForm(ctx: Context, { offer, reasked }: Pick<DecisionInputs, 'offer' | 'reasked'>, retry?: ConsentRetry): Promise<void> {
    const { interaction, csrfToken, clientName, unverifiedHost, documentHost, clientKind } = ctx.state.attempt as AttemptState;
    const base = `/interaction/${interaction.uid}`;
    const accountId = interaction.session?.accountId as string;
    const traveler = await findUserById(this.deps.db, accountId);
    const limitValues = hasSpendingLimit(clientKind, offer) ? (retry?.limit ?? fieldsOfLimit(undefined, (await this.deps.preferences.locale(accountId)).currency_code)) : undefined;
    ctx.status = retry ? 400 : 200;
    ctx.body = consentPage({
      action: `${base}/consent`,
      denyAction: `${base}/deny`,
      csrfToken,
      clientName,
      scopes: offer,
      reasked,
      ticked: retry?.ticked,
      error: retry ? 'The spending limit is not valid: correct it below, or clear both amounts for no limit. Nothing has been allowed yet.' : undefined,
      spendingLimit: limitValues && { values: limitValues, problems: retry?.problems ?? [] },
      recognizes: clientKind === 'airline',
      unverifiedHost,
      documentHost,
      signedInAs: traveler?.email ?? 'an unknown account',
      switchUrl: switchTravelerUrl(interaction),
      signOut: { action: SIGN_OUT_PATH, csrfToken: this.deps.csrf.issue(SESSION_CSRF_PURPOSE, ctx.cookies.get('_session', { signed: true }) ?? '') },
    });
  }

  /**
   * Saves the limit the traveler typed for this agent (nothing when both amounts are blank: no limit),
   * or returns what is wrong with it.
   */
  async #saveLimit(interaction: Interaction, fields: LimitFields): Promise<LimitProblem[]> {
    const parsed = parseLimitFields(fields);
    if (!parsed.ok) return parsed.problems;
    if (!parsed.limit) return [];
    return saveOrProblems(() => this.deps.spendingLimits.set(interaction.session?.accountId as string, String(interaction.params.client_id), parsed.limit as SpendingLimit));
  }

  async #finishConsent(ctx: Context, grantId: string): Promise<void> {
    const returnTo = await this.deps.provider.interactionResult(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return redirect(ctx, returnTo);
  }

  /**
   * Applies the traveler's decision to their grant for this client and saves it. There is one grant per
   * traveler and client (a unique index): if another request (a second tab) created it meanwhile, the
   * decision is applied again to that one.
   */
  async #decide(interaction: Interaction, apply: (inputs: DecisionInputs) => void): Promise<DecisionInputs & { grantId: string }> {
    for (let attempt = 0; ; attempt++) {
      const inputs = await this.#decisionInputs(interaction);
      apply(inputs);
      try {
        return { ...inputs, grantId: await inputs.grant.save() };
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt > 0) throw error;
      }
    }
  }

  /** The traveler's grant for this client (a new one if none), what the request names, and what to ask. */
  async #decisionInputs(interaction: Interaction): Promise<DecisionInputs> {
    const accountId = interaction.session?.accountId as string;
    const clientId = String(interaction.params.client_id);
    const { Grant } = this.deps.provider;
    const existing = await findGrantId(this.deps.db, this.deps.clock, accountId, clientId);
    const grant = (existing ? await Grant.find(existing) : undefined) ?? new Grant({ accountId, clientId });
    const values = String(interaction.params.scope ?? '').split(' ');
    const requested = values.filter(isConsentScope);
    const identity = values.filter((scope) => IDENTITY.has(scope));
    // The first-party account client needs no permissions and never asks.
    if (clientId === ACCOUNT_CLIENT_ID) return { grant, requested, offer: [], reasked: [], identity };
    const declined = declinedScopes(grant);
    return { grant, requested, offer: scopesToOffer(requested, grantedScopes(grant), declined), reasked: scopesToReask(requested, declined), identity };
  }

  #emailForm(ctx: Context, options: { status?: number; email?: string; error?: string } = {}): void {
    const { interaction, csrfToken, clientName } = ctx.state.attempt as AttemptState;
    ctx.status = options.status ?? 200;
    ctx.body = emailPage({ action: `/interaction/${interaction.uid}/email`, csrfToken, clientName, email: options.email, error: options.error });
  }

  async #pending(ctx: Context) {
    const { interaction } = ctx.state.attempt as AttemptState;
    return this.deps.codes.pending(interaction.uid);
  }

  #codeForm(
    ctx: Context,
    sent: { digits: number; sentTo: string } | undefined,
    error?: DomainError,
    notice?: string,
  ): void {
    if (!sent) return this.#emailForm(ctx, { status: 400, error: 'Enter your e-mail address first.' });
    const { interaction, csrfToken } = ctx.state.attempt as AttemptState;
    const base = `/interaction/${interaction.uid}`;
    ctx.status = error ? statusOf(error) : 200;
    if (error instanceof RateLimitedError) ctx.set('Retry-After', String(error.retryAfterSeconds));
    ctx.body = codePage({
      action: `${base}/code`,
      resendAction: `${base}/resend`,
      csrfToken,
      sentTo: sent.sentTo,
      digits: sent.digits,
      error: error?.message,
      notice,
    });
  }
}

/**
 * "Not you?": the same authorization request, asking for a fresh sign-in. Whoever signs in then replaces
 * the traveler of this browser's session (the library ends the old session first), and the code the app
 * gets is theirs.
 */
function switchTravelerUrl(interaction: Interaction): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(interaction.params)) if (typeof value === 'string' && name !== 'prompt') query.set(name, value);
  query.set('prompt', 'login');
  return `/?${query}`;
}

function allDeclined(ctx: Context): void {
  answerOAuthError(
    ctx,
    400,
    'invalid_scope',
    'Every permission this app asked for has been declined, so there is nothing to allow. You can change your choices on the Connected apps page.',
  );
}

function statusOf(error: DomainError): number {
  if (error instanceof ValidationError) return 400;
  if (error instanceof RateLimitedError) return 429;
  if (error.kind === 'gone') return 410;
  if (error.kind === 'provider_unavailable') return 503;
  return 400;
}

function redirect(ctx: Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}

function field(ctx: Context, name: string): string {
  const value = (ctx.request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function fields(ctx: Context, name: string): string[] {
  const value = (ctx.request.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
