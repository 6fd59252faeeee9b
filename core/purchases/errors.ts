/**
 * The refusals of a purchase through the tools (decisions §10). Each says what the agent does next; the
 * doors add the extras to their error bodies as they are. The codes are stable: the errors catalog
 * (core/error-catalog.ts) documents them.
 */
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from '../errors.js';

/** Which of the traveler's caps refused the purchase; `currency`: the purchase is in another currency than the caps. */
export type ExceededLimit = 'per_booking' | 'per_30_days' | 'currency';

/**
 * 403 `spending_limit_exceeded`: the purchase would go over a spending limit the traveler set for this
 * agent. Refused before any card is touched; only the traveler can raise the limit, on the connected apps
 * page (`apps_url`).
 */
export class SpendingLimitExceededError extends ForbiddenError {
  constructor(
    readonly detail: {
      limit: ExceededLimit;
      /** The cap, a decimal string in `currency` (null: a currency refusal on a limit with no cap of that kind). */
      limitAmount: string | null;
      /** The limit's currency. */
      currency: string;
      /** What this agent spent for the traveler in the rolling 30 days, in `currency`, without this purchase. */
      spentAmount: string;
      purchaseAmount: string;
      purchaseCurrency: string;
      appsUrl: string;
    },
    message: string,
  ) {
    super(message, 'spending_limit_exceeded');
  }

  override get extras(): Record<string, unknown> {
    const { detail } = this;
    return {
      limit: detail.limit,
      limit_amount: detail.limitAmount,
      currency: detail.currency,
      spent_amount: detail.spentAmount,
      purchase_amount: detail.purchaseAmount,
      purchase_currency: detail.purchaseCurrency,
      apps_url: detail.appsUrl,
    };
  }
}

/** Unknown, another traveler's and another agent's confirmations all answer the same: nothing tells them apart. */
export function confirmationNotFound(id: string): NotFoundError {
  return new NotFoundError(
    `There is no confirmation ${id} for this traveler and this app: call create_booking without confirmation_id to ask the traveler to confirm the purchase.`,
    'confirmation_not_found',
  );
}

export function confirmationDeclined(id: string): ForbiddenError {
  return new ForbiddenError(
    `The traveler declined this purchase (confirmation ${id}): do not book it. Ask the traveler what they want instead; a new create_booking call without confirmation_id asks them again.`,
    'confirmation_declined',
  );
}

export function confirmationExpired(id: string, expiresAt: string): GoneError {
  return new GoneError(
    `Confirmation ${id} expired at ${expiresAt} before it was used: call create_booking again without confirmation_id to ask the traveler for a new one.`,
    'confirmation_expired',
  );
}

export function confirmationUsed(id: string): ConflictError {
  return new ConflictError(
    `Confirmation ${id} was used for a booking already and cannot pay for another: read that booking with get_booking, or call create_booking without confirmation_id for a new purchase.`,
    'confirmation_used',
  );
}
