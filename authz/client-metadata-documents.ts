/**
 * The clients that identify themselves by the URL of their metadata document: fetched when first seen,
 * kept for as long as the document's Cache-Control max-age says (within bounds), at most a few hundred at
 * a time, the least recently used going first. Concurrent first requests for one URL share one fetch.
 * Only usable documents are kept: a broken one is fetched again on the next request, so its fix shows.
 *
 * Each instance of the service keeps its own cache: the document, not our database, is the truth about
 * such a client, and nothing about it is stored (its grants and tokens are, under its client_id).
 */
import { errors } from 'oidc-provider';
import type { Clock } from '../core/clock.js';
import { clientIdUrlProblem } from './client-metadata-url.js';
import { readClientMetadataDocument } from './client-metadata-document.js';
import { DocumentProblem, fetchClientMetadataDocument } from './client-metadata-fetch.js';
import type { OidcPayload } from './oidc-adapter.js';

export const CLIENT_METADATA_CACHE = {
  /** Without a max-age. */
  defaultSeconds: 300,
  /** A shorter max-age (or no-store) is raised to this: every step of a sign-in would fetch again. */
  minSeconds: 60,
  /** A longer one is cut to this, so that a changed document is seen within a day. */
  maxSeconds: 24 * 3600,
  maxEntries: 500,
} as const;

/**
 * The authorization endpoint's answer for a client that cannot be resolved (400 `invalid_client`), saying
 * what is wrong with its document; the library answers it wherever the client is looked up.
 */
export class ClientMetadataRefused extends errors.InvalidClient {
  // The client_id is not repeated: whoever sent it knows it, and a traveler's page should not show text
  // that anyone could have written into a link.
  constructor(problem: string) {
    super(`The client_id names a client metadata document that cannot be used: ${problem}. The app’s makers must fix the document; until then it cannot sign travelers in.`);
  }
}

interface Entry {
  payload: OidcPayload;
  expiresAt: number;
}

export interface ClientMetadataDocumentsDeps {
  clock: Clock;
  /** Tests only (NODE_ENV=test): http://127.0.0.1:<port> origins whose documents may be fetched. */
  testOrigins: readonly string[];
}

export class ClientMetadataDocuments {
  /** Insertion order is recency order: a hit is moved to the end, the first entry is the one to evict. */
  readonly #cache = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<OidcPayload>>();

  constructor(private readonly deps: ClientMetadataDocumentsDeps) {}

  /** The client's metadata, as oidc-provider's Client adapter returns it; throws ClientMetadataRefused. */
  async resolve(clientId: string): Promise<OidcPayload> {
    const cached = this.#cache.get(clientId);
    if (cached && cached.expiresAt > this.deps.clock.now().getTime()) {
      this.#cache.delete(clientId);
      this.#cache.set(clientId, cached);
      return cached.payload;
    }
    this.#cache.delete(clientId);
    let pending = this.#pending.get(clientId);
    if (!pending) {
      pending = this.#fetch(clientId).finally(() => this.#pending.delete(clientId));
      this.#pending.set(clientId, pending);
    }
    return pending;
  }

  async #fetch(clientId: string): Promise<OidcPayload> {
    const urlProblem = clientIdUrlProblem(clientId, this.deps.testOrigins);
    if (urlProblem) throw new ClientMetadataRefused(`its URL ${urlProblem}`);
    try {
      const fetched = await fetchClientMetadataDocument(new URL(clientId), this.deps.testOrigins);
      const payload = readClientMetadataDocument(clientId, fetched.body);
      this.#remember(clientId, payload, cacheSeconds(fetched.cacheControl));
      return payload;
    } catch (error) {
      if (error instanceof DocumentProblem) throw new ClientMetadataRefused(error.message);
      throw error;
    }
  }

  #remember(clientId: string, payload: OidcPayload, seconds: number): void {
    this.#cache.set(clientId, { payload, expiresAt: this.deps.clock.now().getTime() + seconds * 1000 });
    while (this.#cache.size > CLIENT_METADATA_CACHE.maxEntries) {
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.delete(oldest);
    }
  }
}

/** How long a document is kept: its max-age (s-maxage for a shared cache like ours), within the bounds. */
export function cacheSeconds(cacheControl: string | undefined): number {
  const { defaultSeconds, minSeconds, maxSeconds } = CLIENT_METADATA_CACHE;
  const directives = (cacheControl ?? '').toLowerCase();
  const age = /(?:^|[,\s])s-maxage\s*=\s*"?(\d+)/.exec(directives) ?? /(?:^|[,\s])max-age\s*=\s*"?(\d+)/.exec(directives);
  const wanted = /(?:^|[,\s])(no-store|no-cache)(?:$|[,\s=])/.test(directives) ? 0 : age ? Number(age[1]) : defaultSeconds;
  return Math.min(maxSeconds, Math.max(minSeconds, wanted));
}
