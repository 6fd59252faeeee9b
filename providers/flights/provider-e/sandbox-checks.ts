/**
 * What provider_e's prebook checks in a checkout's contact and passengers: the airline's name rules, one
 * passenger per passenger of the offer, and the documents the offer requires. A magic last name fails the
 * airline's own name check.
 */
import type { NativeOffer } from './sandbox-catalogue.js';
import type { Problem } from './sandbox-dialect.js';

/** A passenger with this last name fails the airline's name check at prebook: 400 validation (4002). */
export const MAGIC_LAST_NAME = 'INVALID';

/** Names as airlines print them on tickets: letters, spaces, hyphens and apostrophes. */
const NAME = /^[\p{L}][\p{L} '-]*$/u;

export function contactProblems(contact: unknown): Problem[] {
  const value = (contact ?? {}) as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const field of ['firstName', 'lastName'] as const) {
    if (typeof value[field] !== 'string' || !NAME.test(value[field])) problems.push({ field: `contact.${field}`, message: `${field} is required: letters only` });
  }
  if (typeof value.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value.email)) problems.push({ field: 'contact.email', message: 'email is not valid' });
  if (typeof value.phone !== 'string' || !/^\+\d{7,15}$/.test(value.phone)) problems.push({ field: 'contact.phone', message: 'phone must be in E.164 form' });
  return problems;
}

/** One passenger per passenger of the offer, in its order and of its type, with what the airline needs. */
export function passengerProblems(passengers: unknown, offer: NativeOffer, now: Date): Problem[] {
  if (!Array.isArray(passengers) || passengers.length !== offer.passengers.length) {
    return [{ field: 'passengers', message: `exactly ${offer.passengers.length} passengers are required, as in the offer` }];
  }
  return passengers.flatMap((item: unknown, index: number): Problem[] => {
    const passenger = (item ?? {}) as Record<string, unknown>;
    const expected = offer.passengers[index] as NativeOffer['passengers'][number];
    const at = (field: string) => `passengers[${index}].${field}`;
    const problems: Problem[] = [];
    if (passenger.passengerRef !== undefined && passenger.passengerRef !== expected.passengerRef) problems.push({ field: at('passengerRef'), message: `must be ${expected.passengerRef}` });
    if (passenger.type !== expected.type) problems.push({ field: at('type'), message: `must be ${expected.type}` });
    for (const field of ['firstName', 'lastName'] as const) {
      const name = passenger[field];
      if (typeof name !== 'string' || !NAME.test(name)) problems.push({ field: at(field), message: `${field} is required: letters, spaces, hyphens and apostrophes` });
    }
    if (typeof passenger.lastName === 'string' && passenger.lastName.toUpperCase() === MAGIC_LAST_NAME) {
      problems.push({ field: at('lastName'), message: 'the airline rejected the name' });
    }
    const birthday = typeof passenger.birthday === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(passenger.birthday) ? new Date(`${passenger.birthday}T00:00:00Z`) : null;
    if (!birthday || Number.isNaN(birthday.getTime()) || birthday >= now) problems.push({ field: at('birthday'), message: 'birthday must be a past date as YYYY-MM-DD' });
    if (passenger.gender !== 'M' && passenger.gender !== 'F') problems.push({ field: at('gender'), message: 'gender must be M or F' });
    if (offer.requirements.documentRequired) {
      const document = (passenger.document ?? {}) as Record<string, unknown>;
      if (!offer.requirements.documentTypes.includes(String(document.type)) || typeof document.number !== 'string' || typeof document.expiryDate !== 'string') {
        problems.push({ field: at('document'), message: `a document (${offer.requirements.documentTypes.join(' or ')}) with number and expiryDate is required` });
      }
    }
    return problems;
  });
}
