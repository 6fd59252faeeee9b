/**
 * Domain errors: what went wrong, in words a partner developer or an agent can act on, and a stable
 * snake_case `code` they can branch on. No HTTP status here: each door (REST, MCP, admin) maps the kind
 * once. Messages must never carry vendor text, SQL or a stack: they reach callers and models verbatim.
 */

export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'rate_limited'
  | 'price_changed'
  | 'provider_rejected'
  | 'provider_unavailable'
  | 'provider_timeout'
  | 'payment_declined'
  | 'unprocessable'
  | 'not_implemented';

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  /** A short, safe elaboration (the spec's `details`), e.g. which rule a provider applied. */
  readonly details: string | undefined;

  constructor(kind: ErrorKind, code: string, message: string, details?: string) {
    super(message);
    this.name = 'DomainError';
    this.kind = kind;
    this.code = code;
    this.details = details;
  }

  /**
   * Fields beyond code and message that say what to do next (the new total, the confirmation's URL),
   * snake_case as callers read them: every door adds them to its error body as they are.
   */
  get extras(): Record<string, unknown> {
    return {};
  }
}

/** One failed rule on one field; `field` is the dotted path into the input (`passengers.0.born_on`). */
export interface FieldError {
  field: string;
  rule: string;
  message: string;
}

export class ValidationError extends DomainError {
  readonly fields: Record<string, FieldError>;

