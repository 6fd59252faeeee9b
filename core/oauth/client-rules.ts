/**
 * Who may be an OAuth client and where it may send travelers back to (Authentication, Client kinds and
 * registration):
 * - a confidential client (a named partner's backend, holding a secret) redirects only to https URLs that
 *   are not localhost or a loopback address;
 * - a public client (an agent or an app without a secret, `token_endpoint_auth_method: none`) may also
 *   use http on localhost and loopback addresses, any port (RFC 8252's loopback redirect).
 * One function serves the authorization server's registration endpoint and the admin command line.
 */
import { z } from 'zod';

export type ClientType = 'confidential' | 'public';

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
  name: z.string().trim().min(1).max(100).describe('Shown to travelers on the consent page.'),
  redirect_uris: z.array(z.string().min(1).max(2000)).min(1).max(20),
  public: z.boolean().default(false).describe('A public client has no secret and proves itself with PKCE alone.'),
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
}

/** Pre-registered partner clients (admin command line); implemented by the authorization server. */
export interface PartnerClients {
  create(input: CreatePartnerClientInput): Promise<CreatedPartnerClient>;
}
