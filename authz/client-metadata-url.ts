/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; the MCP authorization
 * specification's preferred way for a client to identify itself): a client whose `client_id` is an
 * https URL is described by the JSON document served at that URL. These are the rules for the URL itself,
 * checked before anything is fetched.
 */

/** A client_id that means "my metadata document is here" (any other client_id is a registered one). */
export function isUrlClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Longer client ids would not fit the indexes that key grants and pairwise ids on them. */
export const CLIENT_ID_URL_MAX_LENGTH = 1000;

/**
 * What is wrong with `clientId` as the address of a metadata document (a phrase that follows "it"), or
 * undefined when it may be fetched. `testOrigins` are http://127.0.0.1:<port> origins that tests may use
 * (empty outside NODE_ENV=test).
 */
export function clientIdUrlProblem(clientId: string, testOrigins: readonly string[]): string | undefined {
  if (clientId.length > CLIENT_ID_URL_MAX_LENGTH) return `must be at most ${CLIENT_ID_URL_MAX_LENGTH} characters long`;
  // The URL parser would quietly drop or rewrite these, so the document fetched would be another's.
  if (/[\s\\\p{Cc}]/u.test(clientId)) return 'must not contain spaces, backslashes or control characters';
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'https:' && !testOrigins.includes(url.origin)) return 'must use https://';
  if (clientId.includes('#')) return 'must not have a fragment (#...)';
  if (url.username || url.password || authorityOf(clientId).includes('@')) return 'must not carry a user name or password';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path, such as https://app.example.com/oauth/client.json';
  // Dot segments are resolved away by the parser: the document would not be at the URL as written.
  const rawPath = clientId.slice(clientId.indexOf('/', clientId.indexOf('//') + 2)).split('?')[0] ?? '';
  if (rawPath.split('/').some((segment) => ['.', '..'].includes(segment.replace(/%2e/gi, '.')))) return 'must not contain . or .. path segments';
  if (url.href !== clientId) return `must be written in its normal form (${url.href.slice(0, 200)})`;
  return undefined;
}

function authorityOf(clientId: string): string {
  const rest = clientId.slice(clientId.indexOf('//') + 2);
  const end = rest.search(/[/?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}
