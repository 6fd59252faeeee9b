/**
 * The errors page at `/docs/errors`, rendered once from the error catalog: what every error body carries,
 * then one section per code, whose id is the code (the anchor every `doc_url` points at), with its HTTP
 * status, whether to retry, whether the traveler is needed, and what to do. Plain HTML without script, in
 * the hosted pages' look; every value is escaped, and only `code` spans are made from the help's
 * backticks after escaping.
 */
import { ERROR_DOCS_PATH, ERROR_GROUPS, statusesOf, type ErrorEntry, type ErrorGroup } from '../../core/error-catalog.js';

export interface ErrorDocsPageOptions {
  /** BASE_URL and AUTH_URL, put where the help names them. */
  baseUrl: string;
  authUrl: string;
  /** The hosted pages' stylesheet (the authorization server serves it). */
  stylesheetPath: string;
}

export function errorDocsPage(options: ErrorDocsPageOptions): string {
  const urls = (text: string) => text.replaceAll('<BASE_URL>', options.baseUrl).replaceAll('<AUTH_URL>', options.authUrl);
  const prose = (text: string) => escapeHtml(urls(text)).replace(/`([^`]+)`/g, '<code>$1</code>');
  const groupId = (index: number) => `group-${index + 1}`;
  const contents = ERROR_GROUPS.map(
    (group, index) => `      <li><a href="#${groupId(index)}">${escapeHtml(group.title)}</a>: ${Object.keys(group.entries)
      .map((code) => `<a href="#${escapeHtml(code)}"><code>${escapeHtml(code)}</code></a>`)
      .join(', ')}</li>`,
  ).join('\n');
  const sections = ERROR_GROUPS.map((group, index) => groupSection(group, groupId(index), prose)).join('\n');
  const docs = escapeHtml(options.baseUrl);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Errors · Travel Partner API</title>
  <link rel="stylesheet" href="${escapeHtml(options.stylesheetPath)}">
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
</head>
<body>
  <main class="quickstart">
    <h1>Errors</h1>
    <p>Every error names a stable <code>code</code> to branch on and a <code>message</code> that says what to do next. This page
      explains each code; every error links its own section here. The <a href="${docs}/docs">API reference</a> shows which
      operation answers which.</p>

    <h2 id="fields">What an error carries</h2>
    <p>Over REST, the standard envelope is <code>{message, status_code, code, request_id, doc_url}</code>, with
      <code>details</code> where a provider said more, and the fields a code names below (such as <code>current_total</code>
      or <code>order_id</code>). Invalid input answers the validation envelope <code>{message, code, fields, request_id,
      doc_url}</code>; a bearer token that is not valid or lacks a scope answers the OAuth envelope
      <code>{error, error_description, scope, code, request_id, doc_url}</code> with a <code>WWW-Authenticate</code>
      challenge.</p>
    <p>A tool of the agent endpoint <code>/v1/mcp</code> that fails answers a tool error carrying <code>code</code>,
      <code>message</code>, <code>retryable</code>, <code>needs_user</code>, <code>request_id</code> and <code>doc_url</code>, and
      the same extra fields.</p>
    <ul>
      <li><code>request_id</code> is the request’s id, also in the <code>X-Request-Id</code> header of the answer (send your
        own in that header, and it is kept). Quote it to support: our log has the request under it.</li>
      <li><code>doc_url</code> is the code’s section on this page, <code>${escapeHtml(options.baseUrl)}${ERROR_DOCS_PATH}#&lt;code&gt;</code>.</li>
      <li><em>Retryable</em>: the same request, unchanged, may succeed later (after <code>Retry-After</code> seconds where the
        answer gives them). Otherwise change the request first.</li>
      <li><em>Needs the traveler</em>: only the traveler can unblock it (confirm a purchase, sign in, choose another card):
        an agent asks them, or shows them the URL the error gives.</li>
    </ul>

    <h2 id="codes">Codes</h2>
    <ul>
${contents}
    </ul>
${sections}
  </main>
</body>
</html>
`;
}

function groupSection(group: ErrorGroup, id: string, prose: (text: string) => string): string {
  const entries = Object.entries(group.entries).map(([code, entry]) => codeSection(code, entry, prose));
  return `
    <section aria-labelledby="${id}">
      <h2 id="${id}">${escapeHtml(group.title)}</h2>
      <p>${prose(group.summary)}</p>
${entries.join('\n')}
    </section>`;
}

function codeSection(code: string, entry: ErrorEntry, prose: (text: string) => string): string {
  return `      <section id="${escapeHtml(code)}" class="app">
        <h3><code>${escapeHtml(code)}</code> · ${escapeHtml(entry.title)}</h3>
        <p class="hint">HTTP ${statusesOf(entry).join(' or ')} · Retryable: ${entry.retryable ? 'yes' : 'no'} · Needs the traveler: ${entry.needsUser ? 'yes' : 'no'}</p>
        <p>${prose(entry.help)}</p>
      </section>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
