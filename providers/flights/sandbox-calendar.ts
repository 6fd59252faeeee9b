/**
 * The sandboxes' calendar. Their fixtures are written as if today were FIXTURE_TODAY; each sandbox serves
 * them moved by whole days to the real today, so an offer always departs the same number of days ahead,
 * at the same local time (three to five weeks: inside every provider's booking window, and far from its
 * `min_advance_booking_hours`). The same offer means the same thing on any day; only its dates move.
 * Times the provider sets relative to its own clock (expiries, payment deadlines) are set from the clock
 * when served, as each sandbox's own module says.
 */

/** The day the fixtures were written for: their flights leave 2026-06-01 to 2026-06-15, 3 to 5 weeks later. */
export const FIXTURE_TODAY = '2026-05-11';

const DAY_MS = 86_400_000;

export interface SandboxCalendar {
  /** Whole days from FIXTURE_TODAY to today (UTC). */
  readonly days: number;
  /**
   * A fixture's date or local date-time moved by `days`, in the form it came in: `2026-06-01`,
   * `2026-06-01T08:25`, `2026-06-01T08:25:00`, `2026-06-01T08:25:00.000Z` (the time of day is kept).
   */
  move(value: string): string;
  /** The same for a day written `dd/mm/YYYY` (provider_d's dates). */
  moveDayMonthYear(value: string): string;
}

export function sandboxCalendar(now: Date): SandboxCalendar {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Math.round((today - Date.parse(`${FIXTURE_TODAY}T00:00:00Z`)) / DAY_MS);
  return {
    days,
    move: (value) => moveLeadingDate(value, days),
    moveDayMonthYear: (value) => {
      const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
      if (!match) throw new RangeError(`${value} is not a dd/mm/YYYY date`);
      const [, day, month, year] = match;
      const [movedYear, movedMonth, movedDay] = moveLeadingDate(`${year}-${month}-${day}`, days).split('-');
      return `${movedDay}/${movedMonth}/${movedYear}`;
    },
  };
}

function moveLeadingDate(value: string, days: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) throw new RangeError(`${value} does not start with a date`);
  const moved = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + days * DAY_MS);
  return `${moved.toISOString().slice(0, 10)}${value.slice(10)}`;
}
