/**
 * The card vault adapter: core's `CardVault` over HTTP (providers/http-client.ts) in Basis Theory's
 * dialect, for the real vault or its sandbox alike. Answers are checked with the vault's own schemas
 * (wire.ts); failures become domain errors in our words, never the vault's text:
 * `ProviderUnavailableError` (`payment_unavailable`) for a vault that is down, answers 5xx or something
 * unreadable, or refuses our credentials (a configuration error, logged as such), and
 * `ProviderTimeoutError` (`payment_timeout`) for one too slow. Only idempotent calls are retried (reads,
 * merge patches, deletes); opening a session never is.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import { NotFoundError, ProviderTimeoutError, ProviderUnavailableError, ValidationError, type FieldError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { CARD_BRANDS, type CardBrand, type CardVault, type VaultCard, type VaultSession } from '../../core/ports.js';
import { HttpClient, HttpConnectionError, HttpStatusError, HttpTimeoutError, type HttpAnswer } from '../http-client.js';
import { WireProblem, WireSession, WireToken, type WireMetadataPatch } from './wire.js';

export interface BasisTheoryVaultSettings {
  /** The vault's origin: where the adapter calls it, and where browsers load its hosted fields. */
  baseUrl: string;
  /** The service's private key (`BT-API-KEY`). */
  apiKey: string;
  /** How long one attempt may take; 5 s unless set. */
  timeoutMs?: number;
  /** Where a refused credential or an unreadable answer is reported (they need an operator). */
  logger?: Logger;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** Up to two more attempts for idempotent calls, after no answer or a 5xx; never after a timeout. */
const IDEMPOTENT_RETRIES = 2;
const RETRY_DELAY_MS = 200;

/** The metadata keys of the vault for the details of the port, and back (for its validation problems). */
const DETAIL_FIELDS = { cardholderName: 'cardholder_name', billingZip: 'billing_zip' } as const;
const DETAIL_RULES: Record<string, FieldError> = {
  'metadata.cardholder_name': { field: 'cardholderName', rule: 'length', message: 'cardholderName must be 1 to 100 characters' },
  'metadata.billing_zip': { field: 'billingZip', rule: 'format', message: 'billingZip must be 3 to 10 letters, digits, spaces or dashes' },
};

const NOT_FOUND = Symbol('not found');

export class BasisTheoryVault implements CardVault {
  readonly publicUrl: string;
  readonly #http: HttpClient;
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;

  constructor(settings: BasisTheoryVaultSettings) {
    this.publicUrl = settings.baseUrl.replace(/\/+$/, '');
    this.#timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#logger = settings.logger;
    this.#http = new HttpClient({ baseUrl: this.publicUrl, headers: { accept: 'application/json', 'bt-api-key': settings.apiKey }, timeoutMs: this.#timeoutMs });
  }

  async openSession(input: { owner: string; origin: string; frameAncestors?: readonly string[] }): Promise<VaultSession> {
    const ancestors = input.frameAncestors?.length ? { frame_ancestors: [...input.frameAncestors] } : {};
    const answer = await this.#request('POST', 'sessions', { json: { owner: input.owner, origin: input.origin, ...ancestors } });
    // No such endpoint, or a body it refuses: the vault is not the one we think, or we are wrong.
    if (answer === NOT_FOUND) throw this.#misconfigured('the card vault has no sessions endpoint at the configured URL');
    const session = this.#parse(WireSession, answer);
    return { sessionKey: session.session_key, expiresAt: new Date(session.expires_at) };
  }

  async readCard(tokenId: string): Promise<VaultCard | undefined> {
    const answer = await this.#request('GET', tokenPath(tokenId));
    if (answer === NOT_FOUND) return undefined;
    const token = this.#parse(WireToken, answer);
    return {
      tokenId: token.id,
      brand: (CARD_BRANDS as readonly string[]).includes(token.card.brand) ? (token.card.brand as CardBrand) : undefined,
      last4: token.card.last4,
      expMonth: token.card.expiration_month,
      expYear: token.card.expiration_year,
      fingerprint: token.fingerprint,
      owner: token.owner ?? undefined,
    };
  }

