/**
 * Reading a fetched client metadata document into the client the authorization server knows: the
 * document must name the URL it came from as its `client_id`, describe a public client (no secret can
 * be published, so PKCE alone proves it), and list its redirect URIs, which follow the same rules as a
 * registration's. Only the properties we use are taken over; anything that would make the server fetch
 * more URLs (jwks_uri, sector_identifier_uri, request_uris) or change how tokens are made is left out.
 */
import { BECOME_PUBLIC, CLIENT_LIMITS, clientNameProblem, redirectUriCountProblem, redirectUriProblem } from '../core/oauth/client-rules.js';
import { DocumentProblem } from './client-metadata-fetch.js';
import type { OidcPayload } from './oidc-adapter.js';

const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token'];

/** Informational URLs a consent or apps page may show; taken over when they are https. */
const INFORMATION_URIS = ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri'] as const;

export function readClientMetadataDocument(clientId: string, body: Buffer): OidcPayload {
  let document: unknown;
  try {
    document = JSON.parse(body.toString('utf8'));
  } catch {
    throw new DocumentProblem('it is not valid JSON');
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new DocumentProblem('it must be a JSON object');
  const metadata = document as Record<string, unknown>;

  if (metadata.client_id !== clientId) {
    const named = typeof metadata.client_id === 'string' ? 'another' : 'none';
    throw new DocumentProblem(`its client_id must be exactly the URL it is served from (character for character), and it names ${named}`);
  }
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw new DocumentProblem(
      'token_endpoint_auth_method must be "none" (or be left out): a client described by a published document has no secret and proves itself with PKCE',
    );
  }
  if ('client_secret' in metadata || 'client_secret_expires_at' in metadata) throw new DocumentProblem('it must not hold a client_secret: a published document is public');
  if ('partner_id' in metadata) throw new DocumentProblem('partner_id is not allowed: partner clients are created by the operator');

  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string')) {
    throw new DocumentProblem('redirect_uris must list the URIs the app receives its codes at (a non-empty array of strings)');
  }
  const countProblem = redirectUriCountProblem(uris.length);
  if (countProblem) throw new DocumentProblem(countProblem);
  for (const uri of uris as string[]) {
    const problem = redirectUriProblem(uri, 'public', BECOME_PUBLIC.registration);
    if (problem) throw new DocumentProblem(`redirect_uris: ${problem}`);
  }

  const name = metadata.client_name;
  if (name !== undefined && typeof name !== 'string') throw new DocumentProblem('client_name must be a string');
  const nameProblem = typeof name === 'string' ? clientNameProblem(name) : undefined;
  if (nameProblem) throw new DocumentProblem(`client_name ${nameProblem}`);

  const grants = metadata.grant_types ?? SUPPORTED_GRANTS;
  if (!Array.isArray(grants) || !grants.includes('authorization_code')) {
    throw new DocumentProblem('grant_types must include "authorization_code" (or be left out)');
  }
  const responses = metadata.response_types ?? ['code'];
  if (!Array.isArray(responses) || !responses.includes('code')) throw new DocumentProblem('response_types must include "code" (or be left out)');

  const information = Object.fromEntries(
    INFORMATION_URIS.flatMap((key) => {
      const value = metadata[key];
      return typeof value === 'string' && value.length <= CLIENT_LIMITS.redirectUriLength && /^https:\/\//i.test(value) ? [[key, value]] : [];
    }),
  );
  return {
    client_id: clientId,
    // Without a name of its own, the app is called by the host that publishes it.
    client_name: typeof name === 'string' ? name : new URL(clientId).host,
    redirect_uris: uris as string[],
    token_endpoint_auth_method: 'none',
    grant_types: SUPPORTED_GRANTS.filter((grant) => grants.includes(grant)),
    response_types: ['code'],
    ...information,
  };
}
