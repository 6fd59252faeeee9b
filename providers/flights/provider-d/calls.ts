/**
 * How provider_d's adapter calls it: each call bounded by a deadline (one timeout for a whole step, however
 * many calls it takes), and check_flights polled until the provider has checked the flights. Failures
 * become domain errors in our words; a step that knows more of an answer (save_booking's passenger
 * checks) refines them first.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GoneError, isDomainError } from '../../../core/errors.js';
import { HttpStatusError, HttpTimeoutError, type HttpClient } from '../../http-client.js';
import { providerFailures } from '../adapter-kit.js';
import { PROVIDER_ID } from './map.js';
import { WireCheckFlights, WireError, type WireOffer } from './wire.js';

export const failures = providerFailures(PROVIDER_ID);
/** Between two check_flights calls (the provider suggests 2-3 s; its sandbox checks on the second). */
const POLL_INTERVAL_MS = 1000;

/** The time a step has, and how much of it is left. */
export class Deadline {
  readonly #at: number;
  constructor(readonly seconds: number) {
    this.#at = Date.now() + seconds * 1000;
  }

  /** Milliseconds left for the next call; none left is the step's timeout. */
  remaining(): number {
    const left = this.#at - Date.now();
    if (left <= 0) throw failures.timedOut(this.seconds);
    return left;
  }
}

/** One call; `refine` may say what a refusal means before it becomes "unavailable". */
export async function call<T>(request: () => Promise<T>, deadline: Deadline, refine?: (error: HttpStatusError) => Error | undefined): Promise<T> {
  try {
    return await request();
  } catch (error) {
    // The deadline ran out before the call was made: already ours.
    if (isDomainError(error)) throw error;
    if (error instanceof HttpTimeoutError) throw failures.timedOut(deadline.seconds);
    if (error instanceof HttpStatusError) {
      const refined = refine?.(error);
      if (refined) throw refined;
      const said = WireError.safeParse(error.body).data?.error ?? '';
      if (error.status === 400 && /expired booking token/i.test(said)) {
        throw new GoneError('This offer has expired (its booking token is over 30 minutes old): search again for a new one.', 'offer_expired');
      }
      // A token it does not know (never issued, or long forgotten): to the provider the offer is gone, and
      // asking again cannot bring it back. Only a new search gives a token it knows.
      if (error.status === 400 && /(booking[_ ]token is not valid|invalid booking[_ ]token)/i.test(said)) {
        throw new GoneError('provider_d does not know this offer (its booking token is not one it issued, or no longer holds): search again for a new one.', 'offer_expired');
      }
    }
    throw failures.unavailable();
  }
}

/**
 * check_flights, polled until `flights_checked` (the first call opens a session; later calls name it).
 * A session from an earlier check is named at once, so an offer checked before needs one call.
 */
export async function checkFlights(http: HttpClient, native: WireOffer, deadline: Deadline): Promise<WireCheckFlights> {
  const item = native.data[0] as WireOffer['data'][number];
  const seats = native.search_params.seats;
  const query: Record<string, string> = {
    booking_token: item.booking_token,
    bnum: '0',
    adults: String(seats.adults),
    children: String(seats.children),
    infants: String(seats.infants),
    currency: native.currency,
    ...(native.check_flights?.session_id ? { session_id: native.check_flights.session_id } : {}),
  };
  for (;;) {
    const answer = await call(() => http.json({ method: 'GET', path: 'v2/booking/check_flights', query, timeoutMs: deadline.remaining() }), deadline);
    const check = failures.parse(WireCheckFlights, answer);
    if (check.flights_checked) return check;
    if (check.session_id) query.session_id = check.session_id;
    await sleep(Math.min(POLL_INTERVAL_MS, deadline.remaining()));
  }
}
