/** Checks of a normalized offer before anything is stored (the native object passes core's input checks). */
import { ValidationError, type FieldError } from '../errors.js';
import { boundProblem, toMinorUnits } from '../money/money.js';
import type { Offer } from './offer-schemas.js';

type Amount = [field: string, amount: string | null | undefined, currency: string | null | undefined];

/**
 * Amounts a price can have: none negative, none beyond the bound every amount is held to (MAX_WHOLE_DIGITS:
 * what the database and the booking's arithmetic hold), and base plus tax within the total.
 */
export function checkAmounts(offer: Offer): void {
  const problems: FieldError[] = [];
  const units = (amount: string, currency: string) => toMinorUnits(amount, currency);
  const amounts: Amount[] = [
    ['total_amount', offer.total_amount, offer.total_currency],
    ['base_amount', offer.base_amount, offer.base_currency],
    ['tax_amount', offer.tax_amount, offer.tax_currency],
    ...(offer.available_services ?? []).map((service, index): Amount => [`available_services.${index}.total_amount`, service.total_amount, service.total_currency]),
  ];
  for (const [field, amount, currency] of amounts) {
    if (amount != null && currency != null && units(amount, currency) < 0n) problems.push({ field, rule: 'not_negative', message: `${amount} is negative` });
  }
  for (const [field, amount, currency] of [...amounts, ...penaltyAmounts(offer)]) {
    const problem = amount != null && currency != null ? boundProblem(units(amount, currency), currency, field) : undefined;
    if (problem) problems.push(problem);
  }
  const sameCurrency = [offer.base_currency, offer.tax_currency].every((currency) => currency == null || currency === offer.total_currency);
  if (!sameCurrency) problems.push({ field: 'total_currency', rule: 'one_currency', message: 'base, tax and total must be in one currency' });
  if (problems.length === 0 && offer.base_amount != null) {
    const parts = units(offer.base_amount, offer.total_currency) + (offer.tax_amount != null ? units(offer.tax_amount, offer.total_currency) : 0n);
    if (parts > units(offer.total_amount, offer.total_currency)) {
      problems.push({ field: 'total_amount', rule: 'consistent', message: 'base and tax add up to more than the total' });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems, 'The offer states a price that cannot be: see `fields`.');
}

/** The fare's penalties and fees: shown, never charged, but amounts all the same. */
function penaltyAmounts(offer: Offer): Amount[] {
  const conditions = (path: string, value: Offer['conditions']): Amount[] =>
    (['refund_before_departure', 'change_before_departure'] as const).map((name): Amount => [`${path}.${name}.penalty_amount`, value[name]?.penalty_amount, value[name]?.penalty_currency]);
  const fares = offer.fare_class_metadata;
  return [
    ...conditions('conditions', offer.conditions),
    ...offer.slices.flatMap((slice, index) => conditions(`slices.${index}.conditions`, slice.conditions)),
    ...(fares
      ? ([
          ['fare_class_metadata.seat_selection_fee', fares.seat_selection_fee, fares.seat_selection_currency],
          ['fare_class_metadata.change_penalty_amount', fares.change_penalty_amount, fares.change_penalty_currency],
          ['fare_class_metadata.refund_penalty_amount', fares.refund_penalty_amount, fares.refund_penalty_currency],
        ] satisfies Amount[])
      : []),
  ];
}
