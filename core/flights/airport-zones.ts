/**
 * Airports' time zones, to know when a flight leaves: every provider gives departure times local to the
 * airport, without offset. The table covers the airports the sandboxes fly and the world's busiest hubs;
 * an airport it does not know is read at the latest instant its local time can mean (UTC−12), so a check
 * made with it never refuses a flight that is still bookable: the provider remains the judge.
 */

const ZONE_OF: Record<string, string> = {
  // The sandboxes' airports.
  LHR: 'Europe/London',
  LGW: 'Europe/London',
  DUB: 'Europe/Dublin',
  CDG: 'Europe/Paris',
  ORY: 'Europe/Paris',
  JFK: 'America/New_York',
  EWR: 'America/New_York',
  SFO: 'America/Los_Angeles',
  NRT: 'Asia/Tokyo',
  HND: 'Asia/Tokyo',
  DXB: 'Asia/Dubai',
  KWI: 'Asia/Kuwait',
  // Other hubs.
  AMS: 'Europe/Amsterdam',
  FRA: 'Europe/Berlin',
  MUC: 'Europe/Berlin',
  MAD: 'Europe/Madrid',
  BCN: 'Europe/Madrid',
  FCO: 'Europe/Rome',
  ZRH: 'Europe/Zurich',
  IST: 'Europe/Istanbul',
  DOH: 'Asia/Qatar',
  SIN: 'Asia/Singapore',
  HKG: 'Asia/Hong_Kong',
  ICN: 'Asia/Seoul',
  PEK: 'Asia/Shanghai',
  PVG: 'Asia/Shanghai',
  DEL: 'Asia/Kolkata',
  BOM: 'Asia/Kolkata',
  SYD: 'Australia/Sydney',
  LAX: 'America/Los_Angeles',
  ORD: 'America/Chicago',
  ATL: 'America/New_York',
  DFW: 'America/Chicago',
  DEN: 'America/Denver',
  YYZ: 'America/Toronto',
  MEX: 'America/Mexico_City',
  GRU: 'America/Sao_Paulo',
  JNB: 'Africa/Johannesburg',
};

/** The latest offset a local time can be read at: UTC−12. */
const LATEST_OFFSET_MINUTES = -12 * 60;

const DAY_MS = 86_400_000;

export function timeZoneOf(airport: string): string | undefined {
  return ZONE_OF[airport.toUpperCase()];
}

/**
 * The instant `localTime` (`2026-06-01T08:25` or with seconds) names at `airport`. Unknown airports are
 * read at UTC−12, the latest instant the local time can be anywhere. Around a change of clocks the later
 * reading is taken, in every zone alike: a time of the hour that happens twice is its second instance,
 * and one of the hour skipped is read at the offset before the change (01:30 in London on the spring
 * change is 02:30 summer time, as clocks not yet put forward would show it).
 */
export function instantAt(airport: string, localTime: string): Date {
  const asUtc = Date.parse(`${localTime.slice(0, 19)}Z`);
  if (Number.isNaN(asUtc)) throw new RangeError(`${localTime} is not a local time`);
  const zone = timeZoneOf(airport);
  if (!zone) return new Date(asUtc - LATEST_OFFSET_MINUTES * 60_000);
  // The instants the local time names at the zone's offsets a day before and a day after (a change of
  // clocks lies between at most once); those at which the zone's clocks do show it, or else both.
  const readings = [...new Set([offsetMinutes(zone, asUtc - DAY_MS), offsetMinutes(zone, asUtc + DAY_MS)])].map((offset) => asUtc - offset * 60_000);
  const shown = readings.filter((instant) => instant + offsetMinutes(zone, instant) * 60_000 === asUtc);
  return new Date(Math.max(...(shown.length > 0 ? shown : readings)));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instant`, in minutes (east positive). */
function offsetMinutes(zone: string, instant: number): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(instant)).map(({ type, value }) => [type, Number(value)]));
  const wall = Date.UTC(part.year as number, (part.month as number) - 1, part.day, part.hour, part.minute, part.second);
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
}
