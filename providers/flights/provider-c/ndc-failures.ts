/**
 * provider_c's NDC error codes (Virgin Atlantic's published list) in our words: what the caller can do
 * about each, never the airline's own text.
 */
import { ConflictError, GoneError, NotFoundError, ProviderRejectedError } from '../../../core/errors.js';
import { providerFailures } from '../adapter-kit.js';
import { PROVIDER_ID } from './map.js';

export const failures = providerFailures(PROVIDER_ID);

export const orderNotFound = () =>
  new NotFoundError('provider_c has no order with this id: check the provider order id of the booking.', 'provider_order_not_found');

export function fromCodes(codes: string[]): Error {
  const has = (...wanted: string[]) => wanted.some((item) => codes.includes(item));
  // 913 is also "item not found" at OrderCreate: an offer item the airline no longer knows is an offer gone.
  if (has('913')) return failures.expired();
  if (has('496')) return failures.soldOut();
  if (has('73')) {
    return failures.invalidPassenger(
      "The airline refused a passenger's date of birth: it must match the passenger's type in the offer (adult 12 or over, child 2 to 11, infant under 2) on the day of travel.",
      'passenger age does not match the passenger type',
    );
  }
  if (has('149', '150', '151', '152', '314')) {
    return failures.invalidPassenger(
      "The airline refused a passenger's name: give every passenger a first and last name in letters, spaces, hyphens and apostrophes, as printed in the passport.",
      'passenger name missing or invalid',
    );
  }
  if (has('290')) {
    return new ProviderRejectedError(
      'The airline cannot sell a chosen seat (taken, not a seat, or two for one passenger): read the seat maps again and choose another.',
      'seat_unavailable',
      'provider_c: advance seat request refused',
    );
  }
  if (has('76H')) {
    return new ProviderRejectedError('The airline does not sell a chosen service with this offer: book without it.', 'service_unavailable', 'provider_c: ancillary not available');
  }
  if (has('129')) return orderNotFound();
  if (has('303')) return new GoneError('The hold lapsed unpaid at its payment deadline, and the airline cancelled it: book again.', 'order_expired');
  if (has('395')) return new ConflictError('This order is already paid and ticketed: retrieve it instead of paying again.', 'order_already_ticketed');
  if (has('727')) {
    return new ProviderRejectedError('The airline did not accept the amount paid: retrieve the order and pay exactly its total.', 'payment_amount_mismatch', 'provider_c: amount or currency refused');
  }
  // 911 (its internal error), 912 (a request it found incomplete) and anything else it may say.
  return failures.unavailable();
}
