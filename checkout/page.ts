/**
 * The hosted checkout's page: an HTML shell with no data in it (the client secret is in the URL's
 * fragment, which the browser never sends; the page's script reads it and asks the JSON API for the rest),
 * its script and its stylesheet. Only the session's origin may frame it (`frame-ancestors`); it runs our
 * script only, talks to our origin only, and frames the card vault's hosted fields only.
 */
import type { Context } from 'koa';

export const CHECKOUT_PREFIX = '/checkout';
export const SCRIPT_PATH = `${CHECKOUT_PREFIX}/assets/checkout.js`;
export const STYLESHEET_PATH = `${CHECKOUT_PREFIX}/assets/checkout.css`;
const ICON_PATH = '/assets/icon.svg';

/** `frameAncestor`: the session's origin, or `'none'` for a page that names no session. */
export function checkoutPageHeaders(ctx: Context, frameAncestor: string, vaultOrigin: string | undefined): void {
  ctx.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      `frame-src ${vaultOrigin ?? "'none'"}`,
      "img-src 'self' data:",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${frameAncestor}`,
      // The script builds the page with DOM calls only: no markup from strings, ever.
      "require-trusted-types-for 'script'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  // The API's own headers deny framing outright; frame-ancestors says who may frame this page instead.
  ctx.remove('X-Frame-Options');
}

export function checkoutPage(sessionId: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Checkout · Travel Partner</title>
  <link rel="stylesheet" href="${STYLESHEET_PATH}">
  <link rel="icon" href="${ICON_PATH}" type="image/svg+xml">
  <script type="module" src="${SCRIPT_PATH}"></script>
</head>
<body>
  <header class="bar">
    <h1 class="brand">Travel Partner checkout</h1>
    <p class="who" id="who" hidden></p>
    <button type="button" class="close" id="close" aria-label="Close the checkout">Close</button>
  </header>
  <main id="checkout" data-session-id="${sessionId}">
    <p class="status" role="status" id="loading">Loading your checkout…</p>
    <noscript><p class="error">The checkout needs JavaScript: turn it on and reload the page.</p></noscript>
  </main>
</body>
</html>
`;
}

export function missingPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Checkout not found · Travel Partner</title>
  <link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
  <main>
    <h1>Checkout not found</h1>
    <p>There is no such checkout. Go back to the site you came from and start again.</p>
  </main>
</body>
</html>
`;
}
