/**
 * Headers of the hosted pages: a strict content security policy (our stylesheet, nothing else; no
 * framing, so no clickjacking of the Allow button), no referrer (URLs carry codes), no caching. Forms
 * post to ourselves, and the redirects after them may lead to the client's redirect URI, which browsers
 * also check against form-action: that origin is allowed too.
 *
 * `libraryScript`: the page is one of the authorization server library's own, a form that submits itself
 * with an inline script (switching traveler); the library adds that script's hash to `script-src`, which
 * must be present for it to do so. Empty, it allows nothing else.
 */
import type { Context } from 'koa';

export function hostedPageHeaders(ctx: Context, redirectUri = '', options: { libraryScript?: boolean } = {}): void {
  let clientOrigin = '';
  try {
    clientOrigin = redirectUri ? new URL(redirectUri).origin : '';
  } catch {
    // Not a URL: the authorization server refused it already; allow nothing more.
  }
  const formAction = ["'self'", clientOrigin].filter(Boolean).join(' ');
  ctx.set({
    'Content-Security-Policy': `default-src 'none'; ${options.libraryScript ? 'script-src; ' : ''}style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    // same-origin, not no-referrer: a browser then sends our forms' real Origin (with no-referrer they post
    // as Origin: null), which the cross-site check reads; no other origin ever sees where the traveler was.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
}
