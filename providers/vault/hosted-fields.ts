/**
 * The vault's hosted card fields: a small page with the card number, expiry and security code inputs,
 * framed by the page at the session's origin (and by no other), so that card numbers go from the
 * traveler's browser to the vault and never through the service's origin. A session may name the pages
 * that frame that page in turn (the partner page around the hosted checkout): browsers check
 * `frame-ancestors` against every ancestor, so they are allowed too; messages still go to the origin only.
 *
 *   GET /elements/card?session_key=...   the page (or a short error page for a bad or expired key)
 *   GET /elements/card.js                its script (card-fields.js): no inline script, so CSP allows 'self' only
 *   GET /elements/card.css               its stylesheet
 *
 * The script talks to the framing page with postMessage, to and from the session's origin only:
 * `VAULT_READY`, `VAULT_CHANGE {complete, empty}`, and on `VAULT_TOKENIZE` it creates the token with the
 * session key and answers `VAULT_TOKEN_CREATED {token_id}` or `VAULT_ERROR {message, fields}`. No
 * message carries the number or the security code.
 */
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Clock } from '../../core/clock.js';
import type { VaultStore } from './store.js';

const SCRIPT = readFileSync(new URL('./card-fields.js', import.meta.url), 'utf8');
const STYLESHEET = readFileSync(new URL('./card-fields.css', import.meta.url), 'utf8');
export const CARD_FIELDS_PATH = '/elements/card';

export function hostedFieldsRoutes(deps: { store: VaultStore; clock: Clock }): Router {
  const router = new Router();

  router.get(CARD_FIELDS_PATH, async (ctx) => {
    const key = typeof ctx.query.session_key === 'string' ? ctx.query.session_key : '';
    const session = key === '' ? undefined : await deps.store.findSession(key);
    if (!session || session.expiresAt <= deps.clock.now()) {
      // An expired session's page may still show in its frame (saying so); an unknown key's shows in none.
      pageHeaders(ctx, session ? session.origin : "'none'");
      ctx.status = session ? 410 : 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = errorPage();
      return;
    }
    pageHeaders(ctx, [session.origin, ...session.frameAncestors].join(' '));
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = fieldsPage(session.origin, key);
  });

  router.get(`${CARD_FIELDS_PATH}.js`, (ctx) => asset(ctx, 'text/javascript; charset=utf-8', SCRIPT));
  router.get(`${CARD_FIELDS_PATH}.css`, (ctx) => asset(ctx, 'text/css; charset=utf-8', STYLESHEET));
  return router;
}

/**
 * Our script and stylesheet only, the API of our own origin only (the token is created there), framed
 * by `frameAncestor` only, and no referrer (the page's URL carries the session key).
 */
function pageHeaders(ctx: Context, frameAncestor: string): void {
  ctx.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "form-action 'none'",
      "base-uri 'none'",
      `frame-ancestors ${frameAncestor}`,
      "require-trusted-types-for 'script'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
}

function asset(ctx: Context, type: string, body: string): void {
  ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache', 'Cross-Origin-Resource-Policy': 'same-origin' });
  ctx.type = type;
  ctx.body = body;
}

function fieldsPage(parentOrigin: string, sessionKey: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Card details</title>
  <link rel="stylesheet" href="${CARD_FIELDS_PATH}.css">
  <script src="${CARD_FIELDS_PATH}.js" defer></script>
</head>
<body>
  <form id="card-form" novalidate data-parent-origin="${escapeHtml(parentOrigin)}" data-session-key="${escapeHtml(sessionKey)}">
    <div class="field">
      <label for="number">Card number</label>
      <input id="number" name="number" type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23" spellcheck="false" placeholder="1234 1234 1234 1234" aria-describedby="number-error">
      <p class="error" id="number-error" aria-live="polite"></p>
    </div>
    <div class="row">
      <div class="field">
        <label for="expiry">Expiry date</label>
        <input id="expiry" name="expiry" type="text" inputmode="numeric" autocomplete="cc-exp" spellcheck="false" placeholder="MM/YY" aria-describedby="expiry-error">
        <p class="error" id="expiry-error" aria-live="polite"></p>
      </div>
      <div class="field">
        <label for="cvc">Security code</label>
        <input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4" spellcheck="false" placeholder="CVC" aria-describedby="cvc-error">
        <p class="error" id="cvc-error" aria-live="polite"></p>
      </div>
    </div>
  </form>
</body>
</html>
`;
}

function errorPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Card details</title>
  <link rel="stylesheet" href="${CARD_FIELDS_PATH}.css">
</head>
<body>
  <p class="error" role="alert">This card form has expired or is not valid. Reload the page to start again.</p>
</body>
</html>
`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
