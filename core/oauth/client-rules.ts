/**
 * Who may be an OAuth client and where it may send travelers back to (Authentication, Client kinds and
 * registration):
 * - a confidential client (a named partner's backend, holding a secret) redirects only to https URLs that
 *   are not localhost or a loopback address;
 * - a public client (an agent or an app without a secret, `token_endpoint_auth_method: none`) may also
 *   use http on localhost and loopback addresses, any port (RFC 8252's loopback redirect).
 * - a name is plain text that fits the consent page; a client registers at most 10 redirect URIs, each at
 *   most 2,000 characters long.
 * These rules serve the authorization server's registration endpoint and the admin command line alike.
 */
import { z } from 'zod';
import { isStorableText } from '../input-checks.js';

export type ClientType = 'confidential' | 'public';

/** Bounds on what a client may register: a name fits the consent page, and no registration is a dump. */
export const CLIENT_LIMITS = { nameLength: 100, redirectUris: 10, redirectUriLength: 2000 } as const;

// Controls (\p{Cc}: C0 and C1, NUL and DEL among them) and the bidirectional formatting characters
// (\p{Bidi_Control}: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069): invisible on the consent
// page, they can make a name read as another's (an override reverses the text after it).
const DISGUISING = /[\p{Cc}\p{Bidi_Control}]/u;

/** What is wrong with a client's name (to follow the field's name), or undefined when it is fine. */
export function clientNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'must not be blank: name the app as travelers should see it';
  const found = DISGUISING.exec(name);
  if (found) {
    const codePoint = `U+${(found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `must be plain text: ${codePoint} at position ${found.index + 1} is a control or bidirectional formatting character, which could disguise the name travelers see; remove it`;
  }
  if (!isStorableText(name)) return 'must be well-formed Unicode text: it holds half of a UTF-16 surrogate pair';
  if ([...name].length > CLIENT_LIMITS.nameLength) return `must be at most ${CLIENT_LIMITS.nameLength} characters long`;
  return undefined;
}

/** What is wrong with the number of redirect URIs, or undefined when it is fine. */
export function redirectUriCountProblem(count: number): string | undefined {
  return count > CLIENT_LIMITS.redirectUris ? `at most ${CLIENT_LIMITS.redirectUris} redirect_uris may be registered (got ${count}): register the ones the app uses` : undefined;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * How a confidential client becomes a public one, in the words of the door it came through: a loopback
 * redirect is refused to the first and allowed to the second, and the refusal says so.
 */
export const BECOME_PUBLIC = {
  registration: 'register it with "token_endpoint_auth_method": "none" (no secret, PKCE alone)',
  admin: 'create it with --public (no secret, PKCE alone)',
} as const;

/**
 * What is wrong with `uri` as a redirect of a client of this type, or undefined when it is allowed.
 * `becomePublic` (one of BECOME_PUBLIC) ends the refusal of a loopback redirect to a confidential client.
 */
export function redirectUriProblem(uri: string, type: ClientType, becomePublic: string): string | undefined {
  if (uri.length > CLIENT_LIMITS.redirectUriLength) {
    return `${uri.slice(0, 60)}… is longer than ${CLIENT_LIMITS.redirectUriLength.toLocaleString('en')} characters: register a shorter URI`;
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash) return `${uri} must not have a fragment (#...)`;
  if (url.username || url.password) return `${uri} must not carry a user name or password`;
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  if (type === 'confidential') {
    if (web && isLoopback(url.hostname)) {
      return (
        `${uri} is on localhost or a loopback address: a confidential client redirects to public https URLs only. ` +
        `A public client may use http://localhost:<port> and http://127.0.0.1:<port>; ${becomePublic}`
      );
    }
    if (url.protocol !== 'https:') return `${uri} must use https:// (a confidential client's redirects are https only)`;
    return undefined;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  return `${uri} must use https://, or http:// on localhost or 127.0.0.1`;
}

export const CreatePartnerClientInput = z.strictObject({
  partner_id: z.uuid().describe('The partner application the client belongs to (its id from `partner list`).'),
  name: z
    .string()
    .trim()
    .superRefine((name, context) => {
      const problem = clientNameProblem(name);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .describe('Shown to travelers on the consent page.'),
  // The URIs' length is checked with the other redirect rules (redirectUriProblem).
  redirect_uris: z.array(z.string().min(1)).min(1).max(CLIENT_LIMITS.redirectUris),
  public: z.boolean().default(false).describe('A public client has no secret and proves itself with PKCE alone.'),
  airline: z
    .boolean()
    .default(false)
    .describe('An airline client (decisions §13): served by the identity endpoints and the recognition frame, and its consent page says it will recognize the traveler.'),
});
export type CreatePartnerClientInput = z.input<typeof CreatePartnerClientInput>;

export interface CreatedPartnerClient {
  client_id: string;
  /** Shown this once; absent for a public client. */
  client_secret?: string;
  client_name: string;
  partner_id: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'client_secret_basic' | 'none';
  airline: boolean;
}

/** Pre-registered partner clients (admin command line); implemented by the authorization server. */
export interface PartnerClients {
  create(input: CreatePartnerClientInput): Promise<CreatedPartnerClient>;
  /** Marks a partner's client as an airline client, or unmarks it (`airline` false). */
  setAirline(clientId: string, airline: boolean): Promise<{ client_id: string; partner_id: string; airline: boolean }>;
}
