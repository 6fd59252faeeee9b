/**
 * The flight providers as reference data. They change only with the seeds (at start), so the catalog is
 * read once and served from memory: the capabilities route is on every client's hot path.
 */
import type { Knex } from 'knex';
import { NotFoundError } from '../errors.js';
import { PROVIDER_IDS, Provider, type ProviderCapabilities } from './schemas.js';
import { listProviders } from './store.js';

export class ProviderCatalog {
  readonly #byId: ReadonlyMap<string, Provider>;
  /** Each provider's capabilities as JSON text, written once: what the capabilities route sends. */
  readonly #capabilitiesJson: ReadonlyMap<string, string>;

  private constructor(providers: Provider[]) {
    this.#byId = new Map(providers.map((provider) => [provider.id, provider]));
    this.#capabilitiesJson = new Map(providers.map((provider) => [provider.id, JSON.stringify(provider.capabilities)]));
  }

  static async load(db: Knex): Promise<ProviderCatalog> {
    // Parsing puts the fields in the schema's order (jsonb keeps its own) and checks the seeds.
    return new ProviderCatalog((await listProviders(db)).map((row) => Provider.parse(row)));
  }

  list(): Provider[] {
    return [...this.#byId.values()];
  }

  get(providerId: string): Provider {
    const provider = this.#byId.get(providerId);
    if (!provider) {
      throw new NotFoundError(
        `There is no flight provider "${providerId}". Known providers: ${PROVIDER_IDS.join(', ')}.`,
        'provider_not_found',
      );
    }
    return provider;
  }

  capabilities(providerId: string): ProviderCapabilities {
    return this.get(providerId).capabilities;
  }

  /** The same as JSON text. */
  capabilitiesJson(providerId: string): string {
    this.get(providerId);
    return this.#capabilitiesJson.get(providerId) as string;
  }
}
