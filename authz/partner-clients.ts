/**
 * Pre-registered OAuth clients of named partners (`npm run admin -- client create`): a stable UUID
 * client id, a secret shown once (none for a public client), redirect URIs checked by the same rules as
 * registration, no expiry. Stored where the authorization server keeps every client, through the same
 * adapter, so the secret is sealed at rest like any other.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/crypto/secret-box.js';
import { ValidationError, type FieldError } from '../core/errors.js';
import {
  BECOME_PUBLIC,
  CreatePartnerClientInput,
  redirectUriProblem,
  type CreatedPartnerClient,
  type PartnerClients,
} from '../core/oauth/client-rules.js';
import type { PartnerService } from '../core/partners/service.js';
import { parseOrThrow } from '../core/validation.js';
import { oidcAdapterFactory } from './oidc-adapter.js';

export class PartnerClientRegistry implements PartnerClients {
  constructor(private readonly deps: { db: Knex; clock: Clock; secrets: SecretBox; partners: PartnerService }) {}

  async create(input: CreatePartnerClientInput): Promise<CreatedPartnerClient> {
    const parsed = parseOrThrow(CreatePartnerClientInput, input);
    const type = parsed.public ? 'public' : 'confidential';
    const problems: FieldError[] = parsed.redirect_uris.flatMap((uri, index) => {
      const problem = redirectUriProblem(uri, type, BECOME_PUBLIC.admin);
      return problem ? [{ field: `redirect_uris.${index}`, rule: 'invalid_redirect_uri', message: problem }] : [];
    });
    if (problems.length > 0) throw new ValidationError(problems, `invalid_redirect_uri: ${problems.map((p) => p.message).join('; ')}.`);
    // Throws not_found with a message naming the partner when it does not exist.
    await this.deps.partners.getPartner(parsed.partner_id);

    const clientId = randomUUID();
    const secret = parsed.public ? undefined : randomBytes(32).toString('base64url');
    const method = parsed.public ? 'none' : 'client_secret_basic';
    const metadata = {
      client_id: clientId,
      client_id_issued_at: Math.floor(this.deps.clock.now().getTime() / 1000),
      client_name: parsed.name,
      partner_id: parsed.partner_id,
      redirect_uris: parsed.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    };
    await oidcAdapterFactory(this.deps.db, this.deps.clock, this.deps.secrets)('Client').upsert(clientId, metadata);
    return {
      client_id: clientId,
      ...(secret ? { client_secret: secret } : {}),
      client_name: parsed.name,
      partner_id: parsed.partner_id,
      redirect_uris: parsed.redirect_uris,
      token_endpoint_auth_method: method,
    };
  }
}
