/**
 * What every flight provider adapter is made of besides its HTTP client (providers/http-client.ts): its
 * settings, the check of every answer against the provider's native schema, and the domain errors the
 * provider's failures become. The words are ours and the same for every provider, so that a caller reads
 * one meaning whichever provider failed.
 */
import type { z } from 'zod';
import type { Clock } from '../../core/clock.js';
import { GoneError, ProviderRejectedError, ProviderTimeoutError, ProviderUnavailableError, ValidationError } from '../../core/errors.js';
import type { ProviderCapabilities } from '../../core/flights/schemas.js';

export interface ProviderSettings {
  /** Where its API lives (the sandbox in sandbox mode). */
  baseUrl: string;
  /** Its credential, sent the way the provider takes it (bearer token, API key header). */
  token: string;
  /** Its capabilities: the timeouts come from there. */
  capabilities: ProviderCapabilities;
  clock: Clock;
}

/** The failures of one provider, in our words. */
export function providerFailures(providerId: string) {
  const unreadable = () => new ProviderUnavailableError(`${providerId} answered in a form we do not understand: try again later.`, 'provider_unavailable');
  return {
    /** Its answer is checked with `schema`; one we cannot read is its failure, not the caller's. */
    parse<S extends z.ZodType>(schema: S, answer: unknown): z.output<S> {
      const parsed = schema.safeParse(answer);
      if (!parsed.success) throw unreadable();
      return parsed.data;
    },
    /**
     * Maps a parsed answer. Mapping can still refuse it (an amount finer than its currency): that is the
     * provider's fault too, never a 400 with the provider's field paths.
     */
    map<T>(mapping: () => T): T {
      try {
        return mapping();
      } catch (error) {
        if (error instanceof ValidationError) throw unreadable();
        throw error;
      }
    },
    /** A refused credential, a 5xx, a connection failure: nothing the caller can fix but to wait. */
    unavailable: () => new ProviderUnavailableError(`${providerId} is not answering as expected just now: try again in a moment.`, 'provider_unavailable'),
    timedOut: (seconds: number) => new ProviderTimeoutError(`${providerId} did not answer within ${seconds} s: try again in a moment.`),
    expired: () => new GoneError('This offer has expired at the airline: search again for a new one.', 'offer_expired'),
    soldOut: () =>
      new ProviderRejectedError(
        'The airline no longer sells this offer (sold out or withdrawn): search again for another one.',
        'offer_no_longer_available',
        `${providerId}: sold out or withdrawn`,
      ),
    invalidPassenger: (message: string, details: string) => new ProviderRejectedError(message, 'invalid_passenger', `${providerId}: ${details}`),
  };
}
