/**
 * The vault's checks of a card it is asked to keep, past the types the wire schema checks: the
 * number (digits, length, Luhn), the expiry (a month, a four-digit year, not past) and the security
 * code's length for the card's network. Answers the problems per field, in the vault's words and keys.
 */
import { cvcLengthOf, hasExpired, isValidCardNumber, networkOf, normalizeCardNumber, type CardNetwork } from './card-numbers.js';
import type { WireCardData } from './wire.js';

export interface CheckedCard {
  number: string;
  network: CardNetwork;
  expirationMonth: number;
  expirationYear: number;
  cvc: string | undefined;
}

export type FieldProblems = Record<string, string[]>;

/** The card, normalized, or the problems found (`data.number`, `data.expiration_month`, ...). */
export function checkCard(data: WireCardData, now: Date): { card: CheckedCard } | { problems: FieldProblems } {
  const problems: FieldProblems = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);

  const number = normalizeCardNumber(data.number);
  if (number === '') add('data.number', 'Card number is required.');
  else if (!isValidCardNumber(number)) add('data.number', 'Card number is invalid.');
  const network = networkOf(number);

  const month = data.expiration_month;
  const year = data.expiration_year;
  const monthValid = month >= 1 && month <= 12;
  const yearValid = year >= 1000 && year <= 9999;
  if (!monthValid) add('data.expiration_month', 'Expiration month must be between 1 and 12.');
  if (!yearValid) add('data.expiration_year', 'Expiration year must be 4 digits.');
  if (monthValid && yearValid && hasExpired(month, year, now)) {
    add(year < now.getUTCFullYear() ? 'data.expiration_year' : 'data.expiration_month', 'Card is expired.');
  }

  if (data.cvc !== undefined) {
    const length = cvcLengthOf(network);
    if (!new RegExp(`^\\d{${length}}$`).test(data.cvc)) {
      add('data.cvc', network === 'amex' ? 'CVC must be 4 digits for American Express.' : `CVC must be ${length} digits.`);
    }
  }

  if (Object.keys(problems).length > 0) return { problems };
  return { card: { number, network, expirationMonth: month, expirationYear: year, cvc: data.cvc } };
}
