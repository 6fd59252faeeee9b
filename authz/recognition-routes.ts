/**
 * The recognition surface (decisions §11, Identity surface rule 1): the frame an airline's page embeds
 * through the recognition component, its script and stylesheet, its sign-out, and the component itself.
 *
 * `GET /recognition/frame?client_id&redirect_uri[&scope&transparency&airline_name&chip_position]`:
 * - an unknown client (any client but an airline's, decisions §13), or a redirect_uri that is not exactly one of its registered ones: a 400 page saying
 *   what is wrong, which no page may frame;
 * - otherwise a page only the client's registered redirect origins may frame (`frame-ancestors`), never
 *   cached, that is `recognized` when this browser holds our first-party session AND the traveler has a
 *   standing consent for this client (a grant, whatever scopes it still holds): a fresh single-use token
 *   is minted on every load; `anonymous` otherwise. Which of the two conditions failed is not told: the
 *   airline must not learn whether someone who is not connected to it has an account with us.
 * `POST /recognition/sign-out` ends the first-party session, as the Connected apps page's sign-out does
 * (a CSRF token bound to the session), and goes back to the frame, now anonymous. Only the frame's own
 * form may: a post another site's page sends (the airline's page around the frame included) is refused
 * with the hosted error page (403).
 */
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import type Provider from 'oidc-provider';
import type { RecognitionTokens } from '../core/identity/recognition-tokens.js';
import { findUserById } from '../core/users/store.js';
import { endBrowserSession, signedInBrowser, type SignedInBrowser } from './browser-sessions.js';
import { clientKindOf } from './client-kinds.js';
import { isUrlClientId } from './client-metadata-url.js';
import { refuseCrossSiteForms } from './cross-site.js';
import type { CsrfTokens } from './pages/csrf.js';
import type { GrantStandingConsents } from './standing-consents.js';
import { html, page } from './pages/html.js';
import { hostedPageHeaders } from './pages/page-headers.js';
import { FRAME_SCRIPT, FRAME_SCRIPT_PATH, FRAME_STYLESHEET, FRAME_STYLESHEET_PATH, recognitionFramePage, type Transparency } from './pages/recognition-frame.js';
import { formBody } from './pages/request-body.js';

export const RECOGNITION_FRAME_PATH = '/recognition/frame';
export const RECOGNITION_SIGN_OUT_PATH = '/recognition/sign-out';
export const RECOGNITION_COMPONENT_PATH = '/components/recognition.js';

/** The sign-out form's CSRF tokens: bound to the session like the account page's, for this form only. */
const SIGN_OUT_CSRF_PURPOSE = 'recognition-sign-out';
const AIRLINE_NAME_LENGTH = 100;
const SCOPE_LENGTH = 1000;
const CHIP_POSITIONS = new Set(['bottom-left', 'bottom-right', 'left', 'right']);

/** Short enough that a fix reaches airline pages within minutes (as the card-capture component's). */
const SCRIPT_CACHE = 'public, max-age=300';
const JAVASCRIPT = 'application/javascript; charset=utf-8';

export interface RecognitionDeps {
  provider: Provider;
  db: Knex;
  /**
   * The traveler's standing consent for the client and the scopes it holds now (authz/standing-consents.ts):
   * undefined when there is none; the chip names what those scopes disclose.
   */
  consents: Pick<GrantStandingConsents, 'grantedScopes'>;
  tokens: RecognitionTokens;
  csrf: CsrfTokens;
  /** Sandbox mode: the component refuses `isProd` against this server. */
  sandbox: boolean;
  /** The exact origins whose pages may post the sign-out: ours (the frame's). */
  allowedOrigins: readonly string[];
}

interface FrameRequest {
  clientId: string;
  redirectUri: string;
  /** The distinct origins of the client's registered redirects: who may frame the page. */
  ancestors: string[];
  transparency: Transparency;
  airlineName: string;
  /** The frame's own URL, rebuilt from what was checked (where the sign-out goes back to). */
  query: URLSearchParams;
}

