/**
 * provider_a's refusals of its order calls, in our words: its numeric codes and the field they point at
 * (`source.pointer`) decide the domain error. Its own words never reach the caller.
 */
import { NotFoundError, PriceChangedError, ProviderRejectedError } from '../../../core/errors.js';
import { toDecimalString } from '../../../core/money/money.js';
import { HttpStatusError, HttpTimeoutError } from '../../http-client.js';
import { providerFailures } from '../adapter-kit.js';
import { PROVIDER_ID } from './map.js';
import { notOnSale } from './order-request.js';
import { WireOrderErrors } from './wire.js';

const failures = providerFailures(PROVIDER_ID);

const PRICE_DISCREPANCY = 37200;
const SOLD_OUT = 34651;
const INVALID_DATA = 4926;
const MANDATORY_DATA_MISSING = 32171;
const INVALID_FORMAT = 477;
const SERVICES_NOT_AVAILABLE = 38034;
const BOOKING_FAILED = 36870;

/** What the failed order call was: its timeout, the order it was about (if one exists), the total it agreed to pay. */
export interface OrderCall {
  seconds: number;
  orderId: string | null;
  agreed?: { amount: string; currency: string };
}

export function orderFailure(error: unknown, call: OrderCall): Error {
  if (error instanceof HttpTimeoutError) return failures.timedOut(call.seconds);
  if (!(error instanceof HttpStatusError)) return failures.unavailable();
  if (error.status === 404) return orderNotFound();
  const [first] = WireOrderErrors.safeParse(error.body).data?.errors ?? [];
  const pointer = first?.source?.pointer ?? '';
  switch (first?.code) {
    case PRICE_DISCREPANCY: {
      // "Current grandTotal price (x) is different from request one (y)": x is what the airline asks now.
      const now = /\(([\d.]+)\)/.exec(first.detail ?? '')?.[1];
      const agreed = call.agreed;
      if (!now || !agreed) return failures.unavailable();
      const newTotalAmount = failures.map(() => toDecimalString(now, agreed.currency));
      return new PriceChangedError({ orderId: call.orderId, previousTotalAmount: agreed.amount, newTotalAmount, currency: agreed.currency });
    }
    case SOLD_OUT:
      return failures.soldOut();
    case SERVICES_NOT_AVAILABLE:
      return notOnSale();
    case BOOKING_FAILED:
      return new ProviderRejectedError('The airline has cancelled this order, so it can no longer be paid: search again to book anew.', 'provider_order_cancelled', `${PROVIDER_ID}: order cancelled`);
    case INVALID_DATA:
    case MANDATORY_DATA_MISSING:
    case INVALID_FORMAT:
      if (pointer.startsWith('/data/travelers')) return invalidTraveler(pointer);
      // A stale offer is invalid data about the offer; anything else malformed is ours to fix, not the caller's.
      if (first.code === INVALID_DATA && pointer.startsWith('/data/flightOffers')) return failures.expired();
      return failures.unavailable();
    default:
      return failures.unavailable();
  }
}

export function orderNotFound(): NotFoundError {
  return new NotFoundError(`${PROVIDER_ID} has no order with this id: check the provider_order_id.`, 'provider_order_not_found');
}

/** Names the traveler and the field the airline refused, by its place in our request. */
function invalidTraveler(pointer: string): ProviderRejectedError {
  const [, index, field] = /^\/data\/travelers(?:\/(\d+))?(?:\/(\w+))?/.exec(pointer) ?? [];
  const what = field === 'name' ? 'name' : field === 'dateOfBirth' ? 'date of birth' : field === 'documents' ? 'identity documents' : 'details';
  const who = index === undefined ? 'a passenger' : `passenger ${Number(index) + 1}`;
  return failures.invalidPassenger(
    `The airline refused the ${what} of ${who}: correct them (names in letters only, as in the passport; documents where required) and book again.`,
    `${who}: ${what} refused`,
  );
}