  async updateCardDetails(tokenId: string, details: { cardholderName?: string | null; billingZip?: string | null }): Promise<void> {
    const metadata: WireMetadataPatch = {};
    for (const [ours, theirs] of Object.entries(DETAIL_FIELDS) as [keyof typeof DETAIL_FIELDS, (typeof DETAIL_FIELDS)[keyof typeof DETAIL_FIELDS]][]) {
      if (details[ours] !== undefined) metadata[theirs] = details[ours];
    }
    const answer = await this.#request('PATCH', tokenPath(tokenId), {
      json: { metadata },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    if (answer === NOT_FOUND) throw new NotFoundError('The card is no longer in the card vault: save the card again.', 'vault_token_not_found');
    this.#parse(WireToken, answer);
  }

  async redact(tokenId: string): Promise<void> {
    // A token already gone is what was asked for.
    await this.#request('DELETE', tokenPath(tokenId));
  }

  /** The answer's body, or NOT_FOUND for a 404; every other failure as a domain error. */
  async #request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options: { json?: unknown; headers?: Record<string, string> } = {}): Promise<unknown> {
    const attempts = method === 'POST' ? 1 : 1 + IDEMPOTENT_RETRIES;
    for (let attempt = 1; ; attempt++) {
      let answer: HttpAnswer;
      try {
        answer = await this.#http.send({ method, path, ...options });
      } catch (error) {
        if (error instanceof HttpConnectionError && attempt < attempts) {
          await sleep(RETRY_DELAY_MS);
          continue;
        }
        throw this.#failure(error, method, path);
      }
      if (answer.status >= 500 && attempt < attempts) {
        await sleep(RETRY_DELAY_MS);
        continue;
      }
      if (answer.status === 404) return NOT_FOUND;
      if (answer.status < 200 || answer.status >= 300) throw this.#failure(new HttpStatusError(answer.status, answer.body), method, path);
      return answer.body;
    }
  }

  #failure(error: unknown, method: string, path: string): Error {
    if (error instanceof HttpTimeoutError) {
      return new ProviderTimeoutError(`The card vault did not answer within ${this.#timeoutMs / 1000} s: try again in a moment.`, 'payment_timeout');
    }
    if (error instanceof HttpStatusError) {
      const status = error.status;
      if (status === 401 || status === 403) return this.#misconfigured(`the card vault refused our credentials (${status}): check VAULT_API_KEY`);
      if (status === 400) return this.#invalid(error.body, method, path);
      this.#logger?.warn({ system: 'card_vault', method, path: redactedPath(path), status }, 'the card vault failed');
    }
    return unavailable();
  }

  /** A validation problem: the caller's card details if that is what it names, else our own mistake. */
  #invalid(body: unknown, method: string, path: string): Error {
    const problem = WireProblem.safeParse(body).data;
    const fields = Object.keys(problem?.errors ?? {});
    if (method === 'PATCH' && fields.length > 0 && fields.every((field) => field in DETAIL_RULES)) {
      return new ValidationError(fields.map((field) => DETAIL_RULES[field] as FieldError));
    }
    this.#logger?.error({ system: 'card_vault', method, path: redactedPath(path), fields }, 'the card vault refused a request of ours as invalid');
    return unavailable();
  }

  #misconfigured(reason: string): Error {
    this.#logger?.error({ system: 'card_vault' }, reason);
    return new ProviderUnavailableError('Card payments are unavailable just now: the card vault refused our credentials. Try again later.', 'payment_unavailable');
  }

  #parse<S extends z.ZodType>(schema: S, answer: unknown): z.output<S> {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      this.#logger?.error({ system: 'card_vault', issues: parsed.error.issues.map((issue) => issue.path.join('.')) }, 'the card vault answered in a form we do not read');
      throw new ProviderUnavailableError('The card vault answered in a form we do not understand: try again later.', 'payment_unavailable');
    }
    return parsed.data;
  }
}

function unavailable(): ProviderUnavailableError {
  return new ProviderUnavailableError('The card vault cannot be reached just now: try again in a moment.', 'payment_unavailable');
}

function tokenPath(tokenId: string): string {
  return `tokens/${encodeURIComponent(tokenId)}`;
}

/** Token ids are not secrets, but a log names the kind of call, not which card. */
function redactedPath(path: string): string {
  return path.replace(/^tokens\/.+$/, 'tokens/{id}');
}
