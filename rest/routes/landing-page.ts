/**
 * The landing page at `/`: a quick start for a newcomer. Where the API key is, a first call, the tool
 * endpoint's URL for an MCP client, the mail sandbox, the reference. Every URL on it is built from the
 * configured BASE_URL, never from the request's Host header, which any caller can set. Plain HTML without
 * script, in the hosted pages' look: their stylesheet is on our own origin, which the page's CSP allows.
 */
import path from 'node:path';

export interface LandingPageOptions {
  baseUrl: string;
  /** The hosted pages' stylesheet (the authorization server serves it). */
  stylesheetPath: string;
  /** Sandbox mode: a demo partner exists and mail goes to the mail sandbox. */
  sandbox: boolean;
  /** Where the demo partner's key is kept (sandbox mode). */
  demoCredentialsFile?: string;
  /** The demo airline's page (sandbox mode): the recognition component end to end. */
  demoAirlineUrl?: string;
  /** The demo travel agency's page (sandbox mode): the checkout button end to end. */
  demoTravelUrl?: string;
}

export function landingPage(options: LandingPageOptions): string {
  const base = escapeHtml(options.baseUrl);
  const credentials = options.sandbox && options.demoCredentialsFile ? shownPath(options.demoCredentialsFile) : undefined;
  const capabilities = `${base}/v1/flights/providers/provider_a/capabilities`;
  const apiKey = credentials
    ? `<p>In sandbox mode the service made a demo partner on its first start and printed its API key once, on stderr. The key is
      also kept in <code>${escapeHtml(credentials)}</code>.</p>`
    : `<p>Your API key comes with your partner onboarding (<code>npm run admin -- key create --partner &lt;partner_id&gt;</code>).</p>`;
  const keyInShell = credentials ? `$(node -p "require('${escapeHtml(requirable(credentials))}').api_key")` : '$API_KEY';
  const mailbox = `${base}/sandbox/mail/messages?to=`;
  const mail = options.sandbox
    ? `<p>In the sandbox no e-mail leaves the service: read the traveler's sign-in code at
      <code>${mailbox}&lt;address&gt;</code>, for example <a href="${mailbox}amelia.hart%40example.com">${mailbox}amelia.hart@example.com</a>.</p>`
    : '';
  const demoAirline = options.sandbox && options.demoAirlineUrl
    ? `<h2>4. Recognize travelers on an airline's site</h2>
    <p>The sandbox's demo airline, <a href="${escapeHtml(options.demoAirlineUrl)}">Demo Air</a>, embeds the recognition component:
      sign in with the chip in its corner, and its backend resolves the traveler's recognition token with
      <code>POST /v1/identity/resolve</code>.</p>`
    : '';
  const demoTravel = options.sandbox && options.demoTravelUrl
    ? `<h2>${demoAirline ? 5 : 4}. Sell flights with the checkout button</h2>
    <p>The sandbox's demo travel agency, <a href="${escapeHtml(options.demoTravelUrl)}">Demo Travel</a>, sells an offer of each provider
      with the checkout button: the traveler books in our hosted checkout over its page, and its backend confirms each sale with
      <code>GET /v1/checkout/sessions/{id}</code> before showing the booking reference.</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Travel Partner API</title>
  <link rel="stylesheet" href="${escapeHtml(options.stylesheetPath)}">
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
</head>
<body>
  <main class="quickstart">
    <h1>Travel Partner API</h1>
    <p>Flights, travelers and bookings for partners: a REST API, an OAuth 2.0 server that signs travelers in, and tools for
      AI agents.</p>

    <h2>1. Your API key</h2>
    ${apiKey}

    <h2>2. Call the API</h2>
    <p>Send the key in the <code>x-api-key</code> header:</p>
    <pre><code>curl -H "x-api-key: ${keyInShell}" \\
  ${capabilities}</code></pre>

    <h2>3. Connect an AI agent</h2>
    <p>Paste the tool endpoint's URL into an MCP client: <code>${base}/v1/mcp</code>. The client registers itself and opens
      the sign-in page, where the traveler signs in with a code sent by e-mail and chooses what the agent may do.</p>
    <pre><code>claude mcp add --transport http travel-partner ${base}/v1/mcp</code></pre>
    ${mail}
    ${demoAirline}
    ${demoTravel}

    <h2>Reference</h2>
    <ul>
      <li><a href="${base}/docs">API reference</a>: every operation, with examples of its requests and answers</li>
      <li><a href="${base}/openapi.json">OpenAPI 3.1 document</a>: for client generators and API tools</li>
      <li><a href="${base}/docs/errors">Errors</a>: every error code, whether to retry or ask the traveler, and what to do next</li>
    </ul>
  </main>
</body>
</html>
`;
}

/** Relative to the directory the service was started in when it lies within it, as the README shows it. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** node's require() takes a relative path only with `./` in front. */
function requirable(file: string): string {
  return path.isAbsolute(file) ? file : `./${file}`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
