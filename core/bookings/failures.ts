/** A booking's failure as it is kept, and the error every answer to its request gives again from it. */
import { DomainError, PriceChangedError } from '../errors.js';
import type { StoredFailure } from './rows.js';

/** A domain failure as it is kept. */
export function storedFailure(error: DomainError): StoredFailure {
  return {
    kind: error.kind,
    code: error.code,
    message: error.message,
    ...(error.details === undefined ? {} : { details: error.details }),
    ...(error instanceof PriceChangedError
      ? { priceChange: { orderId: error.orderId, previousTotalAmount: error.previousTotalAmount, newTotalAmount: error.newTotalAmount, currency: error.currency } }
      : {}),
  };
}

/** The error a failed booking answers, the same for the first request and every repeat. */
export function failureError(failure: StoredFailure): DomainError {
  if (failure.priceChange) return new PriceChangedError({ ...failure.priceChange, message: failure.message });
  return new DomainError(failure.kind as DomainError['kind'], failure.code, failure.message, failure.details);
}
