/**
 * The recognition frame's page (decisions §11): the small chip an airline's page shows through the
 * recognition component, on our origin, so that the airline never reads who the traveler is. What the
 * frame's script (`/recognition/frame.js`) posts to the airline's page comes from data attributes of the
 * body: the state, the token (recognized only) and the one origin it may post to. Data, not a URL: a
 * token in a URL would end up in logs and histories.
 *
 * Its own stylesheet (the hosted pages' one lays out a whole page): a chip fills the frame.
 */
import { escapeHtml, html, ICON_PATH, type Html } from './html.js';

export const FRAME_SCRIPT_PATH = '/recognition/frame.js';
export const FRAME_STYLESHEET_PATH = '/recognition/frame.css';

export type Transparency = 'full' | 'minimal';

const CONNECTED_APPS_PATH = '/account/apps';

export interface FrameView {
  /** The origin of the registered redirect the component runs on: the only target of postMessage. */
  targetOrigin: string;
  transparency: Transparency;
  /** How the airline calls itself in the chip's explanation. */
  airlineName: string;
  recognition:
    | {
        state: 'recognized';
        token: string;
        displayName: string;
        /** The scopes the traveler grants this airline now: the chip names what each discloses. */
        scopes: readonly string[];
        signOut: { action: string; csrf: string };
      }
    | { state: 'anonymous' };
}

export function recognitionFramePage(view: FrameView): string {
  const { recognition } = view;
  const token = recognition.state === 'recognized' ? recognition.token : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Travel Partner</title>
  <link rel="stylesheet" href="${FRAME_STYLESHEET_PATH}">
  <link rel="icon" href="${ICON_PATH}" type="image/svg+xml">
  <script defer src="${FRAME_SCRIPT_PATH}"></script>
</head>
<body id="recognition" class="${view.transparency}" data-state="${recognition.state}" data-target-origin="${escapeHtml(view.targetOrigin)}" data-token="${escapeHtml(token)}">
  ${chip(view).text}
</body>
</html>
`;
}

function chip(view: FrameView): Html {
  const { recognition } = view;
  if (recognition.state === 'anonymous') {
    return html`<button type="button" id="sign-in" class="primary">Sign in with Travel Partner</button>`;
  }
  const signOut = html`<form method="post" action="${recognition.signOut.action}">
    <input type="hidden" name="csrf" value="${recognition.signOut.csrf}">
    <button type="submit" class="link">${view.transparency === 'full' ? 'Not you? Sign out' : 'Sign out'}</button>
  </form>`;
  if (view.transparency === 'minimal') {
    return html`<div class="row"><span class="badge" title="${`Recognized by Travel Partner as ${recognition.displayName}`}">✓ Travel Partner</span>${signOut}</div>`;
  }
  return html`<div class="row"><p class="who">Recognized by Travel Partner as <strong>${recognition.displayName}</strong> ·</p>${signOut}</div>
  ${disclosure(view.airlineName, recognition.scopes)}`;
}

/**
 * What the airline gets about the traveler, in the words of the claim groups `POST /v1/identity/resolve`
 * answers per granted scope (core/identity/service.ts), in its order: the chip must be exactly true.
 */
const DISCLOSED_BY_SCOPE: readonly (readonly [scope: string, words: string])[] = [
  ['profile.read', 'your name, e-mail and phone number'],
  ['preferences.read', 'your travel preferences (seat, bags, meals, assistance needs) and your language, region and currency'],
  ['loyalty.read', 'the loyalty memberships it linked to you'],
];

function disclosure(airlineName: string, scopes: readonly string[]): Html {
  const granted = new Set(scopes);
  const disclosed = DISCLOSED_BY_SCOPE.filter(([scope]) => granted.has(scope)).map(([, words]) => words);
  // Scopes of the ten (bookings, payments, ...) work through API tokens the airline's backend may hold:
  // then not "only", and the traveler is told where to see them.
  const others = scopes.some((scope) => !DISCLOSED_BY_SCOPE.some(([disclosing]) => disclosing === scope));
  const more = others ? html` It holds other permissions you gave it too: see ${connectedApps()}.` : html``;
  if (disclosed.length > 0) return html`<p class="why">${airlineName} receives from us: ${disclosed.join('; ')}.${more}</p>`;
  if (others) return html`<p class="why">${airlineName} recognizes you, and holds other permissions you gave it: see ${connectedApps()}.</p>`;
  return html`<p class="why">${airlineName} learns only that you are connected to it.</p>`;
}

/** The traveler's own page of what each app may do, opened beside the airline's page (a frame must not navigate it). */
function connectedApps(): Html {
  return html`<a href="${CONNECTED_APPS_PATH}" target="_blank" rel="noopener">Connected apps</a>`;
}

export const FRAME_STYLESHEET = `:root { color-scheme: light dark; --accent: #1f5fbf; }
* { box-sizing: border-box; }
html, body { margin: 0; }
html { background: transparent; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: Canvas; color: CanvasText; padding: 0.5rem 0.75rem; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 10px; overflow-wrap: anywhere; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.4rem; }
p { margin: 0; }
.why { opacity: 0.8; font-size: 0.85em; margin-top: 0.25rem; }
.badge { font-weight: 600; }
a { color: inherit; }
form { display: inline; margin: 0; }
button { font: inherit; cursor: pointer; }
button.primary { width: 100%; padding: 0.5rem 0.75rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: white; }
button.link { padding: 0; border: 0; background: none; color: inherit; text-decoration: underline; }
button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
`;

/**
 * The frame's script: tells the component it booted, the state, and (recognized) the token, each with
 * postMessage to the registered redirect's exact origin, never `*`, and only when framed; the
 * anonymous chip's button asks the component to start the sign-in (the top window must navigate, which
 * a frame should not do on its own). The chip's height is the content's: the frame posts it whenever it
 * changes (SVC_RECOGNITION_SIZE), and the component sizes the iframe to it, so nothing is clipped.
 */
export const FRAME_SCRIPT = `(() => {
  'use strict';
  const body = document.getElementById('recognition');
  const origin = body.dataset.targetOrigin;
  const framed = window.parent !== window;
  const post = (message) => { if (framed && origin) window.parent.postMessage(message, origin); };
  post({ type: 'SVC_RECOGNITION_READY' });
  post({ type: 'SVC_RECOGNITION_STATE', state: body.dataset.state });
  if (body.dataset.state === 'recognized' && body.dataset.token) post({ type: 'SVC_RECOGNITION_TOKEN', token: body.dataset.token });
  const signIn = document.getElementById('sign-in');
  if (signIn) signIn.addEventListener('click', () => post({ type: 'SVC_RECOGNITION_SIGN_IN' }));
  let posted = 0;
  const size = () => {
    const height = Math.ceil(body.getBoundingClientRect().height);
    if (height !== posted) post({ type: 'SVC_RECOGNITION_SIZE', height });
    posted = height;
  };
  if (typeof ResizeObserver === 'function') new ResizeObserver(size).observe(body);
  else size();
})();
`;
