/** IATA passenger types by age on the day of travel: infant under 2, child 2 to 11, adult 12 and over. */
import type { TravelerType } from './schemas.js';

/** `dateOfBirth` and `on` as YYYY-MM-DD. */
export function travelerTypeOn(dateOfBirth: string, on: string): TravelerType {
  const age = ageOn(dateOfBirth, on);
  if (age < 2) return 'infant';
  if (age < 12) return 'child';
  return 'adult';
}

/** Whole years between the two days; a 29 February birthday comes round on 1 March in other years. */
export function ageOn(dateOfBirth: string, on: string): number {
  const [birthYear, birthMonth, birthDay] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [year, month, day] = on.split('-').map(Number) as [number, number, number];
  const hadBirthday = month > birthMonth || (month === birthMonth && day >= birthDay);
  return year - birthYear - (hadBirthday ? 0 : 1);
}