  constructor(fields: FieldError[], message = 'The request is not valid: see `fields` for each rule that failed.') {
    super('validation', 'validation_error', message);
    this.fields = {};
    for (const error of fields) {
      // The first failure per field is the one to fix first; later ones often follow from it. Defined, not
      // assigned: a field named `__proto__` (an unknown key someone sent) would otherwise set the prototype.
      if (!Object.hasOwn(this.fields, error.field)) {
        Object.defineProperty(this.fields, error.field, { value: error, enumerable: true, writable: true, configurable: true });
      }
    }
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, code = 'not_found') {
    super('not_found', code, message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message: string, code = 'unauthenticated') {
    super('unauthenticated', code, message);
  }
}

/** The bearer access token is missing, invalid or expired (OAuth `invalid_token`). */
export class InvalidTokenError extends UnauthenticatedError {
  constructor(message: string) {
    super(message, 'invalid_token');
  }
}

/**
 * OAuth client authentication failed (RFC 6749 §5.2 `invalid_client`), on routes that take the client's
 * own credentials (the identity API, Basic only). `unauthenticated` (401, with a Basic challenge): no,
 * malformed or wrong credentials. `validation` (400): a client not registered for Basic credentials
 * presented them (a public client, or one registered for client_secret_post), as the specification says.
 */
export class InvalidClientError extends DomainError {
  constructor(message: string, kind: 'unauthenticated' | 'validation' = 'unauthenticated') {
    super(kind, 'invalid_client', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, code = 'forbidden') {
    super('forbidden', code, message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code = 'conflict') {
    super('conflict', code, message);
  }
}

/** A capability the service does not offer yet (for this provider, say): say what works instead. */
export class NotImplementedError extends DomainError {
  constructor(message: string, code = 'not_implemented') {
    super('not_implemented', code, message);
  }
}

export class GoneError extends DomainError {
  constructor(message: string, code = 'gone') {
    super('gone', code, message);
  }
}

/** The bearer token is valid but was not granted the scope the operation needs. */
export class InsufficientScopeError extends DomainError {
  readonly scope: string;

  constructor(scope: string) {
    super(
      'forbidden',
      'insufficient_scope',
      `This operation needs the "${scope}" scope, which the traveler has not granted to your client: ask for it in a new authorization request.`,
    );
    this.scope = scope;
  }
}

/** An outside system (provider, relay, vault) failed or cannot be reached; retrying later may work. */
export class ProviderUnavailableError extends DomainError {
  constructor(message: string, code = 'provider_unavailable') {
    super('provider_unavailable', code, message);
  }
}

/** A usage budget is spent; `retryAfterSeconds` tells when the next attempt can succeed. */
/** The provider refused the request (sold out, invalid passenger): `details` says which rule, in our words. */
export class ProviderRejectedError extends DomainError {
  constructor(message: string, code: string, details?: string) {
    super('provider_rejected', code, message, details);
  }
}

/**
 * The provider's total moved since the offer was priced (decisions §3: 409 `price_changed`). `orderId` is
 * the provider's order that can now be paid at the new total (retryProviderBooking), or null where no
 * order exists: then price the offer again and book anew.
 */
export class PriceChangedError extends DomainError {
  readonly orderId: string | null;
  /** Decimal strings in `currency`. */
  readonly previousTotalAmount: string;
  readonly newTotalAmount: string;
  readonly currency: string;

  constructor(input: { orderId: string | null; previousTotalAmount: string; newTotalAmount: string; currency: string; message?: string }) {
    super(
      'price_changed',
      'price_changed',
      input.message ??
        (input.orderId
          ? `The airline's total changed from ${input.previousTotalAmount} to ${input.newTotalAmount} ${input.currency}: show the traveler the new total, then retry with order_id ${input.orderId} (retryProviderBooking).`
          : `The airline's total changed from ${input.previousTotalAmount} to ${input.newTotalAmount} ${input.currency}: price the offer again, show the traveler the new total, then book with a new idempotency_key.`),
    );
    this.orderId = input.orderId;
    this.previousTotalAmount = input.previousTotalAmount;
    this.newTotalAmount = input.newTotalAmount;
    this.currency = input.currency;
  }

  override get extras(): Record<string, unknown> {
    return { order_id: this.orderId, previous_total_amount: this.previousTotalAmount, new_total_amount: this.newTotalAmount, currency: this.currency };
  }
}

/** A purchase's total in parts, decimal strings in `currency`. */
export interface TotalBreakdown {
  base_amount: string | null;
  tax_amount: string | null;
  services_amount: string;
  seats_amount: string;
  total_amount: string;
  currency: string;
}

/**
 * The total the caller expected (create_booking's `expected_total`) is not the current one: 409
 * `total_changed` before any card is touched, with both, so the traveler can be shown the new one.
 */
export class TotalChangedError extends DomainError {
  constructor(
    readonly expected: { amount: string; currency: string },
    readonly current: TotalBreakdown,
  ) {
    super(
      'price_changed',
      'total_changed',
      `The total is now ${current.total_amount} ${current.currency}, not the ${expected.amount} ${expected.currency} you expected: show the traveler current_total, then book again with expected_total set to it.`,
    );
  }

  override get extras(): Record<string, unknown> {
    return { expected_total: this.expected, current_total: this.current, previous_total_amount: this.expected.amount, new_total_amount: this.current.total_amount, currency: this.current.currency };
  }
}

/**
 * A purchase through the tools waits for the traveler: they confirm it on our hosted page at `url`
 * (decisions §10). The MCP door turns this into an input-required result where the client can open a
 * URL, and otherwise answers it as an error with needs_user.
 */
export class ConfirmationRequiredError extends DomainError {
  constructor(
    readonly confirmationId: string,
    readonly url: string,
    readonly expiresAt: string,
    message?: string,
    code = 'confirmation_required',
  ) {
    super(
      'forbidden',
      code,
      message ??
        `The traveler must confirm this purchase before any card is charged: show them ${url} (open it in their browser; it expires at ${expiresAt}), then call create_booking again with the same arguments and confirmation_id ${confirmationId}.`,
    );
  }

  override get extras(): Record<string, unknown> {
    return { confirmation_id: this.confirmationId, confirmation_url: this.url, expires_at: this.expiresAt };
  }
}

/** The provider did not answer within the time its capabilities allow. */
export class ProviderTimeoutError extends DomainError {
  constructor(message: string, code = 'provider_timeout') {
    super('provider_timeout', code, message);
  }
}

/**
 * The card issuer or the processor refused the card. `code` is `card_declined`; `details` says why in
 * words the traveler can act on (another card, the expiry date, the security code, a call to the bank).
 */
export class CardDeclinedError extends DomainError {
  /** A stable reason: `generic_decline`, `insufficient_funds`, `expired_card`, `incorrect_cvc`, ... */
  readonly reason: string;

  constructor(message: string, reason: string) {
    super('payment_declined', 'card_declined', message, reason);
    this.reason = reason;
  }
}

/** The request is well formed but cannot apply to this resource as it is (a legacy card's vault fields, say). */
export class UnprocessableError extends DomainError {
  constructor(message: string, code: string) {
    super('unprocessable', code, message);
  }
}

export class RateLimitedError extends DomainError {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number, code = 'rate_limited') {
    super('rate_limited', code, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** What a caller is told of a failure on our side, with the request id to quote (the detail is in the log). */
export function internalErrorMessage(requestId: string): string {
  return `Something went wrong on our side. Retry in a moment; if it keeps failing, contact support and quote request id ${requestId}.`;
}
