/**
 * The one reading of dates and date-times the API accepts (scheduledTime, and the from/to
 * window of the message list). The patterns are also written into the OpenAPI document, beside
 * `format: date-time` / `format: date`: a value matches the document exactly when it is read here.
 *
 * A date-time is RFC 3339 §5.6 with an upper-case `T`, seconds, at most 9 fraction digits and a
 * UTC offset (`Z` or ±hh:mm); no leap second. A date is RFC 3339 `full-date`.
 */
export const DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,9})?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)$';
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

const DATE_TIME = new RegExp(DATE_TIME_PATTERN);
const DATE = new RegExp(DATE_PATTERN);

/** The instant of an RFC 3339 date-time with an offset, or null if it is not one or not real. */
export function parseDateTime(value: string): number | null {
  if (!DATE_TIME.test(value) || !isRealDate(value.slice(0, 10))) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** The first millisecond (UTC) of an RFC 3339 full-date, or null if it is not a real date. */
export function parseDate(value: string): number | null {
  if (!DATE.test(value) || !isRealDate(value)) return null;
  return Date.parse(`${value}T00:00:00Z`);
}

/** Date.parse rolls 2026-02-30 over to March: the date must read back as itself. */
function isRealDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}
