/**
 * An agent's OAuth state, kept in memory, for the MCP SDK's clients of both lines (the v1 SDK's and the
 * v2's): it registers itself dynamically and notes where it would send the traveler, which a test then
 * walks through the hosted pages.
 */
import type { OAuthClientProvider as ModernOAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export class AgentAuth implements OAuthClientProvider, ModernOAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  #discovery: OAuthDiscoveryState | undefined;
  authorizationUrl: URL | undefined;
  readonly redirectUrl = 'http://127.0.0.1:53682/callback';
  readonly clientMetadata: OAuthClientMetadata;

  constructor(clientName = 'Test agent') {
    this.clientMetadata = {
      client_name: clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation = () => this.#client;
  saveClientInformation = (client: OAuthClientInformationMixed) => void (this.#client = client);
  tokens = () => this.#tokens;
  saveTokens = (tokens: OAuthTokens) => void (this.#tokens = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.#verifier = verifier);
  codeVerifier = () => this.#verifier;
  // The v2 SDK binds the callback to the authorization server it sent the traveler to (SEP-2352).
  saveDiscoveryState = (state: OAuthDiscoveryState) => void (this.#discovery = state);
  discoveryState = () => this.#discovery;
}
