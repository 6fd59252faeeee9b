/**
 * A traveler's way through sign-in to the consent page, and through consent with the spending limit
 * fields (decisions §10), on the hosted pages over real HTTP.
 */
import { systemClock } from '../../core/clock.js';
import { SpendingLimits } from '../../core/purchases/spending-limits.js';
import { isPage, latestCode, TestBrowser, type Page } from './browser.js';
import { registerPublicClient, startAuthorization, uniqueEmail, type Authorization, type oauth } from './oauth.js';
import type { RunningService } from './service.js';

export const AGENT_REDIRECT = 'http://localhost:53682/callback';

export interface ConsentStep {
  page: Page;
  browser: TestBrowser;
  agent: oauth.Configuration;
  authorization: Authorization;
  email: string;
}

/** An agent (a new one unless given) asks for `scope`; the traveler signs in with the mailed code if asked and reaches the consent page. */
export async function consentPage(
  running: RunningService,
  scope: string,
  options: { email?: string; browser?: TestBrowser; agent?: oauth.Configuration } = {},
): Promise<ConsentStep> {
  const agent = options.agent ?? (await registerPublicClient(running, AGENT_REDIRECT));
  const browser = options.browser ?? new TestBrowser(new URL(running.config.authUrl).origin);
  const email = options.email ?? uniqueEmail();
  const authorization = await startAuthorization(agent, AGENT_REDIRECT, scope);
  let step = await browser.open(authorization.url.href);
  if (isPage(step) && step.html.includes('name="email"')) step = await browser.submit(step, '/email', { email });
  if (isPage(step) && step.html.includes('name="code"')) step = await browser.submit(step, '/code', { code: await latestCode(running.url, email) });
  if (!isPage(step) || !step.html.includes('name="scope"')) throw new Error(`no consent page: ${JSON.stringify(step).slice(0, 500)}`);
  return { page: step, browser, agent, authorization, email };
}

/** Consent to every scope offered, with the limit `fields` (none: the page's defaults, no limit). */
export async function allowWithLimit(step: ConsentStep, scopes: string[], fields: Record<string, string> = {}): Promise<void> {
  const done = await step.browser.submit(step.page, '/consent', { scope: scopes, ...fields });
  if (isPage(done)) throw new Error(`consent did not go back to the agent: ${done.status} ${done.html}`);
}

export async function userIdOf(running: RunningService, email: string): Promise<string> {
  return ((await running.service.db.knex('users').where({ email }).first('id')) as { id: string }).id;
}

export function clientIdOf(agent: oauth.Configuration): string {
  return agent.clientMetadata().client_id;
}

/** The store the purchase gate reads limits from. */
export function spendingLimitsOf(running: RunningService): SpendingLimits {
  return new SpendingLimits({ db: running.service.db.knex, clock: systemClock });
}

/** The value of a text input or a <select> of a page's form (the first one named so; a select's selected option). */
export function inputValue(html: string, name: string): string | undefined {
  const select = new RegExp(`<select [^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  if (select) return /<option value="([^"]*)" selected>/.exec(select[1] ?? '')?.[1];
  return new RegExp(`name="${name}" type="text" value="([^"]*)"`).exec(html)?.[1];
}
