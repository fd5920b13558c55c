import { DomainError } from '../errors.js';

// ISO 8601 with a required UTC offset (or Z): 2026-12-01T09:30:00+07:00
const SHAPE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/** Parses `scheduledTime`; it must carry an offset, name a real instant, and lie in the future. */
export function parseScheduledTime(value: unknown, nowMs: number): number {
  if (typeof value !== 'string') {
    throw invalid('scheduledTime must be an ISO 8601 string with a UTC offset');
  }
  const match = SHAPE.exec(value);
  if (!match) {
    throw invalid(
      'scheduledTime must look like 2026-12-01T09:30:00+07:00 (ISO 8601 with a UTC offset)',
    );
  }
  const [, y, mo, d, h, mi, s = '0', frac = '0', , sign, oh = '0', om = '0'] = match;
  const fields = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [year, month, day, hour, minute, second] = fields;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const localMs = Date.UTC(
    year,
    month - 1,
    day,
    hour,
    minute,
    second,
    Number(frac.padEnd(3, '0').slice(0, 3)),
  );
  const check = new Date(localMs);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    Number(oh) > 23 ||
    Number(om) > 59
  ) {
    throw invalid(`scheduledTime ${value} is not a real date and time`);
  }
  const instant = localMs - offsetMinutes * 60_000;
  if (instant <= nowMs) throw invalid('scheduledTime must be in the future');
  return instant;
}

function invalid(message: string): DomainError {
  return new DomainError('INVALID_SCHEDULED_TIME', message);
}
