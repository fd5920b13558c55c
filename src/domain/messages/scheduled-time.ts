import { parseDateTime } from '../date-time.js';
import { DomainError } from '../errors.js';

/** Parses `scheduledTime`; it must carry an offset, name a real instant, and lie in the future. */
export function parseScheduledTime(value: unknown, nowMs: number): number {
  if (typeof value !== 'string') {
    throw invalid('scheduledTime must be an ISO 8601 string with a UTC offset');
  }
  const instant = parseDateTime(value);
  if (instant === null) {
    throw invalid(
      `scheduledTime ${JSON.stringify(value)} is not a real date-time like 2026-12-01T09:30:00+07:00 (RFC 3339, with seconds and a UTC offset)`,
    );
  }
  if (instant <= nowMs) throw invalid('scheduledTime must be in the future');
  return instant;
}

function invalid(message: string): DomainError {
  return new DomainError('INVALID_SCHEDULED_TIME', message);
}
