import { instantOfWallClock, zoneOrDefault } from '@contract/time-zones';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The instant a calendar day (`YYYY-MM-DD`, as a date field gives it) starts in `timeZone`
 * (an unknown zone: the default), as ISO 8601 in UTC; null for a value that is not a day.
 * `offsetDays` moves to a later day first: the end of a day is the start of the next one.
 */
export function startOfDayIn(
  day: string,
  timeZone: string | null | undefined,
  offsetDays = 0,
): string | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [, y, m, d] = match;
  const wallMs = Date.UTC(Number(y), Number(m) - 1, Number(d) + offsetDays);
  if (Number.isNaN(wallMs)) return null;
  return new Date(instantOfWallClock(wallMs, zoneOrDefault(timeZone))).toISOString();
}

/**
 * The last millisecond of `day` in `timeZone`, as ISO 8601 in UTC: the inclusive end of a window
 * of whole days. Null for anything but a day.
 */
export function endOfDayIn(day: string, timeZone: string | null | undefined): string | null {
  const next = startOfDayIn(day, timeZone, 1);
  return next === null ? null : new Date(Date.parse(next) - 1).toISOString();
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * The instant a wall-clock time (`YYYY-MM-DDTHH:mm`, as a datetime-local field gives it) names
 * in `timeZone` (an unknown zone: the default), as ISO 8601 in UTC; null for anything else.
 */
export function wallTimeIn(value: string, timeZone: string | null | undefined): string | null {
  const match = WALL_TIME.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match;
  const wallMs = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  if (Number.isNaN(wallMs)) return null;
  return new Date(instantOfWallClock(wallMs, zoneOrDefault(timeZone))).toISOString();
}
