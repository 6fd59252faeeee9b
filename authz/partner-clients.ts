/**
 * Pre-registered OAuth clients of named partners (`npm run admin -- client create`): a stable UUID
 * client id, a secret shown once (none for a public client), redirect URIs checked by the same rules as
 * registration, no expiry; marked as airline clients when the operator says so (decisions §13). Stored where the authorization server keeps every client, through the same
 * adapter, so the secret is sealed at rest like any other.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../core/clock.js';
import type { SecretBox } from '../core/crypto/secret-box.js';
import { NotFoundError, ValidationError, type FieldError } from '../core/errors.js';
import { isStorableText } from '../core/input-checks.js';
import {
  BECOME_PUBLIC,
  CreatePartnerClientInput,
  redirectUriProblem,
  type CreatedPartnerClient,
  type PartnerClients,
} from '../core/oauth/client-rules.js';
import type { PartnerService } from '../core/partners/service.js';
import { parseOrThrow } from '../core/validation.js';
import { AIRLINE_PROPERTY } from './client-kinds.js';
import { CLIENT_ID_URL_MAX_LENGTH } from './client-metadata-url.js';
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
      ...(parsed.airline ? { [AIRLINE_PROPERTY]: true } : {}),
    };
    await this.#clients().upsert(clientId, metadata);
    return {
      client_id: clientId,
      ...(secret ? { client_secret: secret } : {}),
      client_name: parsed.name,
      partner_id: parsed.partner_id,
      redirect_uris: parsed.redirect_uris,
      token_endpoint_auth_method: method,
      airline: parsed.airline,
    };
  }

  async setAirline(clientId: string, airline: boolean): Promise<{ client_id: string; partner_id: string; airline: boolean }> {
    const clients = this.#clients();
    const stored = isStorableText(clientId) && clientId.length <= CLIENT_ID_URL_MAX_LENGTH ? await clients.find(clientId) : undefined;
    const partnerId = stored?.['partner_id'];
    if (!stored || typeof partnerId !== 'string') {
      throw new NotFoundError(`No partner client ${clientId}: only a partner's client (client create) can be an airline client. Agents and other self-registered clients never are.`);
    }
    const { [AIRLINE_PROPERTY]: _was, ...rest } = stored;
    await clients.upsert(clientId, airline ? { ...rest, [AIRLINE_PROPERTY]: true } : rest);
    return { client_id: clientId, partner_id: partnerId, airline };
  }

  #clients() {
    return oidcAdapterFactory(this.deps.db, this.deps.clock, this.deps.secrets)('Client');
  }
}
