/**
 * A purchase against the traveler's spending limit for the agent (decisions §10): per booking, and over
 * the rolling 30 days with this purchase included, in the limit's currency.
 *
 * A purchase in another currency than the limit's is refused too (limit `currency`): the service holds
 * no exchange rates, and a cap the traveler cannot predict is no cap. They can set the limit in the
 * purchase's currency, or remove it, on the connected apps page.
 */
import { fromMinorUnits } from '../money/money.js';
import type { SpendingLimit } from './contracts.js';
import { SpendingLimitExceededError, type ExceededLimit } from './errors.js';

export interface LimitedPurchase {
  amountMinor: bigint;
  currency: string;
}

/** Throws SpendingLimitExceededError when `purchase` goes over `limit`, given what the agent spent before it. */
export function checkSpendingLimit(limit: SpendingLimit, purchase: LimitedPurchase, spentBeforeMinor: bigint, appsUrl: string): void {
  const money = (minor: bigint | null) => (minor === null ? null : fromMinorUnits(minor, limit.currency));
  const refuse = (which: ExceededLimit, capMinor: bigint | null, message: string) =>
    new SpendingLimitExceededError(
      {
        limit: which,
        limitAmount: money(capMinor),
        currency: limit.currency,
        spentAmount: money(spentBeforeMinor) as string,
        purchaseAmount: fromMinorUnits(purchase.amountMinor, purchase.currency),
        purchaseCurrency: purchase.currency,
        appsUrl,
      },
      message,
    );
  const total = `${fromMinorUnits(purchase.amountMinor, purchase.currency)} ${purchase.currency}`;
  const raise = `Nothing was charged. Tell the traveler: only they can change the limit, on ${appsUrl}; then call create_booking again.`;

  if (purchase.currency !== limit.currency) {
    throw refuse(
      'currency',
      limit.perBookingMinor ?? limit.per30DaysMinor,
      `The traveler's spending limit for this app is in ${limit.currency}, and this purchase is in ${purchase.currency} (${total}): it cannot be checked against the limit, so it is refused. ${raise}`,
    );
  }
  if (limit.perBookingMinor !== null && purchase.amountMinor > limit.perBookingMinor) {
    throw refuse(
      'per_booking',
      limit.perBookingMinor,
      `This purchase (${total}) is over the traveler's limit of ${money(limit.perBookingMinor)} ${limit.currency} per booking for this app. ${raise}`,
    );
  }
  if (limit.per30DaysMinor !== null && spentBeforeMinor + purchase.amountMinor > limit.per30DaysMinor) {
    throw refuse(
      'per_30_days',
      limit.per30DaysMinor,
      `This purchase (${total}) would take this app's spending for the traveler over their limit of ${money(limit.per30DaysMinor)} ${limit.currency} in 30 days (${money(spentBeforeMinor)} ${limit.currency} spent so far). ${raise}`,
    );
  }
}
