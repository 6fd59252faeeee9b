/**
 * provider_e over HTTP: its key header, a timeout per call from its capabilities (pricing or booking),
 * every answer checked with its native schema, and its failures in our words. A step that reads an order
 * can ask for its "not found" codes back, to decide what an unknown id means there.
 */
import type { z } from 'zod';
import { HttpClient, HttpStatusError, HttpTimeoutError } from '../../http-client.js';
import { providerFailures, type ProviderSettings } from '../adapter-kit.js';
import { PROVIDER_ID } from './map.js';
import { ERROR_CODES, WireError } from './wire.js';

export const failures = providerFailures(PROVIDER_ID);

export type Timeout = 'pricing' | 'booking';

const METHODS = { get: 'GET', post: 'POST', delete: 'DELETE' } as const;

/** Its own error, for the step that asked to handle it. */
export class NativeError extends Error {
  constructor(
    readonly code: number,
    readonly fields: string[],
  ) {
    super(`provider_e error ${code}`);
  }
}

export class ProviderECalls {
  readonly #http: HttpClient;

  constructor(private readonly settings: ProviderSettings) {
    // Each call sets its own deadline (pricing or booking); the client's own is only a fallback.
    this.#http = new HttpClient({
      baseUrl: settings.baseUrl,
      headers: { accept: 'application/json', 'x-api-key': settings.token },
      timeoutMs: settings.capabilities.booking_timeout_seconds * 1000,
    });
  }

  /**
   * Calls `path` (below /v3.0/flights) and parses its answer with `schema`. Errors whose code is in
   * `handled` come back as NativeError for the caller; every other failure is a domain error.
   */
  async call<S extends z.ZodType>(
    timeout: Timeout,
    method: 'get' | 'post' | 'delete',
    path: string,
    schema: S,
    options: { json?: unknown; handled?: number[] } = {},
  ): Promise<z.output<S>> {
    const seconds = timeout === 'pricing' ? this.settings.capabilities.pricing_timeout_seconds : this.settings.capabilities.booking_timeout_seconds;
    let answer: unknown;
    try {
      answer = await this.#http.json({ method: METHODS[method], path: `v3.0/flights/${path}`, json: options.json, timeoutMs: seconds * 1000 });
    } catch (error) {
      throw translate(error, seconds, options.handled ?? []);
    }
    return failures.parse(schema, answer);
  }
}

function translate(error: unknown, seconds: number, handled: number[]): Error {
  if (error instanceof HttpTimeoutError) return failures.timedOut(seconds);
  if (error instanceof HttpStatusError) {
    const native = WireError.safeParse(error.body).data?.error;
    const fields = native?.details?.map((detail) => detail.field) ?? [];
    if (native && handled.includes(native.code)) return new NativeError(native.code, fields);
    // provider_e says an offer expired by not finding it, at any step of its flow. A 404 without its
    // error body is not its answer (a wrong base URL, say): that falls through to unavailable.
    if (native?.code === ERROR_CODES.offerNotFound) return failures.expired();
    if (native?.code === ERROR_CODES.noAvailability) return failures.soldOut();
    // A validation failure is the traveler's only where it names their details; any other is ours.
    if (native?.code === ERROR_CODES.validation && fields.some((field) => /^(passengers|contact)\b/.test(field))) {
      return failures.invalidPassenger(
        "The airline refused a passenger's details: check names (letters, spaces, hyphens and apostrophes, as in the passport), dates of birth and documents, then try again.",
        'passenger validation failed',
      );
    }
  }
  // A refused key, a 5xx, a connection failure: nothing the caller can fix but to wait.
  return failures.unavailable();
}
