/** Checks of a normalized offer before anything is stored (the native object passes core's input checks). */
import { ValidationError, type FieldError } from '../errors.js';
import { toMinorUnits } from '../money/money.js';
import type { Offer } from './offer-schemas.js';

/** Amounts a price can have: none negative, and base plus tax within the total. */
export function checkAmounts(offer: Offer): void {
  const problems: FieldError[] = [];
  const units = (amount: string, currency: string) => toMinorUnits(amount, currency);
  const amounts: [string, string | null | undefined, string | null | undefined][] = [
    ['total_amount', offer.total_amount, offer.total_currency],
    ['base_amount', offer.base_amount, offer.base_currency],
    ['tax_amount', offer.tax_amount, offer.tax_currency],
    ...(offer.available_services ?? []).map((service, index) => [`available_services.${index}.total_amount`, service.total_amount, service.total_currency] as [string, string, string]),
  ];
  for (const [field, amount, currency] of amounts) {
    if (amount != null && currency != null && units(amount, currency) < 0n) problems.push({ field, rule: 'not_negative', message: `${amount} is negative` });
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
