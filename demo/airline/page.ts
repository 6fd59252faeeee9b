/**
 * Demo Air's page: the recognition component, a welcome for a recognized traveler, and a log of what the
 * component reported (states, tokens shortened, errors) and of what the airline's backend answered. The
 * settings ride in data attributes for the page's script (no inline script: the page's CSP has none).
 */

export interface DemoPageOptions {
  componentUrl: string;
  clientId: string;
  redirectUri: string;
  scope: string[];
}

export function demoPage(options: DemoPageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Demo Air</title>
  <link rel="stylesheet" href="/demo.css">
  <script type="module" src="${escape(options.componentUrl)}"></script>
  <script type="module" src="/page.js"></script>
</head>
<body id="demo" data-client-id="${escape(options.clientId)}" data-redirect-uri="${escape(options.redirectUri)}" data-scope="${escape(options.scope.join(' '))}">
  <header><strong>Demo Air</strong> <span class="hint">a sandbox airline showing Travel Partner recognition</span></header>
  <main>
    <h1 id="welcome">Welcome to Demo Air</h1>
    <p>Recognition state: <output id="state">none</output></p>
    <section id="claims-section" hidden>
      <h2>What our backend resolved</h2>
      <pre id="claims"></pre>
    </section>
    <p><button type="button" id="replay" disabled>Resolve the last token again (a replay)</button></p>
    <h2>Log</h2>
    <ol id="log"></ol>
    <p class="hint">The chip in the corner is Travel Partner's frame. Sign in there; this page then gets a single-use
      recognition token, which its backend resolves with <code>POST /v1/identity/resolve</code>.
      <a href="/?frame=broken&amp;ready_timeout_ms=1500">A frame that never loads</a> shows <code>frame_timeout</code>.</p>
  </main>
</body>
</html>
`;
}

export const DEMO_STYLESHEET = `:root { color-scheme: light dark; --accent: #b5441a; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: Canvas; color: CanvasText; }
header { padding: 0.75rem 1.5rem; background: var(--accent); color: white; }
main { max-width: 44rem; margin: 2rem auto; padding: 0 1.5rem; }
/* The recognition chip is fixed in the bottom-left corner: the page keeps its text out of the chip's way.
   Wide, a column on the left as wide as the chip (320px and 16px each side); narrow, a band at the
   bottom as tall as the chip (--chip-room, set by page.js), with the text scrolling above it. */
@media (min-width: 62rem) {
  main { margin-left: max(22rem, calc((100% - 44rem) / 2)); }
}
@media (max-width: 61.99rem) {
  body { display: flex; flex-direction: column; height: 100vh; height: 100dvh; }
  header { flex: none; }
  main { flex: 1; overflow: auto; box-sizing: border-box; width: 100%; margin: 0 auto; padding: 1rem 1.5rem; }
  body::after { content: ""; flex: none; height: var(--chip-room, 8rem); }
}
pre { overflow-x: auto; padding: 0.75rem 1rem; border-radius: 6px; background: color-mix(in srgb, CanvasText 7%, transparent); }
.hint { opacity: 0.8; font-size: 0.9rem; }
#log li { font: 0.9rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
button { font: inherit; padding: 0.4rem 0.9rem; border-radius: 6px; border: 1px solid var(--accent); background: transparent; color: inherit; cursor: pointer; }
button:disabled { opacity: 0.5; cursor: default; }
`;

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
