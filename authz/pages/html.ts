/**
 * Server-rendered pages that work without JavaScript: a tagged template that escapes every interpolated
 * value unless it is already rendered HTML, and one layout with one small stylesheet.
 */

const RENDERED = Symbol('rendered html');

export interface Html {
  readonly [RENDERED]: true;
  readonly text: string;
}

function rendered(text: string): Html {
  return { [RENDERED]: true, text };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

type Value = string | number | Html | readonly Html[] | undefined | null | false;

function isHtml(value: unknown): value is Html {
  return typeof value === 'object' && value !== null && RENDERED in value;
}

/** Only what this module rendered goes in raw; anything else (a parsed form field that is an object, say) is escaped. */
function render(value: Value): string {
  if (value === undefined || value === null || value === false) return '';
  if (Array.isArray(value)) return value.map((item: unknown) => (isHtml(item) ? item.text : escapeHtml(String(item)))).join('');
  if (isHtml(value)) return value.text;
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  return rendered(strings.reduce((out, string, i) => out + string + (i < values.length ? render(values[i] as Value) : ''), ''));
}

export const STYLESHEET_PATH = '/assets/pages.css';
export const ICON_PATH = '/assets/icon.svg';

/** A small mark for the browser tab (without one, browsers ask for /favicon.ico and get a 404). */
export const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#1f5fbf"/><path d="M7 17l18-7-5 13-3-5z" fill="#fff"/></svg>`;

export function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title} · Travel Partner</title>
  <link rel="stylesheet" href="${STYLESHEET_PATH}">
  <link rel="icon" href="${ICON_PATH}" type="image/svg+xml">
</head>
<body>
  <main>
    <h1>${title}</h1>
    ${body}
  </main>
</body>
</html>
`.text;
}

export const STYLESHEET = `:root { color-scheme: light dark; --accent: #1f5fbf; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: Canvas; color: CanvasText; }
main { max-width: 26rem; margin: 8vh auto; padding: 2rem; border: 1px solid color-mix(in srgb, CanvasText 15%, transparent); border-radius: 12px; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input[type=email], input[type=text], select { width: 100%; padding: 0.6rem; font: inherit; border: 1px solid color-mix(in srgb, CanvasText 35%, transparent); border-radius: 6px; }
input:focus-visible, select:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
fieldset { border: 0; padding: 0; margin: 1rem 0; }
/* A permission leads with what it lets the app do; its identifier follows, small and grey. */
.scope { display: flex; gap: 0.6rem; align-items: flex-start; margin: 0.75rem 0; }
.scope input { margin-top: 0.3rem; flex: none; }
.scope label { margin: 0; font-weight: normal; }
.scope small { display: block; opacity: 0.75; font-size: 0.8rem; }
.scope small.scope-id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
/* The note on a permission asked again after a decline is read before deciding: full contrast, not a hint. */
.scope small.reasked { opacity: 1; font-weight: 600; }
.actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
button { padding: 0.6rem 1.2rem; font: inherit; border-radius: 6px; border: 1px solid var(--accent); cursor: pointer; }
button.primary { background: var(--accent); color: white; }
button.secondary { background: transparent; color: inherit; }
/* Messages keep WCAG AA contrast (4.5:1 or more) on both schemes' backgrounds: the light scheme's red
   and green are too dark for a dark background, so the dark scheme has lighter ones. */
.error { color: #b3261e; font-weight: 600; }
.notice { color: #1e7b34; font-weight: 600; }
input[aria-invalid=true], select[aria-invalid=true] { border: 2px solid #b3261e; }
@media (prefers-color-scheme: dark) {
  .error { color: #ffb4ab; }
  .notice { color: #7ddc8f; }
  input[aria-invalid=true], select[aria-invalid=true] { border-color: #ffb4ab; }
}
table { width: 100%; border-collapse: collapse; }
.app { border-top: 1px solid color-mix(in srgb, CanvasText 15%, transparent); padding: 1rem 0; }
.app h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
.hint { opacity: 0.75; font-size: 0.9rem; }
main.quickstart { max-width: 46rem; }
.quickstart h2 { font-size: 1.1rem; margin: 1.75rem 0 0.5rem; }
.quickstart code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
/* Long URLs and commands stay inside the box: prose breaks anywhere, a code block scrolls within itself. */
.quickstart p, .quickstart li { overflow-wrap: anywhere; }
.quickstart pre { max-width: 100%; overflow-x: auto; padding: 0.75rem 1rem; border-radius: 6px; background: color-mix(in srgb, CanvasText 7%, transparent); }
@media (max-width: 30rem) { main { margin: 0; padding: 1.25rem; border: 0; border-radius: 0; } }
.quickstart pre code { overflow-wrap: normal; }
`;
