/**
 * One provider's part in the booking contract (test/booking-contract.test.ts): how to reach its adapter
 * and how to build an order request that takes each path at its sandbox, on the magic values its README
 * rows list. Each provider's case lives in its own file beside this one.
 */
import type { FlightProvider, OrderRequest } from '../../core/flights/flight-provider.js';
import type { ProviderCapabilities } from '../../core/flights/schemas.js';
import type { RunningService } from '../helpers/service.js';

export type BookingPath =
  /** Placed and (paid where the provider has a payment step) confirmed; seats and services where sold. */
  | 'normal'
  | 'soldOut'
  | 'invalidPassenger'
  /** The total moved between the offer and the order. */
  | 'priceChangedAtBooking'
  /** The provider answers its order call with a 5xx. */
  | 'providerError'
  /** The provider answers its order call later than `booking_timeout_seconds`. */
  | 'slow'
  /** Placed like `normal`, on a fare whose cancellation refunds nothing. */
  | 'nonRefundable';

export interface BookingCase {
  providerId: string;
  /** The adapter against the running service's sandbox, with these capabilities (the test shortens timeouts). */
  adapter(running: RunningService, capabilities: ProviderCapabilities): FlightProvider;
  /** An order request for `path`, with `reference` as its reference and `type` as its order type. */
  request(running: RunningService, path: BookingPath, reference: string, type: 'instant' | 'hold'): Promise<OrderRequest>;
}

export const sandboxUrl = (running: RunningService, providerId: string) => `${running.config.sandboxUrl}/flights/${providerId}`;
