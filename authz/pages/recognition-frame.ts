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

export interface FrameView {
  /** The origin of the registered redirect the component runs on: the only target of postMessage. */
  targetOrigin: string;
  transparency: Transparency;
  /** How the airline calls itself in the chip's explanation. */
  airlineName: string;
  recognition:
    | { state: 'recognized'; token: string; displayName: string; signOut: { action: string; csrf: string } }
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
  <p class="why">${view.airlineName} was told only that you are a returning traveler who allowed it.</p>`;
}

export const FRAME_STYLESHEET = `:root { color-scheme: light dark; --accent: #1f5fbf; }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: Canvas; color: CanvasText; padding: 0.5rem 0.75rem; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 10px; display: flex; flex-direction: column; justify-content: center; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem 0.4rem; }
p { margin: 0; }
.why { opacity: 0.75; font-size: 0.85em; margin-top: 0.25rem; }
.badge { font-weight: 600; }
form { display: inline; margin: 0; }
button { font: inherit; cursor: pointer; }
button.primary { width: 100%; padding: 0.5rem 0.75rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: white; }
button.link { padding: 0; border: 0; background: none; color: inherit; text-decoration: underline; }
button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
`;

/**
 * The frame's script: tells the component it booted, the state, and (recognized) the token, each with
 * postMessage to the registered redirect's exact origin, never `*`, and only when framed; the
 * anonymous chip's button asks the component to start the sign-in (the top window must navigate, which
 * a frame should not do on its own).
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
})();
`;
