/**
 * The identity API's one refusal (Identity surface rule 2): a guid or recognition token that is unknown,
 * revoked, expired, used, malformed or another airline's is answered alike, so that an airline cannot
 * probe for other airlines' travelers. The messages are fixed text: nothing of the request, nor which of
 * those causes it was, ever reaches them. The REST door answers these in the specification's identity
 * error envelope (`{error}`), not the standard one.
 */
import { NotFoundError } from '../errors.js';

/** Rule 3, in the words every 404 of the identity API repeats. */
const WHAT_TO_DO = 'delete the stored guid, recognize the traveler again, and retry once; never retry without deleting it first.';

/** The base of both: the REST door renders every instance in the identity envelope. */
export class UnknownIdentityError extends NotFoundError {}

export class UnknownGuidError extends UnknownIdentityError {
  constructor() {
    super(`This guid does not stand for any traveler connected to your client (unknown, disconnected or another client's): ${WHAT_TO_DO}`, 'unknown_guid');
  }
}

export class UnknownTokenError extends UnknownIdentityError {
  constructor() {
    super(
      "This recognition token is unknown, expired, already used or another client's (a token lives 120 seconds and resolves once): never retry it; recognize the traveler again and resolve the recognition component's next token.",
      'unknown_token',
    );
  }
}