export function recognitionRoutes(deps: RecognitionDeps): Router {
  const router = new Router();
  const component = componentSource(deps.sandbox);

  router.get(RECOGNITION_FRAME_PATH, async (ctx) => {
    const request = await frameRequest(deps.provider, ctx.query);
    if (typeof request === 'string') return refuse(ctx, request);
    const browser = await signedInBrowser(deps.provider, ctx);
    // frame-ancestors binds only once the answer reaches a browser: a page that merely points a traveler's
    // browser at this URL (a top-level visit, an image) is told which kind of load it is, and gets no token.
    const framed = ['', 'iframe'].includes(ctx.get('sec-fetch-dest'));
    const scopes = framed && browser ? await deps.consents.grantedScopes(browser.userId, request.clientId) : undefined;
    const userId = scopes ? browser?.userId : undefined;
    ctx.set({
      'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors ${request.ancestors.join(' ')}; base-uri 'none'`,
      'X-Content-Type-Options': 'nosniff',
      // As the hosted pages': the sign-out form posts its real Origin; the airline's page learns nothing.
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    // The API's headers forbid framing; this page is made to be framed, by the origins above only.
    ctx.remove('X-Frame-Options');
    ctx.type = 'html';
    const view = { targetOrigin: new URL(request.redirectUri).origin, transparency: request.transparency, airlineName: request.airlineName };
    if (!browser || !userId || !scopes) {
      ctx.body = recognitionFramePage({ ...view, recognition: { state: 'anonymous' } });
      return;
    }
    const [{ token }, user] = await Promise.all([deps.tokens.mint(userId, request.clientId), findUserById(deps.db, userId)]);
    ctx.body = recognitionFramePage({
      ...view,
      recognition: {
        state: 'recognized',
        token,
        displayName: user?.first_name || (user?.email ?? '').split('@')[0] || 'you',
        scopes,
        signOut: { action: `${RECOGNITION_SIGN_OUT_PATH}?${request.query}`, csrf: signOutToken(deps, browser) },
      },
    });
  });

  router.post(RECOGNITION_SIGN_OUT_PATH, refuseCrossSiteForms(deps.allowedOrigins), formBody(), async (ctx) => {
    const request = await frameRequest(deps.provider, ctx.query);
    if (typeof request === 'string') return refuse(ctx, request);
    const browser = await signedInBrowser(deps.provider, ctx);
    if (browser) {
      const csrf = (ctx.request.body as Record<string, unknown>).csrf;
      if (!deps.csrf.verify(SIGN_OUT_CSRF_PURPOSE, browser.binding, csrf)) {
        return refuse(ctx, 'The sign-out could not be verified (the form is from another page or too old). Reload the page and try again.', 403);
      }
      await endBrowserSession(deps.provider, ctx);
    }
    ctx.status = 303;
    ctx.redirect(`${RECOGNITION_FRAME_PATH}?${request.query}`);
  });

  router.get(FRAME_SCRIPT_PATH, (ctx) => staticAsset(ctx, JAVASCRIPT, FRAME_SCRIPT));
  router.get(FRAME_STYLESHEET_PATH, (ctx) => staticAsset(ctx, 'text/css; charset=utf-8', FRAME_STYLESHEET));
  router.get(RECOGNITION_COMPONENT_PATH, (ctx) => {
    staticAsset(ctx, JAVASCRIPT, component);
    // Loaded by airline pages as a module script (CORS mode): the same file for everyone, no credentials.
    ctx.set({ 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' });
  });
  return router;
}

function signOutToken(deps: RecognitionDeps, browser: SignedInBrowser): string {
  return deps.csrf.issue(SIGN_OUT_CSRF_PURPOSE, browser.binding);
}

/** The checked frame request, or what is wrong with it (for the developer integrating the component). */
async function frameRequest(provider: Provider, query: Context['query']): Promise<FrameRequest | string> {
  const one = (name: string): string | undefined | null => {
    const value = query[name];
    if (Array.isArray(value)) return null;
    return value === undefined || value === '' ? undefined : value;
  };
  const clientId = one('client_id');
  const redirectUri = one('redirect_uri');
  if (!clientId) return 'client_id is missing or given twice: set the component’s clientId to your OAuth client id.';
  if (!redirectUri) return 'redirect_uri is missing or given twice: set the component’s redirectUri to one of your registered redirect URIs.';
  const client = await registeredClient(provider, clientId);
  if (!client) return `No airline client ${clientId} is registered with us: check the component’s clientId (only clients we marked as airlines have a recognition frame).`;
  const registered = client.redirectUris ?? [];
  if (!registered.includes(redirectUri)) {
    return `${redirectUri} is not a redirect URI registered for client ${clientId}: set the component’s redirectUri to one of them exactly.`;
  }
  const transparency = one('transparency') ?? 'full';
  if (transparency !== 'full' && transparency !== 'minimal') return 'transparency must be full or minimal.';
  const chipPosition = one('chip_position');
  if (chipPosition === null || (chipPosition !== undefined && !CHIP_POSITIONS.has(chipPosition))) return 'chip_position must be bottom-left, bottom-right, left or right.';
  const airlineName = one('airline_name');
  if (airlineName === null || (airlineName !== undefined && [...airlineName].length > AIRLINE_NAME_LENGTH)) return `airline_name must be one text of at most ${AIRLINE_NAME_LENGTH} characters.`;
  // The scopes the component's sign-in asks for: the frame does not use them, but keeps them in its own
  // URL (the sign-out comes back to it), so that the page and the frame agree.
  const scope = one('scope');
  if (scope === null || (scope !== undefined && scope.length > SCOPE_LENGTH)) return 'scope must be one space-separated list of scopes.';
  const checked = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri });
  for (const [name, value] of Object.entries({ scope, transparency: one('transparency'), airline_name: airlineName, chip_position: chipPosition })) {
    if (value) checked.set(name, value);
  }
  return {
    clientId,
    redirectUri,
    ancestors: [...new Set(registered.map((uri) => new URL(uri).origin))],
    transparency,
    airlineName: airlineName ?? String(client.clientName ?? 'This airline'),
    query: checked,
  };
}

/**
 * An airline client registered with us, or undefined (decisions §13: only airlines recognize travelers;
 * any other client is unknown here, told apart from no client by nothing). A client whose id is a URL (an
 * agent's metadata document) is not even fetched for a frame anyone can load.
 */
async function registeredClient(provider: Provider, clientId: string) {
  if (isUrlClientId(clientId) || clientId.length > 200) return undefined;
  try {
    const client = await provider.Client.find(clientId);
    return client && clientKindOf(client) === 'airline' ? client : undefined;
  } catch {
    // Stored metadata the library no longer accepts: as good as unknown.
    return undefined;
  }
}

/** A page saying what is wrong; the hosted pages' headers: never framed, never cached. */
function refuse(ctx: Context, problem: string, status = 400): void {
  hostedPageHeaders(ctx);
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = page('The recognition frame cannot open', html`<p class="error" role="alert">${problem}</p>`);
}

function staticAsset(ctx: Context, type: string, body: string): void {
  ctx.set('Cache-Control', SCRIPT_CACHE);
  ctx.type = type;
  ctx.body = body;
}

/**
 * The component's source, told whether this server is a sandbox: a page built with `isProd` must not
 * sign real travelers in against one (the component reports a config error).
 */
function componentSource(sandbox: boolean): string {
  const source = readFileSync(new URL('../components/recognition.js', import.meta.url), 'utf8');
  const marker = 'const SERVER_IS_SANDBOX = false;';
  if (!source.includes(marker)) throw new Error(`components/recognition.js lost its line "${marker}"`);
  return source.replace(marker, `const SERVER_IS_SANDBOX = ${sandbox};`);
}
