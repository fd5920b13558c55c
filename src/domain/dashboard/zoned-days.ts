import { instantOfWallClock, wallClockAt } from '../time-zones.js';

/** One calendar day in a time zone: its date and the instants it starts and ends. */
export interface ZonedDay {
  /** `YYYY-MM-DD` on the zone's calendar. */
  readonly day: string;
  readonly startMs: number;
  /** The start of the next day (23 or 25 hours later across a DST change). */
  readonly endMs: number;
}

/**
 * The `count` calendar days in `timeZone` that end with the one `nowMs` falls on, oldest first.
 * Each day's start is found from the zone's offset (checked twice, so right across DST).
 */
export function lastDaysIn(timeZone: string, nowMs: number, count: number): ZonedDay[] {
  const today = wallClockAt(nowMs, timeZone);
  const days: ZonedDay[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const wallMs = Date.UTC(today.year, today.month - 1, today.day - back);
    const startMs = instantOfWallClock(wallMs, timeZone);
    const endMs = instantOfWallClock(wallMs + DAY_MS, timeZone);
    days.push({ day: new Date(wallMs).toISOString().slice(0, 10), startMs, endMs });
  }
  return days;
}

const DAY_MS = 86_400_000;
