/**
 * The clocks at provider_d's sandbox airports: when a local time there happens, and what the clocks there
 * say at an instant. Its flights are served on any date (searched for, or fixtures moved by the sandbox
 * calendar), so summer and winter alike: each airport's real time zone, changes of clocks included. The
 * magic destinations (Z..) are no real airports: they keep London time, like the LHR they are flown from.
 */
import { instantAt, timeZoneOf } from '../../../core/flights/airport-zones.js';

/** The airport whose clock an airport keeps: its own, or London's for one without a known zone. */
const clockOf = (airport: string) => (timeZoneOf(airport) ? airport : 'LHR');

/** The instant the local time `local` (`2026-06-01T08:25:00`) names at `airport`. */
export function instantAtAirport(airport: string, local: string): Date {
  return instantAt(clockOf(airport), local);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local time at `airport` at `instant`, `2026-06-01T08:25:00`. */
export function localTimeAt(airport: string, instant: Date): string {
  const zone = timeZoneOf(clockOf(airport)) as string;
  let format = formatters.get(zone);
  if (!format) {
    const twoDigits = '2-digit' as const;
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: twoDigits, day: twoDigits, hour: twoDigits, minute: twoDigits, second: twoDigits });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}`;
}
