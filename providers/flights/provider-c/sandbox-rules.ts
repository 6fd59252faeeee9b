/**
 * The airline's rules the sandbox applies to offers and passengers: how it reprices, how it compares
 * amounts, and which passengers OrderCreate refuses.
 */
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import { MAGIC_SURNAME_INVALID } from './sandbox-magic.js';
import type { WireOffer } from './wire.js';

type Amount = { amount: string; curCode: string };

/** 7.5% more on each passenger's base fare; taxes stay as they were, the totals follow. */
export function repriced(offer: WireOffer): WireOffer {
  const copy = structuredClone(offer);
  const currency = copy.TotalPrice.TotalAmount.curCode;
  const add = (amount: { amount: string }, units: bigint) => {
    amount.amount = fromMinorUnits(toMinorUnits(amount.amount, currency) + units, currency);
  };
  for (const item of copy.OfferItem) {
    const increase = (toMinorUnits(item.Price.BaseAmount.amount, currency) * 75n) / 1000n;
    add(item.Price.BaseAmount, increase);
    add(item.Price.TotalAmount, increase);
    add(copy.TotalPrice.TotalAmount, increase * BigInt(item.FareDetail.PaxRefID.length));
  }
  return copy;
}

export function sameAmount(a: Amount, b: Amount): boolean {
  try {
    return a.curCode === b.curCode && toMinorUnits(a.amount, a.curCode) === toMinorUnits(b.amount, b.curCode);
  } catch {
    // More decimals than the currency has, or no currency at all: not the amount asked for.
    return false;
  }
}

export interface Person {
  PaxID: string;
  Individual?: { GivenName?: string; Surname?: string; Birthdate?: string };
}

/**
 * VS OrderCreate's codes: a surname (151) and a given name (152) for every passenger of the offer;
 * names of letters, spaces, hyphens and apostrophes only (314, also for the magic surname); a birth date
 * that fits the passenger type on the day of the first flight (73): adults 12 and over, children 2 to
 * 11, infants under 2.
 */
export function passengerRefusal(offer: WireOffer, people: Person[]): { code: string; text: string } | undefined {
  const travelDay = offer.DataLists.DatedMarketingSegmentList[0]?.Dep.AircraftScheduledDateTime.slice(0, 10) ?? '';
  for (const passenger of offer.DataLists.PaxList) {
    const person = people.find((item) => item.PaxID === passenger.PaxID)?.Individual;
    if (!person?.Surname) return { code: '151', text: `Surname Mandatory and must be more than 2 characters (${passenger.PaxID})` };
    if (!person.GivenName) return { code: '152', text: `GivenName Mandatory (${passenger.PaxID})` };
    const names = [person.GivenName, person.Surname];
    if (person.Surname.toUpperCase() === MAGIC_SURNAME_INVALID || names.some((name) => !/^\p{L}[\p{L} '-]*$/u.test(name))) {
      return { code: '314', text: `Name element data invalid. Enter only letters, blanks in the name field (${passenger.PaxID})` };
    }
    if (person.Birthdate !== undefined) {
      const age = ageOn(person.Birthdate, travelDay);
      const fits = { ADT: (years: number) => years >= 12, CHD: (years: number) => years >= 2 && years < 12, INF: (years: number) => years < 2 }[passenger.PTC];
      if (age === undefined || age < 0 || (fits && !fits(age))) return { code: '73', text: `Invalid age for PTC (${passenger.PaxID})` };
    }
  }
  return undefined;
}

/** Whole years from `birth` to `day` (both YYYY-MM-DD); undefined for a date that is not one. */
function ageOn(birth: string, day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(birth) || Number.isNaN(Date.parse(`${birth}T00:00:00Z`))) return undefined;
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [dy, dm, dd] = day.split('-').map(Number) as [number, number, number];
  return dy - by - (dm < bm || (dm === bm && dd < bd) ? 1 : 0);
}
