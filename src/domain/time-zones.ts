/**
 * Time zones, for the server and the console alike (the browser imports this file through the
 * contract): which zones are known, the platform's default, and the arithmetic between an
 * instant and a zone's wall clock. Pure: Intl only.
 */

/** The zone of a person who has not chosen one: the platform serves Thailand first. */
export const DEFAULT_TIME_ZONE = 'Asia/Bangkok';

let known: ReadonlySet<string> | undefined;

/**
 * Whether `zone` is an IANA zone this runtime knows by its canonical name (`UTC` too): what a
 * profile may hold. Aliases and offsets (`+07:00`) are refused, as the profile's form lists them.
 */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  if (zone === 'UTC') return true;
  try {
    known ??= new Set(Intl.supportedValuesOf('timeZone'));
  } catch {
    return false;
  }
  return known.has(zone);
}

/** `zone` when it is known, else the platform default: a bad stored value never breaks a page. */
export function zoneOrDefault(zone: string | null | undefined): string {
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

/** A zone's wall clock at an instant, to the second; month 1 to 12. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** What `zone`'s wall clock reads at `instantMs`. */
export function wallClockAt(instantMs: number, zone: string): WallClock {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instantMs)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** How far `zone`'s wall clock is ahead of UTC at `instantMs`. */
function offsetMs(instantMs: number, zone: string): number {
  const w = wallClockAt(instantMs, zone);
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wall - Math.floor(instantMs / 1000) * 1000;
}

/**
 * The instant `zone`'s wall clock reads `wallMs` (a wall time written as if it were UTC, e.g.
 * `Date.UTC(2026, 10, 25, 9, 30)`). The zone's offset is taken at a guess, then again at the
 * result, so a time just across a daylight-saving change comes out right too.
 */
export function instantOfWallClock(wallMs: number, zone: string): number {
  const guess = wallMs - offsetMs(wallMs, zone);
  return wallMs - offsetMs(guess, zone);
}
